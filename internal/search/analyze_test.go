package search

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// Cases are shared with the browser tests of assets/search.js.
type Cases struct {
	Analysis []struct {
		Text  string   `json:"text"`
		Terms []string `json:"terms"`
	} `json:"analysis"`
	Queries []struct {
		Q    string `json:"q"`
		Lang string `json:"lang"`
		Top  string `json:"top"` // the first result
		In   string `json:"in"`  // among the results
	} `json:"queries"`
}

func loadCases(t *testing.T) Cases {
	t.Helper()
	var c Cases
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAnalyze(t *testing.T) {
	for _, c := range loadCases(t).Analysis {
		if got := Terms(c.Text); !reflect.DeepEqual(got, c.Terms) {
			t.Errorf("Terms(%q) = %q, want %q", c.Text, got, c.Terms)
		}
	}
}

func TestTokenOffsets(t *testing.T) {
	text := "see cudaMemcpyPeer 对等访问"
	for _, tok := range Analyze(text) {
		frag := text[tok.Start:tok.End]
		if tok.Term == "cudamemcpypeer" && frag != "cudaMemcpyPeer" || tok.Term == "访问" && frag != "访问" {
			t.Errorf("%s covers %q", tok.Term, frag)
		}
	}
}
