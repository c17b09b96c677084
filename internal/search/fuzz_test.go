package search

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/search/searchtest"
)

func fuzzSeeds(f *testing.F) {
	for _, c := range searchtest.Load(f).Queries {
		f.Add(c.Q)
	}
	for _, c := range searchtest.Load(f).Analysis {
		f.Add(c.Text)
	}
	files, _ := filepath.Glob("../../kb/repro/*.txt")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(string(b))
		}
	}
}

// FuzzAnalyze: the analyzer gives the same tokens twice, every token is
// non-empty valid UTF-8 within the text's bounds, Terms lists each term once
// in order of first appearance, and positions only grow.
func FuzzAnalyze(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		a, b := Analyze(text), Analyze(text)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%q analyzed twice differs", text)
		}
		var first []string
		seen := map[string]bool{}
		for i, tok := range a {
			if tok.Term == "" || !utf8.ValidString(tok.Term) || tok.Start < 0 || tok.End > len(text) || tok.Start > tok.End {
				t.Fatalf("%q: token %d %+v", text, i, tok)
			}
			if !seen[tok.Term] {
				seen[tok.Term] = true
				first = append(first, tok.Term)
			}
			if i > 0 && tok.Pos < a[i-1].Pos {
				t.Fatalf("%q: positions go back at token %d", text, i)
			}
		}
		if terms := Terms(text); !reflect.DeepEqual(terms, first) {
			t.Fatalf("%q: Terms %q, want %q", text, terms, first)
		}
	})
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

var fuzzIndex struct {
	once sync.Once
	ix   *Index
	err  error
}

// FuzzSearch runs arbitrary queries, and pasted logs, through the index
// serve and search use: no panic, no error but a refusal of a query over
// MaxQueryBytes, at most the limit, and every result a page of the asked
// language.
func FuzzSearch(f *testing.F) {
	fuzzSeeds(f)
	s := repoSite(f)
	f.Fuzz(func(t *testing.T, q string) {
		fuzzIndex.once.Do(func() { fuzzIndex.ix, fuzzIndex.err = Build(Docs(s), "") })
		if fuzzIndex.err != nil {
			t.Fatal(fuzzIndex.err)
		}
		for _, lang := range []string{"en", "zh"} {
			res, err := fuzzIndex.ix.Search(q, lang, 5)
			var long *QueryTooLongError
			if len(q) > MaxQueryBytes {
				if !errors.As(err, &long) || long.Len != len(q) {
					t.Fatalf("%s: a query of %d bytes: %v", lang, len(q), err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %q: %v", lang, q, err)
			}
			if len(res) > 5 {
				t.Fatalf("%q: %d results over the limit", q, len(res))
			}
			for _, r := range res {
				if !hasPrefix(r.Path, lang+"/") {
					t.Fatalf("%s %q: result %s is not a page of %s", lang, q, r.Path, lang)
				}
			}
			fuzzIndex.ix.Matches(q, lang)
		}
	})
}
