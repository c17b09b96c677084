package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The line matcher finds exactly the entries whose pattern matches a line,
// as running every pattern on it does, on every line of the reproductions
// and of the shape files.
func TestLineMatcherAgreesWithEveryPattern(t *testing.T) {
	s := repoSite(t)
	docs := Docs(s)
	var en []Doc
	for _, d := range docs {
		if d.Lang == "en" {
			en = append(en, d)
		}
	}
	m := NewLineMatcher(en)
	var lines []string
	files, _ := filepath.Glob("../../kb/repro/*.txt")
	shapes, _ := filepath.Glob("testdata/shapes/*.json")
	if len(files) == 0 || len(shapes) == 0 {
		t.Fatal("no reproductions or shape files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	for _, f := range shapes {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var sf shapeFile
		if err := json.Unmarshal(data, &sf); err != nil {
			t.Fatal(err)
		}
		for _, c := range sf {
			for _, l := range c.Match {
				lines = append(lines, l.Line)
			}
			lines = append(lines, c.NoMatch...)
		}
	}
	matched := 0
	for _, l := range lines {
		var want []string
		for _, d := range en {
			if d.Regex != nil && d.Regex.FindString(l) != "" {
				want = append(want, d.ID)
			}
		}
		var got []string
		for _, lm := range m.Match([]byte(l), nil) {
			got = append(got, lm.Doc.ID)
			if lm.Text != lm.Doc.Regex.FindString(l) {
				t.Errorf("%s on %q: text %q", lm.Doc.ID, l, lm.Text)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q: matcher found %v, the patterns %v", l, got, want)
		}
		if len(want) > 0 {
			matched++
		}
	}
	if matched < 50 {
		t.Errorf("only %d of %d lines matched an entry: the test checks too little", matched, len(lines))
	}
}

// An entry already found is not looked for again: a line whose only
// candidates are done is not run through any pattern.
func TestLineMatcherSkipsWhatIsDone(t *testing.T) {
	m := NewLineMatcher([]Doc{
		{ID: "a", Regex: NewPattern(`peer access is not supported between \w+`)},
		{ID: "b", Regex: NewPattern(`CUDA_ERROR_PEER_ACCESS_UNSUPPORTED`)},
		{ID: "c", Regex: NewPattern(`(x|y)z`)}, // no literal: tried on every line
	})
	line := []byte("CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: peer access is not supported between these two devices")
	ids := func(ms []LineMatch) (out []string) {
		for _, x := range ms {
			out = append(out, x.Doc.ID)
		}
		return out
	}
	if got := ids(m.Match(line, nil)); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("matched %v, want [a b] (longest match first)", got)
	}
	done := func(d *Doc) bool { return d.ID != "b" }
	if got := ids(m.Match(line, done)); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("with b not done: %v, want both: a line shows all its causes", got)
	}
	if got := m.Match(line, func(*Doc) bool { return true }); got != nil {
		t.Errorf("all done: %v", ids(got))
	}
	if got := ids(m.Match([]byte("an xz here"), nil)); !slices.Equal(got, []string{"c"}) {
		t.Errorf("pattern without literals: %v", got)
	}
	if got := m.Match([]byte("peer access is not supported"), nil); got != nil {
		t.Errorf("literal without its pattern: %v", ids(got))
	}
}

// A pattern whose top is an alternation is looked for through each branch's
// literals, not run on every line; a line that only a done entry matches is
// not answered, though another entry was a candidate.
func TestLineMatcherAlternationsAndRepeats(t *testing.T) {
	m := NewLineMatcher([]Doc{
		{ID: "alt", Regex: NewPattern(`Cuda failure 205 'mapping of buffer object failed'|CUDA_ERROR_MAP_FAILED`)},
		{ID: "b", Regex: NewPattern(`CUDA_ERROR_MAP_FAILED: mapping`)},
	})
	if len(m.always) != 0 {
		t.Errorf("%d patterns tried on every line, want none: each branch has literals", len(m.always))
	}
	for _, l := range []string{"NCCL WARN Cuda failure 205 'mapping of buffer object failed'", "x CUDA_ERROR_MAP_FAILED y"} {
		if got := m.Match([]byte(l), nil); len(got) == 0 || got[0].Doc.ID != "alt" {
			t.Errorf("%q: %v", l, got)
		}
	}
	if got := m.Match([]byte("step 7 loss 2.3"), nil); got != nil {
		t.Errorf("a line without the literals matched %v", got)
	}
	// b is a candidate here but does not match; alt is done: nothing new.
	if got := m.Match([]byte("CUDA_ERROR_MAP_FAILED again"), func(d *Doc) bool { return d.ID == "alt" }); got != nil {
		t.Errorf("a repeat of a done entry answered: %v", got)
	}
}

// An entry is a candidate, and its pattern runs, only when the line holds
// every literal it requires, whichever of them is its key; the protocol a
// reader with literals of its own uses answers as Match does.
func TestLineMatcherCandidates(t *testing.T) {
	docs := []Doc{
		{ID: "ab", Regex: NewPattern(`Alpha.*Bravo`)},
		{ID: "a", Regex: NewPattern(`Alpha`)},
		{ID: "bc", Regex: NewPattern(`Bravo.*Charlie`)},
	}
	m := NewLineMatcher(docs)
	for line, want := range map[string][]string{
		"Alpha only":          {"a"},
		"Bravo Charlie":       {"bc"},
		"Charlie":             nil,
		"Bravo":               nil,
		"Alpha Bravo Charlie": {"ab", "a", "bc"},
	} {
		m.Match([]byte(line), nil)
		var got []string
		for _, d := range m.cands {
			got = append(got, m.docs[d].ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: candidates %v, want %v", line, got, want)
		}
		// The same through Literals, Begin, Found and End, on a clone.
		c := m.Clone()
		c.Begin()
		for i, l := range c.Literals() {
			if strings.Contains(line, l) {
				c.Found(i)
			}
		}
		ms, want2 := c.End([]byte(line), nil), m.Match([]byte(line), nil)
		if len(ms) != len(want2) {
			t.Errorf("%q: End %v, Match %v", line, ms, want2)
		}
	}
}
