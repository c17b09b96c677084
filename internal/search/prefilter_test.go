package search

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/kb"

	"github.com/p2pkb/p2pkb/internal/search/searchtest"
)

// prefilterTexts are texts a search may be asked: every entry's signature,
// alone, in a log line, cut short and lower-cased, and the shared queries.
func prefilterTexts(t testing.TB, docs []Doc) []string {
	var texts []string
	for _, d := range docs {
		if d.Regex == nil {
			continue
		}
		texts = append(texts, d.Sig, "[rank3]: "+d.Sig+" (at step 7)", d.Sig[:len(d.Sig)/2], strings.ToLower(d.Sig))
	}
	for _, c := range searchtest.Load(t).Queries {
		texts = append(texts, c.Q)
	}
	return texts
}

// The literal prefilter may only leave out patterns that cannot match: for
// every entry of the repository's KB and every text, a pattern that matches
// the text is one mayMatch keeps. And it does leave out most of them, or it
// would save nothing.
func TestPatternPrefilterKeepsEveryMatch(t *testing.T) {
	docs := Docs(repoSite(t))
	texts := prefilterTexts(t, docs)
	kept, pairs, matched := 0, 0, 0
	for _, d := range docs {
		if d.Regex == nil {
			continue
		}
		for _, q := range texts {
			pairs++
			may := d.Regex.mayMatch(q)
			if may {
				kept++
			}
			if matchPattern(d, q) != "" {
				matched++
				if !may {
					t.Fatalf("%s (%s): pattern %q matches %q, but the prefilter leaves it out", d.ID, d.Lang, d.Regex.String(), q)
				}
			}
		}
	}
	if matched == 0 {
		t.Fatal("no pattern matched any text: the test proves nothing")
	}
	if kept > pairs/4 {
		t.Errorf("the prefilter keeps %d of %d entry-text pairs; most cannot match", kept, pairs)
	}
}

// FuzzPatternPrefilter: whatever the text, no entry whose pattern matches it
// is left out by the prefilter.
func FuzzPatternPrefilter(f *testing.F) {
	fuzzSeeds(f)
	docs := Docs(repoSite(f))
	f.Fuzz(func(t *testing.T, q string) {
		for _, d := range docs {
			if d.Regex != nil && matchPattern(d, q) != "" && !d.Regex.mayMatch(q) {
				t.Fatalf("%s: pattern %q matches %q, but the prefilter leaves it out", d.ID, d.Regex.String(), q)
			}
		}
	})
}

// The syntax kb.Load keeps of each pattern gives the literals that parsing
// the pattern again gives.
func TestPatternSyntaxFromTheLoader(t *testing.T) {
	k, err := kb.Load(os.DirFS("../../kb"), kb.WithPatternSyntax())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range k.Entries {
		if e.PatternSyntax() == nil {
			t.Fatalf("%s: no syntax kept", e.ID)
		}
		if got, want := entryPattern(e).literalSets(), NewPattern(e.Regex).literalSets(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: literals %q from the loader's syntax, %q parsed again", e.ID, got, want)
		}
	}
}

// Alternatives that share a prefix are factored by the parser (cudaX|cuY
// is cu(?:daX|Y)); each is still looked for by its own rarer literals, not
// by the common prefix, nor, when the prefix is too short to look for, by
// running the pattern on every line.
func TestLiteralSetsOfFactoredAlternatives(t *testing.T) {
	for _, c := range []struct {
		expr string
		want [][]string
	}{
		{`cudaErrorInsufficientDriver|cudaGetDeviceCount returned 35\b`, [][]string{{"ErrorInsufficientDriver"}, {"GetDeviceCount returned 35"}}},
		{`cudaErrorDeviceUninitialized: invalid device context|(?:cudaIpcOpenMemHandle|cuIpcOpenMemHandle\(\) failed:).*(?:cudaErrorDeviceUninitialized|invalid device context)`,
			[][]string{{"ErrorDeviceUninitialized: invali"}, {"IpcOpenMemHandle"}, {"IpcOpenMemHandle() failed:"}}},
		// A branch with rare literals of its own is not split further.
		{`NCCL WARN (?:Cuda|cuda) failure (?:1|2)`, [][]string{{"NCCL WARN ", "Cuda", "failure "}, {"NCCL WARN ", "failure "}}},
	} {
		if got := NewPattern(c.expr).literalSets(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: literals %q, want %q", c.expr, got, c.want)
		}
	}
}
