package build_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// watchForScript makes every page count the dialogs it opens (alert, confirm,
// prompt, print) instead of opening them: a pasted text that runs would call
// one. It is installed before any of the page's scripts run.
func watchForScript(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	src := `window.__dialogs = 0; ["alert", "confirm", "prompt", "print"].forEach(k => { window[k] = () => { window.__dialogs++; }; });`
	if _, err := chromedp.Call(b.Context(), page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
}

// nothingRan fails when the page opened a dialog, ran pasted script, or made
// an element from pasted markup (every hostile input below marks its
// elements with data-pwn).
func nothingRan(t *testing.T, b *browsertest.Browser, name string) {
	t.Helper()
	time.Sleep(200 * time.Millisecond) // an image's onerror runs after its load fails
	if n := browsertest.Eval[int](b, `window.__dialogs`); n != 0 {
		t.Errorf("%s: %d dialogs opened", name, n)
	}
	if browsertest.Eval[bool](b, `window.__pwned === 1`) {
		t.Errorf("%s: pasted script ran", name)
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll("[data-pwn]").length`); n != 0 {
		t.Errorf("%s: %d elements made from pasted markup", name, n)
	}
}

// hostile are pastes that try to run or to insert markup, with the inputs
// fuzzing found odd (NUL, CRLF, a cut inside a character, run-together
// NCCL lines), each with a line the site knows so that it is shown back.
var hostile = []string{
	`<img data-pwn src=x onerror="window.__pwned=1;alert(1)"> RuntimeError: CUDA error: peer access is not supported between these two devices`,
	"vm:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1 <script data-pwn>window.__pwned=1;alert(2)</script>\r\n" +
		`vm:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to <svg data-pwn onload="window.__pwned=1;alert(3)"></svg>`,
	"\tGPU0\tGPU1\tCPU Affinity<iframe data-pwn src=\"javascript:parent.__pwned=1;parent.alert(4)\"></iframe>\r\nGPU0\t X \tSYS\t0-1\r\nGPU1\tSYS\t X \t0-1\r\n" +
		`<a data-pwn href="javascript:alert(5)">peer access is not supported between these two devices</a>`,
	"h:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\x00\x00 \u2028 <details data-pwn open ontoggle=\"window.__pwned=1;alert(6)\">\n" +
		strings.Repeat("é", 160) + " cudaErrorPeerAccessUnsupported <img data-pwn src=x onerror=alert(7)>",
	"vm:0:0 [0] NCCL INFOChannel 0 : 0[0] -> 0[0] via SHM/\nvm:0:0 [0] NCCL INFOChannel 0 : 0[0] -> 0[0] via SHM/<style data-pwn>body{display:none}</style>",
}

// Hostile pastes in the Your machine panel and in the search are shown as
// text: nothing runs and no element is made from them.
func TestBrowserHostilePastes(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	watchForScript(t, b)
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	// The facts read from a paste show their lines, markup and all, as text
	// (white space shown as one space).
	shows := []string{"", "<script data-pwn>window.__pwned=1;alert(2)</script>", "CPU Affinity<iframe data-pwn", "\x00\x00 <details data-pwn", "via SHM/"}
	for i, text := range hostile {
		paste(t, b, text)
		nothingRan(t, b, "Your machine")
		if shown := browsertest.Eval[string](b, `(document.querySelector(".pasted-facts") || {textContent: ""}).textContent`); !strings.Contains(shown, shows[i]) {
			t.Errorf("Your machine, paste %d: facts shown %q lack %q", i, shown, shows[i])
		}
	}
	for i, text := range hostile {
		runQuery(t, b, root, "en", text)
		nothingRan(t, b, "search")
		if i == 0 {
			shown := browsertest.Eval[string](b, `document.getElementById("search-causes").textContent`)
			if !strings.Contains(shown, `<img data-pwn src=x onerror="window.__pwned=1;alert(1)">`) {
				t.Errorf("search: the pasted line is not shown as text: %q", shown)
			}
		}
	}
	checkQuiet(t, b, root)
}

// startGapWatch makes the page note the longest time its main thread did not
// run a 10 ms timer: how long the tab was frozen.
const startGapWatch = `(() => { clearInterval(window.__gapTimer); window.__gap = 0; let last = performance.now();
	window.__gapTimer = setInterval(() => { const n = performance.now(); window.__gap = Math.max(window.__gap, n - last); last = n; }, 10); return null; })()`

// frozen waits for a few timer ticks and returns the longest freeze seen.
func frozen(b *browsertest.Browser) time.Duration {
	time.Sleep(100 * time.Millisecond)
	return time.Duration(browsertest.Eval[float64](b, `window.__gap`) * float64(time.Millisecond))
}

// A huge paste in the Your machine panel or in a search box is refused with a
// message, or read, without freezing the tab. The bounds are of correctness,
// generous for a busy machine (an idle one freezes for a quarter of a second
// at most), not speed targets: a refusal freezes the tab for under 2 s, and
// a read for under two seconds or, where a busy machine makes the read long,
// half of it (a log read all at once would freeze the tab for all of it).
func TestBrowserHugePastes(t *testing.T) {
	const bound = 2 * time.Second
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))

	// Texts are made in the page: sent through the DevTools protocol they
	// would take long. The log is real-shaped and just under the limit.
	openMachine(t, b)
	log := `(() => { const l = "vm:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n"; return "vm:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n" + l.repeat(Math.floor((8 << 20) / l.length) - 2); })()`
	for _, c := range []struct{ name, text, want string }{
		{"8 MB log", log, "nccl.version = 2.28.9"},
		{"10 MB", `"a".repeat(10 << 20)`, "larger than 8 MB"},
	} {
		// The panel stays closed: drawing megabytes in the box is the
		// browser's own work, and slow enough on a busy machine to stall the
		// test; Use is pressed from the page.
		browsertest.Eval[any](b, `(() => { document.getElementById("machine").open = false; document.querySelector(".machine-input").value = `+c.text+`; return null; })()`)
		browsertest.Eval[any](b, startGapWatch)
		start := time.Now()
		browsertest.Eval[any](b, `(() => { document.querySelector(".machine-use").click(); return null; })()`)
		var msg string
		for i := 0; i < 300 && !strings.Contains(msg, c.want); i++ {
			time.Sleep(100 * time.Millisecond)
			msg = browsertest.Eval[string](b, `document.querySelector(".machine-message").textContent + " " + document.getElementById("machine").textContent`)
		}
		took, gap := time.Since(start), frozen(b)
		t.Logf("Your machine, %s: read in %v, the tab frozen for %v at most", c.name, took, gap)
		if !strings.Contains(msg, c.want) {
			t.Errorf("Your machine, %s: %q lacks %q", c.name, msg, c.want)
		}
		if gap > max(2*time.Second, took/2) {
			t.Errorf("Your machine, %s: the tab was frozen for %v of %v", c.name, gap, took)
		}
	}

	// The home page's paste box and the search box in the header refuse a
	// text over 64 KB (1.5 MB here) where they are, with a message, and go
	// nowhere.
	for _, c := range []struct{ name, field, button string }{
		{"paste box", "#paste-q", ".paste-form button"},
		{"header search", "form.search input[name=q]", ""},
	} {
		b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
		browsertest.Eval[any](b, `(() => { document.querySelector(`+jsQuote(c.field)+`).value = "peer access ".repeat(1 << 17);
			return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))); })()`)
		browsertest.Eval[any](b, startGapWatch)
		if c.button != "" {
			b.Do(chromedp.Click(chromedp.CSS(c.button)))
		} else {
			browsertest.Eval[any](b, `(() => { document.querySelector("form.search").requestSubmit(); return null; })()`)
		}
		gap := frozen(b)
		msg := browsertest.Eval[string](b, `[...document.querySelectorAll(".query-message")].map(p => p.hidden ? "" : p.textContent).join("")`)
		if !strings.Contains(msg, "longer than 64 KB") || !strings.HasSuffix(browsertest.Eval[string](b, `location.pathname`), "/en/index.html") {
			t.Errorf("%s, 1.5 MB: message %q at %s", c.name, msg, browsertest.Eval[string](b, `location.href`))
		}
		if gap > bound {
			t.Errorf("%s, 1.5 MB: the tab was frozen for %v", c.name, gap)
		}
		// A text under the limit is sent, and the message goes.
		browsertest.Eval[any](b, `(() => { document.querySelector(`+jsQuote(c.field)+`).value = "peer access"; return null; })()`)
		browsertest.Eval[any](b, `(() => { document.querySelector(`+jsQuote(c.field)+`).form.requestSubmit(); return null; })()`)
		waitFor(t, b, `location.pathname.endsWith("/en/search/index.html")`)
	}

	// A query over the limit in the address (a link made elsewhere) is
	// refused on the search page.
	q := strings.Repeat("peer access ", 6000)
	b.Do(chromedp.Navigate(root + "en/search/index.html?q=" + url.QueryEscape(q)))
	waitFor(t, b, `document.body.dataset.searchDone`)
	if done, status := browsertest.Eval[string](b, `document.body.dataset.searchDone`), browsertest.Eval[string](b, `document.getElementById("search-status").textContent`); done != "refused" || !strings.Contains(status, "longer than 64 KB") {
		t.Errorf("search page, 72 KB query: %s, %q", done, status)
	}
	checkQuiet(t, b, root)
}
