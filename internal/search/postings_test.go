package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A built site's search answers every query alike whether it is answered
// from the postings the build wrote, or from the bleve index the server
// makes from them, or from a bleve index made straight from the analysis:
// the same results in the same order with the same scores.
func TestPostingsAnswerAsBleve(t *testing.T) {
	queries := rankQueries(t)
	sites := map[string]func(testing.TB) []Doc{
		"repository": func(t testing.TB) []Doc { return Docs(repoSite(t)) },
		"synthetic":  func(t testing.TB) []Doc { return Docs(synthSite(t, 400)) },
	}
	for name, docs := range sites {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			emit := func(name string, data []byte) error {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return err
				}
				return os.WriteFile(p, data, 0o644)
			}
			if _, err := NewCorpus(docs(t)).Write(emit, "search/"+DocsFile); err != nil {
				t.Fatal(err)
			}
			bleveDir := filepath.Join(dir, "search", "index.bleve")
			docsPath := filepath.Join(dir, "search", DocsFile)
			// As a build made it before: bleve's index from the analysis.
			directDir := t.TempDir()
			made, err := Build(docs(t), directDir)
			if err != nil {
				t.Fatal(err)
			}
			made.Close()
			direct, err := Open(directDir, docsPath)
			if err != nil {
				t.Fatal(err)
			}
			defer direct.Close()
			if direct.InMemory() {
				t.Fatal("bleve's index made from the analysis did not open")
			}
			fromPostings, err := Open(bleveDir, docsPath)
			if err != nil {
				t.Fatal(err)
			}
			if !fromPostings.InMemory() || len(fromPostings.bleve) != 0 {
				t.Fatalf("a site without bleve's index opened with %d bleve indexes", len(fromPostings.bleve))
			}
			if err := fromPostings.BuildBleve(context.Background(), bleveDir); err != nil {
				t.Fatal(err)
			}
			fromBleve, err := Open(bleveDir, docsPath)
			if err != nil {
				t.Fatal(err)
			}
			defer fromBleve.Close()
			if fromBleve.InMemory() || len(fromBleve.bleve) != 2 {
				t.Fatalf("after BuildBleve: %d bleve indexes, %d in memory", len(fromBleve.bleve), len(fromBleve.mem))
			}
			hits := 0
			for _, q := range queries {
				want, err := direct.Search(q.q, q.lang, 50)
				if err != nil {
					t.Fatal(err)
				}
				hits += len(want)
				for which, ix := range map[string]*Index{"postings": fromPostings, "bleve from postings": fromBleve} {
					got, err := ix.Search(q.q, q.lang, 50)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s %q from %s:\n got  %v\n want %v", q.lang, q.q, which, scored(got), scored(want))
					}
				}
			}
			if hits == 0 {
				t.Error("no query found anything")
			}
		})
	}
}

// A damaged postings file is an error when the site's index is opened, not
// a server that answers wrongly.
func TestDamagedPostings(t *testing.T) {
	s := repoSite(t)
	a := mustAnalyze(t, NewCorpus(Docs(s)), "en")
	m := newMemIndex(a)
	data := encodePostings(a)
	ndocs := len(m.ids)
	back, err := decodePostings(data, ndocs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, m) {
		t.Fatal("postings read back differ from those written")
	}
	for _, bad := range [][]byte{data[:len(data)/2], data[:len(data)-1], append(append([]byte(nil), data...), 0), data[3:]} {
		if _, err := decodePostings(bad, ndocs); err == nil {
			t.Errorf("a damaged file of %d bytes (of %d) was read", len(bad), len(data))
		}
	}
	if _, err := decodePostings(data, ndocs+1); err == nil {
		t.Error("postings of another number of documents were read")
	}
}

func mustAnalyze(t *testing.T, c *Corpus, lang string) *analyzed {
	t.Helper()
	a, err := c.analyze(lang)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
