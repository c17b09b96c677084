package build_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// The catalogue, reached from the home page, lists every entry of the KB
// once over its domains' pages, each with its tier, and the count of causes
// where its message has several; from file:// and over HTTP under a
// sub-path, in both languages.
func TestBrowserCatalogue(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	srv := httptest.NewServer(http.StripPrefix("/docs/", http.FileServer(http.Dir(out))))
	defer srv.Close()
	ids := map[string]bool{}
	files, _ := filepath.Glob("../../kb/*/*.json")
	for _, f := range files {
		ids[strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(f), "../../kb/"), ".json")] = true
	}
	for _, root := range []string{(&url.URL{Scheme: "file", Path: out + "/"}).String(), srv.URL + "/docs/"} {
		for _, lang := range []string{"en", "zh"} {
			b.Do(chromedp.Navigate(root+lang+"/index.html"), chromedp.WaitReady(chromedp.CSS("a.catalog")))
			domains := browsertest.Eval[int](b, `document.querySelectorAll("ul.domains li a").length`)
			recent := browsertest.Eval[int](b, `document.querySelectorAll("ul.entries li .tier").length`)
			if domains < 10 || recent < 5 {
				t.Errorf("%s %s: the home page shows %d domains and %d recent entries with their tier", root, lang, domains, recent)
			}
			b.Do(chromedp.Click(chromedp.CSS("a.catalog")), chromedp.WaitReady(chromedp.CSS("ul.domain-list")))
			if loc := browsertest.Eval[string](b, `location.href`); loc != root+lang+"/kb/index.html" && loc != root+lang+"/kb/" {
				t.Errorf("%s %s: the catalogue link leads to %s", root, lang, loc)
			}
			if strings.HasPrefix(root, "file:") {
				b.Screenshot("catalog_" + lang)
			}
			// Every domain's pages, the later ones through the pager.
			todo := browsertest.Eval[[]string](b, `[...document.querySelectorAll("ul.domain-list a")].map(a => a.href)`)
			seen, listed, causes := map[string]bool{}, map[string]int{}, 0
			for len(todo) > 0 {
				page := todo[0]
				todo = todo[1:]
				if seen[page] {
					continue
				}
				seen[page] = true
				b.Do(chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS("main")))
				items := browsertest.Eval[[]string](b, `[...document.querySelectorAll("ul.entries li")].map(li => li.querySelector("a").href + " " + (li.querySelector(".tier") ? li.querySelector(".tier").textContent : ""))`)
				for _, it := range items {
					href, tier, _ := strings.Cut(it, " ")
					id := strings.TrimSuffix(strings.TrimPrefix(href, root+lang+"/kb/"), "/index.html")
					listed[id]++
					if tier == "" {
						t.Errorf("%s: %s without its tier", page, id)
					}
				}
				causes += browsertest.Eval[int](b, `document.querySelectorAll("ul.entries .cause-count").length`)
				todo = append(todo, browsertest.Eval[[]string](b, `[...document.querySelectorAll("nav.pager a")].map(a => a.href)`)...)
				if page == root+lang+"/kb/cuda/index.html" && strings.HasPrefix(root, "file:") {
					b.Screenshot("catalog_cuda_" + lang)
				}
			}
			for id := range ids {
				if listed[id] != 1 {
					t.Errorf("%s %s: %s listed %d times in the catalogue", root, lang, id, listed[id])
				}
			}
			if len(listed) != len(ids) {
				t.Errorf("%s %s: the catalogue lists %d entries, the KB has %d", root, lang, len(listed), len(ids))
			}
			if causes == 0 {
				t.Errorf("%s %s: no entry shows how many causes share its message", root, lang)
			}
			// An entry's page leads to its domain's.
			b.Do(chromedp.Navigate(root+lang+"/kb/nccl/p2p-transport-in-use/index.html"), chromedp.WaitReady(chromedp.CSS(".crumbs")))
			b.Do(chromedp.Click(chromedp.CSS(`.crumbs a:nth-of-type(2)`)), chromedp.WaitReady(chromedp.CSS("ul.entries")))
			if h := browsertest.Eval[string](b, `document.querySelector("h1").textContent`); h != "nccl" {
				t.Errorf("%s %s: the domain in an entry's crumbs leads to %q", root, lang, h)
			}
		}
		// The stable links tools print still lead to the entry.
		for _, from := range []string{"e/nccl-p2p-transport/index.html", "kb/nccl/p2p-transport-in-use/index.html", "en/kb/nccl/p2p-transport-in-use/index.html"} {
			b.Do(chromedp.Navigate(root + from))
			want, loc := root+"en/kb/nccl/p2p-transport-in-use/", ""
			for i := 0; i < 50 && loc != want && loc != want+"index.html"; i++ {
				loc, _ = browsertest.EvalErr[string](b, `location.href`)
				time.Sleep(50 * time.Millisecond)
			}
			if loc != want && loc != want+"index.html" {
				t.Errorf("%s led to %s, want %s", root+from, loc, want)
			}
		}
		checkQuiet(t, b, root)
	}
}

// The Your machine panel's scripts load when a visitor opens it, on an entry
// page in both languages, from file:// and over HTTP: a report pasted then
// judges the entry and its workarounds.
func TestBrowserMachineOnDemand(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	srv := httptest.NewServer(http.StripPrefix("/docs/", http.FileServer(http.Dir(out))))
	defer srv.Close()
	h200, _ := os.ReadFile("../../probe/testdata/real/h200x2.json")
	words := map[string]string{"en": "does not apply", "zh": "不适用"}
	for _, root := range []string{(&url.URL{Scheme: "file", Path: out + "/"}).String(), srv.URL + "/docs/"} {
		for _, lang := range []string{"en", "zh"} {
			b.Do(chromedp.Navigate(root+lang+"/kb/cuda/peer-access-unsupported-by-hardware/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
			loaded := `[...document.scripts].filter(s => /assets\/(machine|rules|paste)[.a-z]*\.js$/.test(s.src)).length + (window.p2pkbRules ? 1 : 0)`
			if n := browsertest.Eval[int](b, loaded); n != 0 {
				t.Errorf("%s %s: %d of the panel's scripts loaded with the page", root, lang, n)
			}
			b.Do(chromedp.Click(chromedp.CSS("#machine summary")))
			waitFor(t, b, `window.p2pkbMachine`)
			if n := browsertest.Eval[int](b, loaded); n != 7 {
				t.Errorf("%s %s: %d of the panel's 6 scripts and its rules loaded when it opened", root, lang, n)
			}
			browsertest.Eval[any](b, `(() => { document.querySelector(".machine-input").value = `+jsQuote(string(h200))+`; return null; })()`)
			b.Do(chromedp.Click(chromedp.CSS(".machine-use")))
			if v := verdictOf(t, b, `[data-workaround="0"]`); !strings.HasPrefix(v, words[lang]) {
				t.Errorf("%s %s: workaround 0 on two NVLinked H200s: %q", root, lang, v)
			}
			if s := browsertest.Eval[string](b, `document.querySelector(".machine-state").textContent`); !strings.HasPrefix(s, "2 GPU") {
				t.Errorf("%s %s: panel state %q", root, lang, s)
			}
			// Stored: the next page judges without the panel opened.
			b.Do(chromedp.Navigate(root+lang+"/kb/cuda/peer-access-unsupported-by-hardware/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
			waitFor(t, b, `document.querySelector('[data-workaround="0"] .verdict')`)
			browsertest.Eval[any](b, `(() => { document.querySelector(".machine-forget").click(); return null; })()`)
		}
		checkQuiet(t, b, root)
	}
}
