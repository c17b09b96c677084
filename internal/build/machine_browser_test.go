package build_test

import (
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// paste puts text in the "Your machine" box and presses Use.
func paste(t *testing.T, b *browsertest.Browser, text string) string {
	t.Helper()
	js, _ := json.Marshal(text)
	openMachine(t, b)
	browsertest.Eval[any](b, `(() => { document.querySelector(".machine-input").value = `+string(js)+`; return null; })()`)
	b.Do(chromedp.Click(chromedp.CSS(".machine-use")))
	return browsertest.Eval[string](b, `document.querySelector(".machine-message").textContent`)
}

// openMachine opens the Your machine panel, as a visitor does before pasting
// into it, and waits for its scripts: they load when it opens.
func openMachine(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	browsertest.Eval[any](b, `(() => { document.getElementById("machine").open = true; return null; })()`)
	waitFor(t, b, `window.p2pkbMachine`)
}

func verdictOf(t *testing.T, b *browsertest.Browser, sel string) string {
	t.Helper()
	return browsertest.Eval[string](b, `(document.querySelector(`+jsQuote(sel)+` + " .verdict") || {textContent: ""}).textContent`)
}

func jsQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestBrowserYourMachine(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	entry := root + "en/kb/cuda/peer-access-unsupported-by-hardware/index.html"
	h200, _ := os.ReadFile("../../probe/testdata/real/h200x2.json")
	pcie4, _ := os.ReadFile("../../probe/testdata/golden/pcie4-blocked.json")

	b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("#machine")))
	// The panel's scripts load when it opens, not with the page; its state shows before.
	if n := browsertest.Eval[int](b, `document.querySelectorAll('script[src$="machine.js"], script[src$="rules.js"], script[src$="paste.js"]').length + (window.p2pkbRules ? 1 : 0)`); n != 0 {
		t.Errorf("an entry page loaded the panel's scripts before the panel was opened (%d)", n)
	}
	if got := browsertest.Eval[string](b, `document.querySelector("#machine summary").textContent`); got != "Your machine: no p2p-probe report" {
		t.Errorf("closed panel says %q", got)
	}
	if msg := paste(t, b, string(h200)); !strings.Contains(msg, "Read") {
		t.Fatalf("the real H200 reading was refused: %s", msg)
	}
	// The NCCL_P2P_DISABLE workaround is for machines whose P2P fails.
	if v := verdictOf(t, b, `[data-workaround="0"]`); !strings.HasPrefix(v, "does not apply") || !strings.Contains(v, "P2P works between all GPU pairs (GPU0-GPU1 over NV18)") {
		t.Errorf("workaround 0 on two NVLinked H200s: %q", v)
	}
	if got := browsertest.Eval[string](b, `document.querySelector("article.entry").dataset.applies`); got != "does_not_apply" {
		t.Errorf("entry on two NVLinked H200s: %q", got)
	}
	if m := browsertest.Eval[string](b, `document.querySelector(".machine-facts table").textContent`); !strings.Contains(m, "NV18") {
		t.Errorf("pair matrix %q lacks NV18", m)
	}
	first := browsertest.Eval[string](b, `document.querySelector(".workarounds ol li").dataset.workaround`)
	if first != "1" {
		t.Errorf("the workaround that applies must come first, got %s", first)
	}
	b.Screenshot("machine_h200")

	// Kept in the browser: another page marks without a new paste.
	b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("#machine")))
	waitFor(t, b, `document.querySelector(".verdict") !== null`)

	// The catalogue hides what does not apply when asked to.
	b.Do(chromedp.Navigate(root+"en/kb/cuda/index.html"), chromedp.WaitReady(chromedp.CSS("#only-applying")))
	waitFor(t, b, `document.querySelector("li[data-applies]") !== null`)
	visible := `[...document.querySelectorAll("ul.entries li")].filter(li => li.offsetParent !== null).length`
	before := browsertest.Eval[int](b, visible)
	b.Do(chromedp.Click(chromedp.CSS("#only-applying")))
	after := browsertest.Eval[int](b, visible)
	hidden := browsertest.Eval[int](b, `document.querySelectorAll('ul.entries li[data-applies="does_not_apply"]').length`)
	if hidden == 0 || after != before-hidden {
		t.Errorf("filter: %d entries shown before, %d after, %d do not apply", before, after, hidden)
	}
	// Search results are judged too.
	runQuery(t, b, root, "en", "peer access is not supported between these two devices")
	waitFor(t, b, `document.querySelector('#search-results li[data-result-id="cuda/peer-access-unsupported-by-hardware"][data-applies]') !== null`)
	if got := browsertest.Eval[string](b, `document.querySelector('#search-results li[data-result-id="cuda/peer-access-unsupported-by-hardware"]').dataset.applies`); got != "does_not_apply" {
		t.Errorf("search result on two NVLinked H200s: %q", got)
	}
	b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("#machine")))

	// Four PCIe GPUs with blocked pairs: the same workaround applies.
	paste(t, b, string(pcie4))
	if v := verdictOf(t, b, `[data-workaround="0"]`); !strings.HasPrefix(v, "applies") {
		t.Errorf("workaround 0 with blocked PCIe pairs: %q", v)
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll(".machine-facts td.p2p-no").length`); n != 4 {
		t.Errorf("%d blocked cells in the matrix, want 4", n)
	}
	if bl := browsertest.Eval[string](b, `document.querySelector(".machine-facts ul.blocked").textContent`); !strings.Contains(bl, "GPU0 → GPU2: IOH_TOPOLOGY_NOT_SUPPORTED") {
		t.Errorf("blocked pairs listed as %q", bl)
	}

	// Forget removes the marks and the stored report.
	b.Do(chromedp.Click(chromedp.CSS(".machine-forget")))
	if n := browsertest.Eval[int](b, `document.querySelectorAll(".verdict").length + (localStorage.getItem("p2pkb.probe") ? 1 : 0)`); n != 0 {
		t.Errorf("after Forget %d marks or stored reports remain", n)
	}

	// The link p2p-probe --link prints, opened at the site root.
	var rep facts.Report
	if err := json.Unmarshal(h200, &rep); err != nil {
		t.Fatal(err)
	}
	link, err := facts.LinkURL(root+"index.html", rep)
	if err != nil {
		t.Fatal(err)
	}
	b.Do(chromedp.Navigate(link))
	waitFor(t, b, `(document.querySelector(".machine-state") || {}).textContent && document.querySelector(".machine-state").textContent.indexOf("2 GPU") === 0`)
	if h := browsertest.Eval[string](b, `location.hash`); h != "" {
		t.Errorf("the facts stay in the address bar: %q", h)
	}
	checkQuiet(t, b, root)
}

func TestBrowserYourMachineRefusesHostileInput(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	evil := `{"schema_version": 1, "probe": {"name": "p2p-probe"}, "driver": {"version": "<img src=x onerror=window.__pwned=1>", "cuda": "javascript:window.__pwned=1"},
		"gpus": [{"index": 0, "name": "<script>window.__pwned=1</script>", "architecture": "<b>x</b>"}, {"index": 1, "name": "<a href=javascript:window.__pwned=1>click</a>"}],
		"pairs": [{"from": 0, "to": 1, "connection": "<img src=x onerror=window.__pwned=1>"}], "summary": {}}`
	// Big inputs are made in the page: sent through the DevTools protocol they
	// take longer than the test's deadline on a busy machine.
	cases := []struct{ name, text, want string }{
		{"script", "<script>window.__pwned=1</script>", "No output this site knows"},
		{"10 MB", `"a".repeat(10 << 20)`, "larger than 8 MB"},
		{"2 MB of JSON", `"{" + "a".repeat(2 << 20)`, "larger than 1 MB"},
		{"markup in a log", "vm:1:1 [0] NCCL INFO NCCL_X set by environment to <img src=x onerror=window.__pwned=1>", ""},
		{"deep", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), "not a p2p-probe report"},
		{"not a report", `{"id": "x"}`, "not a p2p-probe report"},
		{"markup in strings", evil, "Read"},
	}
	for _, c := range cases {
		var msg string
		if strings.Contains(c.name, "MB") {
			browsertest.Eval[any](b, `(() => { document.querySelector(".machine-input").value = `+c.text+`; return null; })()`)
			b.Do(chromedp.Click(chromedp.CSS(".machine-use")))
			msg = browsertest.Eval[string](b, `document.querySelector(".machine-message").textContent`)
		} else {
			msg = paste(t, b, c.text)
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: message %q, want %q", c.name, msg, c.want)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if pwned := browsertest.Eval[bool](b, `window.__pwned === 1`); pwned {
		t.Error("a pasted document ran script")
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll("#machine img, #machine script, #machine a, #machine b").length`); n != 0 {
		t.Errorf("%d elements made from pasted markup", n)
	}
	if txt := browsertest.Eval[string](b, `document.querySelector(".machine-facts").textContent`); !strings.Contains(txt, "<script>window.__pwned=1</script>") {
		t.Errorf("pasted strings must show as text, got %q", txt)
	}
	checkQuiet(t, b, root)
}

func waitFor(t *testing.T, b *browsertest.Browser, cond string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if ok, _ := browsertest.EvalErr[bool](b, `!!(`+cond+`)`); ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waited in vain for %s", cond)
}
