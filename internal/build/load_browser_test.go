package build_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// gpuReport is a probe report of n GPUs, every ordered pair among the first
// pairsOf of them NVLinked, as compact as the probe writes it.
func gpuReport(n, pairsOf int) string {
	var b strings.Builder
	b.WriteString(`{"schema_version":1,"probe":{"name":"p2p-probe","version":"test"},"nvml":{"available":true},"driver":{"version":"580.95.05","cuda":"13.0"},"gpus":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"index":%d,"name":"NVIDIA H100 80GB HBM3","architecture":"hopper"}`, i)
	}
	b.WriteString(`],"pairs":[`)
	first := true
	for i := range pairsOf {
		for j := range pairsOf {
			if i == j {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&b, `{"from":%d,"to":%d,"p2p_read":"OK","p2p_write":"OK","connection":"NV18"}`, i, j)
		}
	}
	fmt.Fprintf(&b, `],"summary":{"gpu_count":%d,"all_pairs_p2p":true,"blocked_pairs":[],"nvlink":true}}`, n)
	return b.String()
}

// deflateLink is a #probe= fragment of data, as p2p-probe --link makes it.
func deflateLink(data []byte) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(data)
	w.Close()
	return "#probe=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// msWatch makes every page note, in window.__msgAt, when the panel's message
// first changed, counted from the panel's scripts being ready (paste.js
// defines window.p2pkbPaste as it ends, and machine.js runs next): how long
// the panel took to accept or refuse; and in window.__markedAt when it had
// marked the page.
const msWatch = `(() => {
	let ready = 0, p;
	Object.defineProperty(window, "p2pkbPaste", { configurable: true, get: () => p, set: v => { p = v; window.__readyAt = ready = performance.now(); } });
	document.addEventListener("p2pkb-machine", () => { if (window.__markedAt === undefined) { window.__markedAt = performance.now() - ready; } });
	document.addEventListener("DOMContentLoaded", () => {
		const m = document.querySelector(".machine-message");
		if (!m) { return; }
		new MutationObserver(() => { if (window.__msgAt === undefined) { window.__msgAt = performance.now() - ready; } })
			.observe(m, { childList: true, characterData: true, subtree: true });
	});
})();`

// loadRow is one line of the load table: what was measured against the
// target the site holds itself to, and the bound the test fails past (wider,
// for a busy machine).
type loadRow struct {
	name           string
	took           time.Duration
	target, budget time.Duration
}

