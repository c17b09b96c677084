package build_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// A log pasted into the Your machine panel that shows something wrong
// without an error line (NCCL's set-up lines, then nothing: the hang of
// https://github.com/horovod/horovod/issues/3658) gets a link to the search
// page, which answers it from the symptom at its line with explain's first
// cause; a healthy NCCL run of the reference 2xH200 node gets no such link.
func TestBrowserPanelSymptom(t *testing.T) {
	hang, err := os.ReadFile("../paste/testdata/horovod-hang-after-init.log")
	if err != nil {
		t.Fatal(err)
	}
	healthy, err := os.ReadFile("../paste/testdata/h200x2-nccl-default.log")
	if err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := "file://" + out + "/"
	for _, lang := range []string{"en", "zh"} {
		b.Do(chromedp.Navigate(root+lang+"/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
		browsertest.Eval[any](b, `(() => { localStorage.clear(); return null; })()`)
		openMachine(t, b)
		waitFor(t, b, `window.p2pkbText`)
		words := browsertest.Eval[string](b, `window.p2pkbText.pasteSymptom`)
		if msg := paste(t, b, string(healthy)); strings.Contains(msg, words) {
			t.Errorf("%s: a healthy NCCL run: the panel says %q", lang, msg)
		}
		if msg := paste(t, b, string(hang)); !strings.Contains(msg, words) {
			t.Fatalf("%s: a log that stops after NCCL's set-up: the panel says %q, want %q", lang, msg, words)
		}
		b.Screenshot("panel_symptom_" + lang)
		b.Do(chromedp.Click(chromedp.CSS(".machine-paste-search")))
		waitFor(t, b, `document.body.dataset.searchDone`)
		got := browsertest.Eval[[]string](b, `(b => b ? [b.dataset.line, b.querySelector("li[data-cause-id]").dataset.causeId] : [])(document.querySelector('#search-causes .causes[data-symptom="true"]'))`)
		if strings.Join(got, " ") != "11 pytorch/nccl-watchdog-timeout" {
			t.Errorf("%s: the search page's symptom box: %v, want line 11, pytorch/nccl-watchdog-timeout first", lang, got)
		}
		b.Screenshot("panel_symptom_search_" + lang)
	}
	checkQuiet(t, b, root)
}
