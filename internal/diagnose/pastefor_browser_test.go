package diagnose

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// What to paste to learn a fact: the search page's copy of pasteFor
// (assets/search.js) gives the same answer as Go for every fact.
func TestPasteForInBrowser(t *testing.T) {
	b := browsertest.New(t)
	html := `<!doctype html><meta charset="utf-8"><body>`
	for _, js := range []string{"../../assets/rules.js", "../../assets/search.js"} {
		abs, err := filepath.Abs(js)
		if err != nil {
			t.Fatal(err)
		}
		html += `<script src="` + (&url.URL{Scheme: "file", Path: abs}).String() + `"></script>`
	}
	page := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Do(chromedp.Navigate((&url.URL{Scheme: "file", Path: page}).String()), chromedp.WaitReady(chromedp.CSS("body")))
	names := append(rules.Names(), "env.NCCL_P2P_DISABLE", "env.CUDA_VISIBLE_DEVICES", "python.torch", "python.vllm", "no.such_fact")
	some := 0
	for _, n := range names {
		arg, _ := json.Marshal(n)
		got := browsertest.Eval[string](b, `p2pkbSearch.pasteFor(`+string(arg)+`)`)
		if want := pasteFor(n); got != want {
			t.Errorf("%s: browser %q, Go %q", n, got, want)
		}
		if got != "" {
			some++
		}
	}
	if some < len(names)/2 {
		t.Errorf("only %d of %d facts say what to paste", some, len(names))
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}
