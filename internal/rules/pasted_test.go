package rules_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// The shared table's cases on pasted text: the facts paste.Facts gives a
// pasted log alone, judged as explain and match judge them.
// pasted_browser_test.go runs the same cases through assets/paste.js.
func TestTablePasted(t *testing.T) {
	tb, texts := loadPasted(t)
	facts := map[string]rules.Facts{}
	for name, text := range texts {
		facts[name] = paste.Facts(paste.Extract(text))
	}
	n := 0
	for _, c := range tb.Cases {
		if c.Pasted == "" {
			continue
		}
		n++
		f, ok := facts[c.Pasted]
		if !ok {
			t.Fatalf("case %q names pasted %q, which the table lacks", c.When, c.Pasted)
		}
		v, err := rules.Applies(c.Versions, c.When, f)
		if err != nil {
			t.Fatalf("%s %q: %v", c.Pasted, c.When, err)
		}
		if v.Truth.String() != c.Want || !strings.Contains(strings.Join(v.Reasons, "; "), c.Reason) {
			t.Errorf("pasted %s %q: %s (%q), want %s (%q)", c.Pasted, c.When, v.Truth, v.Reasons, c.Want, c.Reason)
		}
	}
	if n == 0 {
		t.Fatal("the table has no cases on pasted text")
	}
}

// pastedTable is the part of the shared table on pasted text.
type pastedTable struct {
	Pasted map[string]string `json:"pasted"`
	Cases  []struct {
		Pasted   string   `json:"pasted"`
		When     string   `json:"when"`
		Versions []string `json:"versions"`
		Want     string   `json:"want"`
		Reason   string   `json:"reason"`
	} `json:"cases"`
}

// loadPasted reads that part and the text of each paste, by name.
func loadPasted(t *testing.T) (pastedTable, map[string]string) {
	t.Helper()
	var tb pastedTable
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &tb); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for name, path := range tb.Pasted {
		text, err := os.ReadFile(filepath.Join("../..", path))
		if err != nil {
			t.Fatal(err)
		}
		texts[name] = string(text)
	}
	return tb, texts
}
