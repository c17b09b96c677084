package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shapeFile is one file of internal/search/testdata/shapes: for each entry,
// lines as real users paste them (rank and host prefixes, timestamps, quote
// marks, varying devices and addresses), each with where it was seen, and
// lines that must not be taken for it.
type shapeFile map[string]struct {
	Match []struct {
		Line   string `json:"line"`
		Source string `json:"source"` // the report, the source line, or repro/<file>
	} `json:"match"`
	NoMatch []string `json:"no_match"`
}

// TestRealShapesOfEachSignature runs every line of the shape files through
// the patterns as the search box runs them on a paste, and line by line
// through the matcher explain uses on a log: each must find its entry both
// ways, and no_match lines must not.
func TestRealShapesOfEachSignature(t *testing.T) {
	files, err := filepath.Glob("testdata/shapes/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no shape files in testdata/shapes")
	}
	s := repoSite(t)
	ix, err := Build(Docs(s), "")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var en []Doc
	for _, d := range Docs(s) {
		if d.Lang == "en" {
			en = append(en, d)
		}
	}
	lm := NewLineMatcher(en)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var sf shapeFile
		if err := json.Unmarshal(data, &sf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for id, c := range sf {
			if s.KB.ByID[id] == nil {
				t.Errorf("%s: no entry %s", name, id)
				continue
			}
			if len(c.Match) == 0 {
				t.Errorf("%s: %s has no lines to match", name, id)
			}
			for _, m := range c.Match {
				if m.Source == "" {
					t.Errorf("%s: %s: line %q says not where it was seen", name, id, m.Line)
				}
				if !contains(matchIDs(ix, m.Line), id) {
					t.Errorf("%s: %s does not match %q (matched %v)", name, id, m.Line, matchIDs(ix, m.Line))
				}
				if !contains(lineMatchIDs(lm, m.Line), id) {
					t.Errorf("%s: %s matches no single line of %q, which explain reads one line at a time", name, id, m.Line)
				}
			}
			for _, l := range c.NoMatch {
				if contains(matchIDs(ix, l), id) {
					t.Errorf("%s: %s matches %q, which is not its message", name, id, l)
				}
			}
		}
	}
}

func matchIDs(ix *Index, text string) []string {
	var out []string
	for _, d := range ix.Matches(text, "en") {
		out = append(out, d.ID)
	}
	return out
}

// lineMatchIDs is every entry the line matcher finds on any line of text,
// as explain reads a log.
func lineMatchIDs(m *LineMatcher, text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, x := range m.Match([]byte(l), nil) {
			if !contains(out, x.Doc.ID) {
				out = append(out, x.Doc.ID)
			}
		}
	}
	return out
}
