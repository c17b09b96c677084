package build_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// The home page leads with the paste box: a whole log pasted there and sent
// lands on the search page with the entry of its error first, from file://
// and over HTTP, in both languages. The machine check comes second and opens
// the Your machine panel.
func TestBrowserHomePasteBox(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	srv := httptest.NewServer(http.StripPrefix("/docs/", http.FileServer(http.Dir(out))))
	defer srv.Close()
	log := "step 10 loss 2.31\n[rank1]: Traceback (most recent call last):\n[rank1]: RuntimeError: CUDA error: peer access is not supported between these two devices\n"
	for _, root := range []string{(&url.URL{Scheme: "file", Path: out + "/"}).String(), srv.URL + "/docs/"} {
		for _, lang := range []string{"en", "zh"} {
			b.Do(chromedp.Navigate(root+lang+"/index.html"), chromedp.WaitReady(chromedp.CSS("#paste-q")))
			order := browsertest.Eval[[]string](b, `[...document.querySelectorAll("main section")].slice(0, 3).map(s => s.className || s.querySelector("h2").id)`)
			if len(order) < 3 || order[0] != "paste" || order[1] != "check" {
				t.Errorf("%s %s: home sections in order %v, want the paste box, then the machine check", root, lang, order)
			}
			// The box is a form: the page loads none of the panel's scripts to send it.
			if n := browsertest.Eval[int](b, `[...document.scripts].filter(s => /(machine|rules|paste)[.a-z]*\.js$/.test(s.src)).length`); n != 0 {
				t.Errorf("%s %s: the home page loaded %d of the Your machine panel's scripts", root, lang, n)
			}
			browsertest.Eval[bool](b, `(() => { const q = document.getElementById("paste-q"); q.value = `+jsQuote(log)+`; q.form.requestSubmit(); return true })()`)
			done := ""
			for i := 0; i < 150 && done == ""; i++ {
				time.Sleep(30 * time.Millisecond)
				done, _ = browsertest.EvalErr[string](b, `document.body.dataset.searchDone || ""`)
			}
			if done != "true" {
				t.Fatalf("%s %s: the pasted log did not lead to a finished search (%q)", root, lang, done)
			}
			ids := browsertest.Eval[[]string](b, `[...document.querySelectorAll("#search-results li")].map(li => li.dataset.resultId)`)
			if !contains(ids, "cuda/peer-access-to-same-device") && !contains(ids, "cuda/peer-access-unsupported-by-hardware") {
				t.Errorf("%s %s: results for the pasted log: %v", root, lang, ids)
			}
			if loc := browsertest.Eval[string](b, `location.pathname`); !strings.HasSuffix(loc, "/"+lang+"/search/index.html") && !strings.HasSuffix(loc, "/"+lang+"/search/") {
				t.Errorf("%s %s: the paste box went to %s", root, lang, loc)
			}
		}
	}
	b.Do(chromedp.Navigate(srv.URL+"/docs/en/index.html"), chromedp.WaitReady(chromedp.CSS("button.open-machine")))
	b.Do(chromedp.Click(chromedp.CSS("button.open-machine")))
	if !browsertest.Eval[bool](b, `document.getElementById("machine").open`) {
		t.Error("the machine check's button does not open Your machine")
	}
	b.Screenshot("home_en")
	b.Do(chromedp.Navigate(srv.URL + "/docs/zh/index.html"))
	b.Screenshot("home_zh")
}
