package search

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/search/searchtest"
	"github.com/p2pkb/p2pkb/internal/site"
)

// repoSite models the repository's own KB and articles.
func repoSite(t testing.TB) *site.Site {
	t.Helper()
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	return site.New(k, a, "")
}

func TestQueriesRankTheRightPageFirst(t *testing.T) {
	ix, err := Build(Docs(repoSite(t)), "")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, c := range searchtest.Load(t).Queries {
		res, err := ix.Search(c.Q, c.Lang, 10)
		if err != nil {
			t.Fatal(err)
		}
		if c.Top != "" && (len(res) == 0 || res[0].ID != c.Top) {
			t.Errorf("%s %q: top = %v, want %s", c.Lang, c.Q, ids(res), c.Top)
		}
		if c.In != "" && !contains(ids(res), c.In) {
			t.Errorf("%s %q: results %v lack %s", c.Lang, c.Q, ids(res), c.In)
		}
		if c.Top3 != "" && !contains(ids(trim(res, 3)), c.Top3) {
			t.Errorf("%s %q: first three %v lack %s", c.Lang, c.Q, ids(trim(res, 3)), c.Top3)
		}
	}
	// A query of MaxQueryBytes is searched; one byte more is refused whole.
	q := strings.Repeat("peer ", MaxQueryBytes/5) + strings.Repeat("x", MaxQueryBytes%5)
	if res, err := ix.Search(q, "en", 10); err != nil || len(res) == 0 {
		t.Errorf("a query of %d bytes: %d results, %v", len(q), len(res), err)
	}
	var long *QueryTooLongError
	if _, err := ix.Search(q+"x", "en", 10); !errors.As(err, &long) || long.Len != MaxQueryBytes+1 {
		t.Errorf("a query of %d bytes: %v", len(q)+1, err)
	}
}

func ids(rs []Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// The size an analyzed field reports without walking its map is the one
// bleve's own count gives, within rounding of the map's overhead.
func TestAnalyzedFieldSize(t *testing.T) {
	an := analyzer{terms: map[string]int32{}}
	toks := an.appendTokens(nil, "cudaErrorPeerAccessUnsupported peer access is not supported between these two devices 两个设备")
	ft := countTerms(toks, make([]int32, len(an.dict)), new([]termCount))
	f := newAnalyzedField("sig", ft, 80)
	want := f.freq.Size()
	if got := f.Size(); got < want*9/10 || got > want*11/10 {
		t.Errorf("Size() = %d, TokenFrequencies.Size() = %d", got, want)
	}
}
