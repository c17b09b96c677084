package render

import (
	"slices"
	"testing"

	"github.com/p2pkb/p2pkb/internal/site"
)

// BenchmarkPages renders every page of the repository's KB (P2PKB_BENCH_KB:
// a synthetic one, written by p2pkb-bench -write), kind by kind.
func BenchmarkPages(b *testing.B) {
	s, r := repoSite(b)
	var kinds []site.Kind
	for _, p := range s.Pages {
		if !slices.Contains(kinds, p.Kind) {
			kinds = append(kinds, p.Kind)
		}
	}
	for _, kind := range kinds {
		var pages []*site.Page
		for _, p := range s.Pages {
			if p.Kind == kind {
				pages = append(pages, p)
			}
		}
		b.Run(string(kind), func(b *testing.B) {
			var buf []byte // reused from page to page, as Site does
			for b.Loop() {
				for _, p := range pages {
					var err error
					if buf, err = r.page(buf[:0], p); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pages)), "µs/page")
		})
	}
}
