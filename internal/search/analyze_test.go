package search

import (
	"reflect"
	"testing"

	"github.com/p2pkb/p2pkb/internal/search/searchtest"
)

func TestAnalyze(t *testing.T) {
	for _, c := range searchtest.Load(t).Analysis {
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
