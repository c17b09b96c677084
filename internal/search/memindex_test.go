package search

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/search/searchtest"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/internal/synth"
)

// The index kept in memory ranks every query exactly as bleve does, scores
// included: on the repository's KB with the shared cases, and on a
// synthetic KB large enough that common terms are cut to their best
// postings, with typos that go through the vocabulary.
func TestMemoryIndexRanksAsBleve(t *testing.T) {
	queries := rankQueries(t)
	sites := map[string]*site.Site{"repository": repoSite(t), "synthetic": synthSite(t, 400)}
	for name, s := range sites {
		docs := Docs(s)
		onDisk, err := Build(docs, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer onDisk.Close()
		inMem, err := Build(Docs(s), "")
		if err != nil {
			t.Fatal(err)
		}
		if len(inMem.bleve) != 0 || len(inMem.mem) != 2 {
			t.Fatalf("%s: in memory, %d bleve and %d memory indexes", name, len(inMem.bleve), len(inMem.mem))
		}
		hits := 0
		for _, q := range queries {
			want, err := onDisk.Search(q.q, q.lang, 50)
			if err != nil {
				t.Fatal(err)
			}
			got, err := inMem.Search(q.q, q.lang, 50)
			if err != nil {
				t.Fatal(err)
			}
			hits += len(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s %q:\n memory %v\n bleve  %v", name, q.lang, q.q, scored(got), scored(want))
			}
		}
		if hits == 0 {
			t.Errorf("%s: no query found anything", name)
		}
	}
}

func scored(rs []Result) []any {
	var out []any
	for _, r := range rs {
		out = append(out, r.ID, r.Score)
	}
	return out
}

// synthSite models a synthetic KB of n entries.
func synthSite(t testing.TB, n int) *site.Site {
	t.Helper()
	schema, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := synth.Write(dir, n, 1, schema); err != nil {
		t.Fatal(err)
	}
	k, err := kb.Load(os.DirFS(filepath.Join(dir, "kb")))
	if err != nil {
		t.Fatal(err)
	}
	a, err := content.Load(os.DirFS(filepath.Join(dir, "content")), "content")
	if err != nil {
		t.Fatal(err)
	}
	return site.New(k, a, "")
}

// Writing the client index and indexing in memory from one analysis gives
// the files WriteClient writes and the index Index makes.
func TestWriteClientAndIndex(t *testing.T) {
	s := repoSite(t)
	want := map[string][]byte{}
	if _, err := SiteCorpus(s).WriteClient(func(name string, data []byte) error { want[name] = data; return nil }); err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	ix, st, err := SiteCorpus(s).WriteClientAndIndex(func(name string, data []byte) error { got[name] = data; return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if len(got) == 0 || st.Files != len(got) || !reflect.DeepEqual(got, want) {
		t.Errorf("%d files (stats say %d), want the %d WriteClient writes", len(got), st.Files, len(want))
	}
	alone, err := SiteCorpus(s).Index("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range searchtest.Load(t).Queries {
		a, err := ix.Search(c.Q, c.Lang, 20)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := alone.Search(c.Q, c.Lang, 20)
		if len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s %q: %v, want %v", c.Lang, c.Q, scored(a), scored(b))
		}
	}
}

// An index of one language's documents, of a catalogue without pages,
// ranks that language's queries as the index of every language does.
func TestOneLanguageRanksAsAll(t *testing.T) {
	s := repoSite(t)
	all, err := SiteCorpus(s).Index("")
	if err != nil {
		t.Fatal(err)
	}
	catalog := site.Catalog(s.KB, s.Articles)
	for _, lang := range []string{"en", "zh"} {
		one, err := SiteCorpus(catalog).Only(lang).Index("")
		if err != nil {
			t.Fatal(err)
		}
		if len(one.mem) != 1 || one.mem[lang] == nil {
			t.Fatalf("%s: %d languages indexed", lang, len(one.mem))
		}
		n := 0
		for _, c := range searchtest.Load(t).Queries {
			if c.Lang != lang {
				continue
			}
			want, _ := all.Search(c.Q, c.Lang, 20)
			got, err := one.Search(c.Q, c.Lang, 20)
			if err != nil {
				t.Fatal(err)
			}
			n++
			if len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: %v, want %v", c.Lang, c.Q, scored(got), scored(want))
			}
		}
		if n == 0 {
			t.Errorf("no shared case in %s", lang)
		}
	}
}

// A corpus that reuses an earlier one's analysis after an entry's edit
// writes the client index and answers as a corpus made afresh, and finds
// the edit.
func TestSinceAnalyzesTheEditOnly(t *testing.T) {
	s := repoSite(t)
	first := SiteCorpus(s).Keep()
	if _, _, err := first.WriteClientAndIndex(func(string, []byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// The KB after an edit: one entry a new value, the others the same.
	k := *s.KB
	k.Entries = append([]*kb.Entry(nil), s.KB.Entries...)
	k.ByID = map[string]*kb.Entry{}
	i := len(k.Entries) / 2
	edited := *k.Entries[i]
	edited.RootCause = "Zyxwvutsrq " + edited.RootCause
	k.Entries[i] = &edited
	for _, e := range k.Entries {
		k.ByID[e.ID] = e
	}
	after := site.New(&k, s.Articles, "")

	files := func(c *Corpus) (map[string][]byte, *Index) {
		got := map[string][]byte{}
		ix, _, err := c.WriteClientAndIndex(func(name string, data []byte) error { got[name] = data; return nil })
		if err != nil {
			t.Fatal(err)
		}
		return got, ix
	}
	again, ixAgain := files(SiteCorpus(after).Since(first))
	fresh, ixFresh := files(SiteCorpus(after))
	if !reflect.DeepEqual(again, fresh) {
		t.Error("the client index after the edit differs from one made afresh")
	}
	// As serve --watch does: the index first, the client index after it,
	// from the analysis kept.
	later := SiteCorpus(after).Since(first)
	if _, err := later.Index(""); err != nil {
		t.Fatal(err)
	}
	kept := map[string][]byte{}
	if _, err := later.WriteClient(func(name string, data []byte) error { kept[name] = data; return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kept, fresh) {
		t.Error("the client index written after the index differs from one made afresh")
	}
	queries := []struct{ q, lang string }{{"zyxwvutsrq", "en"}}
	for _, c := range searchtest.Load(t).Queries {
		queries = append(queries, struct{ q, lang string }{c.Q, c.Lang})
	}
	for _, c := range queries {
		a, err := ixAgain.Search(c.q, c.lang, 20)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := ixFresh.Search(c.q, c.lang, 20)
		if len(b) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s %q: %v, want %v", c.lang, c.q, scored(a), scored(b))
		}
	}
	if r, _ := ixAgain.Search("zyxwvutsrq", "en", 1); len(r) != 1 || r[0].ID != edited.ID {
		t.Errorf("the edit is not found: %v", r)
	}
}

// rankQueries are the queries that two indexes must rank alike: the shared
// search cases, and some that cut common terms, correct typos, or name a
// synthetic entry.
func rankQueries(t testing.TB) []struct{ q, lang string } {
	queries := []struct{ q, lang string }{
		{"peer access", "en"}, {"pear acess", "en"}, {"nccl timeout watchdog", "en"},
		{"cudaErrorPeerAccessUnsupported", "en"}, {"driver gpu", "en"}, {"对等 访问", "zh"}, {"gpu", "zh"},
		{"the", "en"}, {"drivr", "en"}, {"SYN00042", "en"}, {"synthetic article", "zh"},
	}
	for _, c := range searchtest.Load(t).Queries {
		queries = append(queries, struct{ q, lang string }{c.Q, c.Lang})
	}
	return queries
}

// A result says every line of a pasted log its entry's pattern names, not
// only the line of its first match: PyTorch's wrapper line and NCCL's
// result name below it are both the invalid-argument entry's
// (https://github.com/vllm-project/vllm/issues/1726).
func TestResultListsEveryLineItsPatternNames(t *testing.T) {
	ix, err := Build(Docs(repoSite(t)), "")
	if err != nil {
		t.Fatal(err)
	}
	q := "DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument, NCCL version 2.14.3\n" +
		"ncclInvalidArgument: Invalid value for an argument.\n" +
		"Last error:\n" +
		"Invalid config blocking attribute value -2147483648\n"
	rs, err := ix.Search(q, "en", 50)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{"nccl/invalid-argument": {1, 2}, "nccl/config-blocking-invalid-older-library": {4}}
	for _, r := range rs {
		if w, ok := want[r.ID]; ok {
			if !reflect.DeepEqual(r.Lines, w) || r.Line != w[0] {
				t.Errorf("%s: line %d, lines %v; want line %d, lines %v", r.ID, r.Line, r.Lines, w[0], w)
			}
			delete(want, r.ID)
		}
	}
	for id := range want {
		t.Errorf("%s: not among the results", id)
	}
}
