package ahocorasick

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// naive finds every occurrence of every literal, as (end, literal) pairs.
func naive(lits []string, text string) [][2]int {
	var out [][2]int
	for id, l := range lits {
		if l == "" {
			continue
		}
		for i := 0; i+len(l) <= len(text); i++ {
			if text[i:i+len(l)] == l {
				out = append(out, [2]int{i + len(l), id})
			}
		}
	}
	return out
}

func scanned(a *Automaton, text string) [][2]int {
	var out [][2]int
	// Scan reports in the order literals end; the end is recovered by
	// scanning prefixes, which the property below needs only as a multiset.
	for end := 1; end <= len(text); end++ {
		before := 0
		a.Scan([]byte(text[:end-1]), func(int) { before++ })
		k := 0
		a.Scan([]byte(text[:end]), func(lit int) {
			k++
			if k > before {
				out = append(out, [2]int{end, lit})
			}
		})
	}
	return out
}

func sorted(x [][2]int) [][2]int {
	sort.Slice(x, func(i, j int) bool {
		if x[i][0] != x[j][0] {
			return x[i][0] < x[j][0]
		}
		return x[i][1] < x[j][1]
	})
	return x
}

// Every occurrence, overlapping ones and literals inside others included,
// is found once, as a plain search over the text finds them.
func TestScanFindsWhatIndexFinds(t *testing.T) {
	cases := []struct {
		lits []string
		text string
	}{
		{[]string{"he", "she", "his", "hers"}, "ushers"},
		{[]string{"NCCL", "NCCL INFO", "INFO", "via P2P/"}, "vm:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM"},
		{[]string{"aa", "a", "aaa", ""}, "aaaa"},
		{[]string{"x"}, ""},
		{nil, "anything"},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		var lits []string
		for j := 0; j < 1+rng.IntN(6); j++ {
			lits = append(lits, randText(rng, 1+rng.IntN(4)))
		}
		cases = append(cases, struct {
			lits []string
			text string
		}{lits, randText(rng, rng.IntN(40))})
	}
	for _, c := range cases {
		a := New(c.lits)
		want := sorted(naive(c.lits, c.text))
		got := sorted(scanned(a, c.text))
		var fromString, fromBytes []int
		a.ScanString(c.text, func(lit int) { fromString = append(fromString, lit) })
		a.Scan([]byte(c.text), func(lit int) { fromBytes = append(fromBytes, lit) })
		if !reflect.DeepEqual(fromString, fromBytes) {
			t.Errorf("literals %q in %q: ScanString %v, Scan %v", c.lits, c.text, fromString, fromBytes)
		}
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("literals %q in %q: found %v, want %v", c.lits, c.text, got, want)
		}
	}
}

// randText draws from a small alphabet, so that literals overlap often.
func randText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte("abc \xff"[rng.IntN(5)])
	}
	return b.String()
}
