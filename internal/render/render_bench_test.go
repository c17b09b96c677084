package render

import (
	"testing"

	"github.com/p2pkb/p2pkb/internal/site"
)

// BenchmarkPages renders every page of some kinds of the repository's KB
// (P2PKB_BENCH_KB: a synthetic one, written by p2pkb-bench -write).
func BenchmarkPages(b *testing.B) {
	s, r := repoSite(b)
	for _, kind := range []site.Kind{site.KindEntry, site.KindRedirect} {
		var pages []*site.Page
		for _, p := range s.Pages {
			if p.Kind == kind {
				pages = append(pages, p)
			}
		}
		b.Run(string(kind), func(b *testing.B) {
			for b.Loop() {
				for _, p := range pages {
					if _, err := r.Page(p); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pages)), "µs/page")
		})
	}
}
