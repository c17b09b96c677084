package search

import (
	"encoding/json"
	"os"
	"testing"
)

// auditReport is one public report of GPU P2P trouble in
// testdata/audit.json: where it is, the families of issue 17 it belongs to,
// the lines of it a user would paste that carry the error, and the entries
// expected among their causes. An entry the report's own text rules out
// (contradicted_by) does not count as recognizing it; a report no entry
// recognizes yet says why (unmatched).
type auditReport struct {
	URL          string   `json:"url"`
	Family       []int    `json:"family"`
	Expect       []string `json:"expect"`
	Lines        []string `json:"lines"`
	Contradicted []string `json:"contradicted_by"`
	Unmatched    string   `json:"unmatched"`
}

// TestAuditReportsAreRecognized runs the key lines of real reports through
// the matcher explain uses, one line at a time: each report must be
// recognized by an expected entry, not only by entries its text rules out,
// and at least 85% of all the reports must be recognized.
func TestAuditReportsAreRecognized(t *testing.T) {
	data, err := os.ReadFile("testdata/audit.json")
	if err != nil {
		t.Fatal(err)
	}
	var reports []auditReport
	if err := json.Unmarshal(data, &reports); err != nil {
		t.Fatalf("testdata/audit.json: %v", err)
	}
	if len(reports) < 60 {
		t.Fatalf("testdata/audit.json holds %d reports, want at least 60", len(reports))
	}
	s := repoSite(t)
	var en []Doc
	for _, d := range Docs(s) {
		if d.Lang == "en" {
			en = append(en, d)
		}
	}
	m := NewLineMatcher(en)
	urls := map[string]bool{}
	recognized := 0
	for _, r := range reports {
		if urls[r.URL] {
			t.Errorf("%s: listed twice", r.URL)
		}
		urls[r.URL] = true
		if len(r.Family) == 0 || len(r.Lines) == 0 {
			t.Errorf("%s: no family or no lines", r.URL)
			continue
		}
		if len(r.Expect) == 0 {
			if r.Unmatched == "" {
				t.Errorf("%s: expects no entry and does not say why", r.URL)
			}
			continue
		}
		var found []string
		for _, l := range r.Lines {
			for _, x := range m.Match([]byte(l), nil) {
				if !contains(found, x.Doc.ID) {
					found = append(found, x.Doc.ID)
				}
			}
		}
		for _, id := range r.Expect {
			if s.KB.ByID[id] == nil {
				t.Errorf("%s: no entry %s", r.URL, id)
			}
		}
		expected, uncontradicted := false, false
		for _, id := range found {
			expected = expected || contains(r.Expect, id)
			uncontradicted = uncontradicted || !contains(r.Contradicted, id)
		}
		switch {
		case !expected:
			t.Errorf("%s: none of %v among the causes of its lines (found %v)", r.URL, r.Expect, found)
		case !uncontradicted:
			t.Errorf("%s: recognized only by %v, which its own text rules out", r.URL, found)
		default:
			recognized++
		}
	}
	if share := float64(recognized) / float64(len(reports)); share < 0.85 {
		t.Errorf("%d of %d reports recognized (%.0f%%), want at least 85%%", recognized, len(reports), 100*share)
	}
}
