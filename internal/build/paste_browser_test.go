package build_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// A pasted log in the Your machine panel gives its facts, marked as coming
// from the log, and they judge the entry when no probe report is loaded.
func TestBrowserPastedLogFacts(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := "file://" + out + "/"
	entry := root + "en/kb/cuda/peer-access-unsupported-by-hardware/index.html"
	gns, err := os.ReadFile("../paste/testdata/topo-5090x2-gns.txt")
	if err != nil {
		t.Fatal(err)
	}
	b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("#machine")))
	paste(t, b, string(gns))
	if got := browsertest.Eval[string](b, `document.querySelector(".machine-paste").textContent`); !strings.Contains(got, "from the pasted log") ||
		!strings.Contains(got, "p2p.all_pairs_ok = false · 17: GPU0 X GNS") {
		t.Errorf("pasted facts shown as %q", got)
	}
	if got := browsertest.Eval[string](b, `document.querySelector(".machine-state").textContent`); got != "5 facts from the pasted log" {
		t.Errorf("summary %q", got)
	}
	if got := browsertest.Eval[string](b, `document.querySelector("article.entry").dataset.applies`); got != "applies" {
		t.Errorf("the hardware cause with GNS pairs pasted: %q", got)
	}
	b.Screenshot("machine_pasted_log")

	// Kept for other pages, as facts only.
	b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("#machine")))
	waitFor(t, b, `document.querySelector("article.entry").dataset.applies === "applies"`)
	if kept := browsertest.Eval[string](b, `localStorage.getItem("p2pkb.paste")`); strings.Contains(kept, "Legend") || !strings.Contains(kept, "p2p.blocked_pairs") {
		t.Errorf("stored %q", kept)
	}

	// A probe report wins, and the disagreement is said.
	h200, _ := os.ReadFile("../../probe/testdata/real/h200x2.json")
	paste(t, b, string(h200))
	if got := browsertest.Eval[string](b, `document.querySelector("article.entry").dataset.applies`); got != "does_not_apply" {
		t.Errorf("with the H200 report loaded as well: %q", got)
	}
	if got := browsertest.Eval[string](b, `[...document.querySelectorAll(".machine-paste .conflict")].map(e => e.textContent).join("\n")`); !strings.Contains(got, "the log says NVLink false (line 1), the probe found true on this machine\n") ||
		!strings.Contains(got, "the log says P2P between all GPU pairs false (line 17), the probe found true on this machine") {
		t.Errorf("conflict %q", got)
	}
	b.Do(chromedp.Click(chromedp.CSS(".machine-forget")))
	if n := browsertest.Eval[int](b, `document.querySelectorAll(".verdict, .machine-paste li").length + (localStorage.getItem("p2pkb.paste") ? 1 : 0)`); n != 0 {
		t.Errorf("after Forget %d marks or pasted facts remain", n)
	}

	// Text that is no known output says so, and changes nothing.
	if msg := paste(t, b, "hello <b>there</b>"); !strings.Contains(msg, "No output this site knows") {
		t.Errorf("message %q", msg)
	}

	// The search page: a whole log as the query fills in its facts, which
	// judge the results; in Chinese the mark is translated.
	log := string(gns) + "\nRuntimeError: CUDA error: peer access is not supported between these two devices\n"
	runQuery(t, b, root, "zh", log)
	waitFor(t, b, `document.querySelector('#search-results li[data-result-id="cuda/peer-access-unsupported-by-hardware"][data-applies]') !== null`)
	if got := browsertest.Eval[string](b, `document.querySelector('#search-results li[data-result-id="cuda/peer-access-unsupported-by-hardware"]').dataset.applies`); got != "applies" {
		t.Errorf("search result judged by the pasted log: %q", got)
	}
	if got := browsertest.Eval[string](b, `document.querySelector(".machine-paste").textContent`); !strings.Contains(got, "来自粘贴的日志") {
		t.Errorf("zh paste facts %q", got)
	}
	if kept := browsertest.Eval[string](b, `localStorage.getItem("p2pkb.paste") || ""`); kept != "" {
		t.Errorf("a query's facts were stored: %q", kept)
	}
	checkQuiet(t, b, root)
}
