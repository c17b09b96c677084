package build_test

import (
	"testing"

	"github.com/p2pkb/p2pkb/internal/bench"
)

// The heaviest entry page, the home page and the heaviest catalogue page of
// each language weigh at most bench.Budget with everything they load when
// opened (HTML, stylesheets, scripts); the search page is reported.
func TestPageWeight(t *testing.T) {
	out := buildSite(t, "")
	for _, lang := range []string{"en", "zh"} {
		for _, kind := range []string{"entry", "home", "catalog", "search"} {
			w, err := bench.Heaviest(out, lang, kind)
			if err != nil || w.Bytes == 0 {
				t.Fatalf("%s %s: %v (%d bytes)", lang, kind, err, w.Bytes)
			}
			t.Logf("%s %s page %s: %d bytes, %d gzipped: %v", lang, kind, w.Page, w.Bytes, w.Gzip, w.Files)
			if kind != "search" && w.Bytes > bench.Budget {
				t.Errorf("%s weighs %d bytes with what it loads, over %d: %v", w.Page, w.Bytes, bench.Budget, w.Files)
			}
		}
		n, err := bench.OnDemand(out, lang)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: the Your machine panel's scripts, loaded when it opens: %d bytes", lang, n)
	}
}