func logTable(t *testing.T, rows []loadRow) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-52s %10s %8s %8s\n", "case", "took", "target", "bound")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-52s %10s %8s %8s\n", r.name, r.took.Round(time.Millisecond/10), r.target, r.budget)
		if r.took > r.budget {
			t.Errorf("%s took %v, past its bound %v (target %v)", r.name, r.took, r.budget, r.target)
		}
	}
	t.Log(b.String())
}

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// median runs f n times and returns the middle figure.
func median(n int, f func() time.Duration) time.Duration {
	var d []time.Duration
	for range n {
		d = append(d, f())
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

// The browser reads probe reports as facts.Read does: the same documents are
// refused, at the same field, and those read are read alike.
func TestBrowserReportShapeAsGo(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	head := func(s string) string {
		return `{"schema_version": 1, "probe": {"name": "p2p-probe"}, ` + strings.TrimPrefix(s, "{")
	}
	docs := []string{
		head(`{"gpus": [null]}`),
		head(`{"software": {"python": [{"name": 7, "version": "1"}]}}`),
		head(`{"gpus": [{"index": 0, "onload": "x"}]}`),
		head(`{"gpus": [{"name": "` + strings.Repeat("é", facts.MaxString+1) + `"}]}`),
		head(`{"gpus": [{"name": "` + strings.Repeat("é", facts.MaxString) + `"}]}`),
		head(`{"gpus": [{"index": 1e19}]}`),
		head(`{"pairs": [{"from": 0.5}]}`),
		head(`{"summary": []}`),
		head(`{"driver": {"cuda_toolkit": null}}`),
		head(`{"driver": {"version": {"error": 3}}}`),
		head(`{"driver": {"version": {"error": "ERROR_NOT_SUPPORTED"}, "cuda": null}}`),
		head(`{"software": {"env": {"NCCL_X": {}}}}`),
		head(`{"software": {"env": {"__proto__": "x", "constructor": "y"}}}`),
		head(`{"constructor": 1}`),
		head(`{"gpus": null, "pairs": null, "host": {"virtual_machine": null}}`),
		head(`{"test": {"ran": true, "devices": [{"ordinal": 0, "data_ok": "yes"}]}}`),
		gpuReport(facts.MaxGPUs, 2),
		gpuReport(facts.MaxGPUs+1, 2),
	}
	for i, doc := range docs {
		_, goErr := facts.Read(strings.NewReader(doc))
		msg := paste(t, b, doc)
		var se *facts.ShapeError
		switch {
		case goErr == nil && !strings.HasPrefix(msg, "Read."):
			t.Errorf("doc %d: Go reads it, the browser says %q", i, msg)
		case goErr != nil && !strings.HasPrefix(msg, "Refused"):
			t.Errorf("doc %d: Go refuses it (%v), the browser says %q", i, goErr, msg)
		case errors.As(goErr, &se) && !strings.Contains(msg, " "+se.Path+" ") && !strings.HasSuffix(msg, " "+se.Path+"."):
			t.Errorf("doc %d: Go refuses %s (%v), the browser says %q", i, se.Path, goErr, msg)
		}
		// A refused report is never kept (the last one read may be).
		if kept := browsertest.Eval[string](b, `localStorage.getItem("p2pkb.probe") || ""`); goErr != nil && kept == doc {
			t.Errorf("doc %d: refused and kept", i)
		}
	}
	checkQuiet(t, b, root)
}

// TestBrowserLoad holds the browser to linear time and bounded work on input
// up to the sizes the site accepts, and past them: each case is timed in
// headless Chromium and must finish within its bound; the table of figures
// is logged. The targets are the site's; the bounds are wider so that a busy
// machine does not fail the test, and still far below what a freeze took.
func TestBrowserLoad(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	home := root + "en/index.html"
	if _, err := chromedp.Call(b.Context(), page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: msWatch}); err != nil {
		t.Fatal(err)
	}
	var rows []loadRow
	b.Do(chromedp.Navigate(home), chromedp.WaitReady(chromedp.CSS("#machine")))
	openMachine(t, b)

	// Reports pasted: over the limits refused at once and never kept.
	for _, n := range []int{facts.MaxGPUs + 1, 1000, 8000} {
		browsertest.Eval[any](b, `(() => { localStorage.clear(); document.querySelector(".machine-input").value = `+jsQuote(gpuReport(n, 0))+`; return null; })()`)
		took := ms(browsertest.Eval[float64](b, `(() => { const t0 = performance.now(); document.querySelector(".machine-use").click(); return performance.now() - t0; })()`))
		msg := browsertest.Eval[string](b, `document.querySelector(".machine-message").textContent`)
		if !strings.Contains(msg, "gpus has more than 64 items") {
			t.Errorf("%d GPUs pasted: message %q", n, msg)
		}
		if browsertest.Eval[bool](b, `localStorage.getItem("p2pkb.probe") !== null`) {
			t.Errorf("%d GPUs pasted: kept", n)
		}
		rows = append(rows, loadRow{fmt.Sprintf("report of %d GPUs pasted, refused", n), took, 100 * time.Millisecond, time.Second})
	}
	// The largest report read: 64 GPUs, every pair, drawn in the open panel.
	big := gpuReport(facts.MaxGPUs, facts.MaxGPUs)
	browsertest.Eval[any](b, `(() => { document.querySelector(".machine-input").value = `+jsQuote(big)+`; return null; })()`)
	took := ms(browsertest.Eval[float64](b, `(() => { const t0 = performance.now(); document.querySelector(".machine-use").click(); return performance.now() - t0; })()`))
	if n := browsertest.Eval[int](b, `document.querySelectorAll(".machine-facts table.matrix td").length`); n != facts.MaxGPUs*facts.MaxGPUs {
		t.Errorf("64 GPUs: %d cells in the matrix", n)
	}
	rows = append(rows, loadRow{"report of 64 GPUs pasted, read and drawn", took, time.Second, 5 * time.Second})

	// A kept report of 64 GPUs adds little to a page that does not open the
	// panel: the time from the panel's script starting to the page marked,
	// with the largest report kept and with one of two GPUs.
	kept := func(report string) time.Duration {
		browsertest.Eval[any](b, `(() => { localStorage.setItem("p2pkb.probe", `+jsQuote(report)+`); return null; })()`)
		return median(5, func() time.Duration {
			b.Do(chromedp.Navigate(home), chromedp.WaitReady(chromedp.CSS("#machine")))
			waitFor(t, b, `window.__markedAt !== undefined`)
			return ms(browsertest.Eval[float64](b, `window.__markedAt`))
		})
	}
	small := kept(gpuReport(2, 2))
	rows = append(rows, loadRow{"kept report of 2 GPUs, read at a page load", small, 50 * time.Millisecond, 500 * time.Millisecond})
	rows = append(rows, loadRow{"kept report of 64 GPUs, read at a page load", kept(big), 50 * time.Millisecond, 500 * time.Millisecond})

	// A kept report over the limits (kept by an older site) is dropped with
	// a message at the next page, and the page after is quiet.
	browsertest.Eval[any](b, `(() => { localStorage.setItem("p2pkb.probe", `+jsQuote(gpuReport(8000, 0))+`); return null; })()`)
	b.Do(chromedp.Navigate(home), chromedp.WaitReady(chromedp.CSS("#machine")))
	waitFor(t, b, `window.__msgAt !== undefined`)
	if msg := browsertest.Eval[string](b, `document.querySelector(".machine-message").textContent`); !strings.Contains(msg, "could not be read and was forgotten") || !strings.Contains(msg, "more than 64") {
		t.Errorf("kept 8,000 GPUs: message %q", msg)
	}
	rows = append(rows, loadRow{"kept report of 8,000 GPUs, dropped", ms(browsertest.Eval[float64](b, `window.__msgAt`)), 100 * time.Millisecond, time.Second})
	if browsertest.Eval[bool](b, `localStorage.getItem("p2pkb.probe") !== null`) {
		t.Error("kept 8,000 GPUs: still kept after the page refused it")
	}

	// #probe= links: too many GPUs, and a bomb of 64 MB of spaces in about
	// 64 KB, refused while inflating.
	var rep facts.Report
	rep.SchemaVersion, rep.Probe.Name = 1, "p2p-probe"
	for i := range 2000 {
		rep.GPUs = append(rep.GPUs, facts.GPU{Index: i, Name: facts.Of("NVIDIA H100")})
	}
	link, err := facts.LinkURL(home, rep)
	if err != nil {
		t.Fatal(err)
	}
	bomb := home + deflateLink(bytes.Repeat([]byte(" "), 64<<20))
	for _, c := range []struct{ name, url, want string }{
		{fmt.Sprintf("#probe= link of 2,000 GPUs (%d KB), refused", len(link)>>10), link, "gpus has more than 64 items"},
		{fmt.Sprintf("#probe= link inflating to 64 MB (%d KB), refused", len(bomb)>>10), bomb, "larger than 1 MB"},
	} {
		b.Do(chromedp.Navigate("about:blank"), chromedp.Navigate(c.url), chromedp.WaitReady(chromedp.CSS("#machine")))
		waitFor(t, b, `window.__msgAt !== undefined`)
		if msg := browsertest.Eval[string](b, `document.querySelector(".machine-message").textContent`); !strings.Contains(msg, c.want) {
			t.Errorf("%s: message %q, want %q", c.name, msg, c.want)
		}
		if browsertest.Eval[bool](b, `localStorage.getItem("p2pkb.probe") !== null || location.hash !== ""`) {
			t.Errorf("%s: kept, or left in the address", c.name)
		}
		rows = append(rows, loadRow{c.name, ms(browsertest.Eval[float64](b, `window.__msgAt`)), 100 * time.Millisecond, 5 * time.Second})
	}
	rows = append(rows, pasteLoad(t, b, root)...)
	logTable(t, rows)
	checkQuiet(t, b, root)
}

// sized repeats unit to n bytes (whole lines of a log, or a pattern).
func sized(unit string, n int) string {
	s := strings.Repeat(unit, n/len(unit)+1)
	return s[:n]
}

// pasteRun presses Use in the Your machine panel, the text already in its
// box, and waits for the facts or the message; it returns the time taken
// and the longest task the page ran meanwhile.
const pasteRun = `new Promise(res => {
	const m = document.querySelector(".machine-message"), t0 = performance.now();
	let long = 0, done = false;
	const po = new PerformanceObserver(l => l.getEntries().forEach(e => { long = Math.max(long, e.duration); }));
	po.observe({ type: "longtask" });
	const end = () => { if (done) { return; } done = true; const took = performance.now() - t0; setTimeout(() => { po.disconnect(); res([took, long]); }, 100); };
	document.addEventListener("p2pkb-machine", end, { once: true });
	new MutationObserver(end).observe(m, { childList: true, characterData: true, subtree: true });
	document.querySelector(".machine-use").click();
})`

// pasteLoad times pastes in the Your machine panel and queries on the
// search page, pathological and real, from 8 KB to the limits.
func pasteLoad(t *testing.T, b *browsertest.Browser, root string) []loadRow {
	nccl, err := os.ReadFile("../paste/testdata/h200x2-nccl-default.log")
	if err != nil {
		t.Fatal(err)
	}
	peer := "> Peer access from (GPU1) -> "
	var rows []loadRow
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	browsertest.Eval[any](b, `(() => { localStorage.clear(); document.getElementById("machine").open = false; return null; })()`)
	openMachine(t, b)
	browsertest.Eval[any](b, `(() => { document.getElementById("machine").open = false; return null; })()`)
	for _, c := range []struct {
		name, text string
		target     time.Duration
	}{
		{"8 KB line of \"" + peer + "\" pasted", sized(peer, 8<<10), time.Second},
		{"64 KB line of \"" + peer + "\" pasted", sized(peer, 64<<10), time.Second},
		{"64 KB of NCCL INFO lines pasted", sized(string(nccl), 64<<10), time.Second},
		{"1 MB of NCCL INFO lines pasted", sized(string(nccl), 1<<20), 2 * time.Second},
		{"1 MB of 1 KB lines of \"" + peer + "\" pasted", sized(sized(peer, 1023)+"\n", 1<<20), 2 * time.Second},
	} {
		browsertest.Eval[any](b, `(() => { document.querySelector(".machine-message").textContent = ""; document.querySelector(".machine-input").value = `+jsQuote(c.text)+`; return null; })()`)
		time.Sleep(100 * time.Millisecond)
		r := browsertest.Eval[[]float64](b, pasteRun)
		took, long := ms(r[0]), ms(r[1])
		rows = append(rows, loadRow{c.name, took, c.target, 10 * c.target},
			loadRow{"  its longest task", long, 200 * time.Millisecond, 2 * time.Second})
	}
	if got := browsertest.Eval[string](b, `localStorage.getItem("p2pkb.paste") || ""`); !strings.Contains(got, "2.28.9") {
		t.Errorf("the NCCL log pasted last but one gave no NCCL version: %.200s", got)
	}
	for _, c := range []struct{ name, q string }{
		{"8 KB query of \"" + peer + "\"", sized(peer, 8<<10)},
		{"16 KB query of \"" + peer + "\"", sized(peer, 16<<10)},
		{"64 KB query of \"" + peer + "\"", sized(peer, 64<<10-64)},
		{"64 KB query of NCCL INFO lines", sized(string(nccl), 64<<10-64)},
	} {
		start := time.Now()
		b.Do(chromedp.Navigate(root + "en/search/index.html?q=" + url.QueryEscape(c.q)))
		for i := 0; i < 600; i++ {
			if done, _ := browsertest.EvalErr[string](b, `document.body.dataset.searchDone || ""`); done != "" {
				if done != "true" {
					t.Errorf("%s: search %s", c.name, done)
				}
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		rows = append(rows, loadRow{c.name + ", answered", time.Since(start), time.Second, 30 * time.Second})
	}
	return rows
}
