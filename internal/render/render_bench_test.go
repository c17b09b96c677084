package render

import (
	"os"
	"testing"

	"github.com/p2pkb/p2pkb/internal/site"
)

// BenchmarkEntryPages renders every entry page of the repository's KB.
func BenchmarkEntryPages(b *testing.B) {
	s, r := repoSite(b)
	var pages []*site.Page
	for _, p := range s.Pages {
		if p.Kind == site.KindEntry || p.Kind == site.KindRedirect {
			pages = append(pages, p)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := r.Page(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(pages)), "µs/page")
}

func tplDir() string {
	if d := os.Getenv("P2PKB_BENCH_TEMPLATES"); d != "" {
		return d
	}
	return "../../templates"
}
