package build_test

import (
	"net/url"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/bench"
	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// The heaviest entry page of each language answers first: the heading
// "What works" ends within the first screen at 1366x768, and starts within
// one and a half screens on a 390x844 phone. No page of those kinds is wider
// than a 360 px screen: tables scroll in their own box, long words wrap.
func TestBrowserAnswerFirst(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	fileURL := func(page string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(out, page))}).String()
	}
	for _, lang := range []string{"en", "zh"} {
		w, err := bench.Heaviest(out, lang, "entry")
		if err != nil {
			t.Fatal(err)
		}
		for _, vp := range []struct {
			name    string
			w, h    int64
			screens float64
			bottom  bool // the heading's bottom, not its top, within the screens
		}{{"desktop", 1366, 768, 1, true}, {"phone", 390, 844, 1.5, false}} {
			b.Do(chromedp.EmulateViewport(vp.w, vp.h), chromedp.Navigate(fileURL(w.Page)), chromedp.WaitReady(chromedp.CSS("section.workarounds h2")))
			edge := "top"
			if vp.bottom {
				edge = "bottom"
			}
			y := browsertest.Eval[float64](b, `document.querySelector("section.workarounds h2").getBoundingClientRect().`+edge+` + scrollY`)
			if limit := vp.screens * float64(vp.h); y > limit {
				t.Errorf("%s at %dx%d: the %s of \"What works\" is at %.0f px, below %.0f", w.Page, vp.w, vp.h, edge, y, limit)
			}
			b.Screenshot("answer_" + lang + "_" + vp.name)
		}
		pages := []string{w.Page, lang + "/index.html", lang + "/search/index.html", lang + "/kb/index.html", "404.html"}
		if c, err := bench.Heaviest(out, lang, "catalog"); err == nil {
			pages = append(pages, c.Page)
		}
		for _, p := range pages {
			b.Do(chromedp.EmulateViewport(360, 740), chromedp.Navigate(fileURL(p)), chromedp.WaitReady(chromedp.CSS("main")))
			if width := browsertest.Eval[int](b, `document.documentElement.scrollWidth`); width > 360 {
				wide := browsertest.Eval[string](b, `[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > 361).slice(0, 3).map(e => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 40)).join(" | ")`)
				t.Errorf("%s at 360 px: %d px wide (%s)", p, width, wide)
			}
		}
	}
}
