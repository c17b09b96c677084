package search_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build/buildtest"
	"github.com/p2pkb/p2pkb/internal/search/searchtest"
)

// TestBrowserSearch runs the shared table of testdata/cases.json in the
// static search page (assets/search.js on the client index), from file://
// and over HTTP.
func TestBrowserSearch(t *testing.T) {
	cases := searchtest.Load(t)
	b := browsertest.New(t)
	out := buildtest.Site(t, "")
	srv := httptest.NewServer(http.StripPrefix("/kb-docs/", http.FileServer(http.Dir(out))))
	defer srv.Close()

	for _, root := range []string{(&url.URL{Scheme: "file", Path: out + "/"}).String(), srv.URL + "/kb-docs/"} {
		scheme := strings.SplitN(root, ":", 2)[0]
		t.Run(scheme+"/analysis", func(t *testing.T) {
			b.Do(chromedp.Navigate(root+"en/search/index.html"), chromedp.WaitReady(chromedp.CSS("#search-results")))
			for _, c := range cases.Analysis {
				raw, _ := json.Marshal(c.Text)
				got := browsertest.Eval[[]string](b, `p2pkbSearch.terms(`+string(raw)+`)`)
				if !reflect.DeepEqual(got, c.Terms) {
					t.Errorf("terms(%q) = %q in the browser, want %q", c.Text, got, c.Terms)
				}
			}
		})
		for _, c := range cases.Queries {
			t.Run(scheme+"/"+c.Lang+"/"+c.Top+c.In+c.Top3, func(t *testing.T) {
				b.Requests()
				top := searchtest.Query(t, b, root, c.Lang, c.Q)
				if c.Top != "" && top != c.Top {
					t.Errorf("%q: top result %q, want %q", c.Q, top, c.Top)
				}
				if c.In != "" {
					all := browsertest.Eval[[]string](b, `[...document.querySelectorAll("#search-results li")].map(li => li.dataset.resultId)`)
					if !slices.Contains(all, c.In) {
						t.Errorf("%q: results %v lack %q", c.Q, all, c.In)
					}
				}
				if c.Top3 != "" {
					first := browsertest.Eval[[]string](b, `[...document.querySelectorAll("#search-results li")].slice(0, 3).map(li => li.dataset.resultId)`)
					if !slices.Contains(first, c.Top3) {
						t.Errorf("%q: first three results %v lack %q", c.Q, first, c.Top3)
					}
				}
				b.CheckQuiet(t, root)
			})
		}
	}

	t.Run("nothing found and keyboard", func(t *testing.T) {
		root := srv.URL + "/kb-docs/"
		if top := searchtest.Query(t, b, root, "en", "zzzqqq xylophone"); top != "" {
			t.Errorf("nonsense found %q", top)
		}
		if hidden := browsertest.Eval[bool](b, `document.getElementById("search-hint").hidden`); hidden {
			t.Error("no hint to paste the whole message when nothing is found")
		}
		searchtest.Query(t, b, root, "en", "peer access")
		b.Do(chromedp.Focus(chromedp.CSS("#search-page-q")), chromedp.KeyEvent(kb.ArrowDown))
		focused := browsertest.Eval[string](b, `document.activeElement.closest("li") ? document.activeElement.closest("li").dataset.resultId : ""`)
		if focused == "" {
			t.Error("ArrowDown from the search box does not reach the first result")
		}
		marks := browsertest.Eval[[]string](b, `[...document.querySelectorAll("#search-results li:first-child a mark")].map(m => m.textContent.toLowerCase())`)
		if len(marks) == 0 {
			t.Error("the matching words are not marked")
		}
		b.Screenshot("search_en")
	})
}
