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
	// Scan reports in no set order; the end of each occurrence is recovered
	// by scanning prefixes: a literal found once more in text[:end] than in
	// text[:end-1] ends at end.
	count := func(s string) map[int]int {
		n := map[int]int{}
		a.Scan([]byte(s), func(lit int) { n[lit]++ })
		return n
	}
	for end := 1; end <= len(text); end++ {
		before, now := count(text[:end-1]), count(text[:end])
		for lit, k := range now {
			for ; k > before[lit]; k-- {
				out = append(out, [2]int{end, lit})
			}
		}
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
		// Bytes above ASCII share a class: literals of one path of
		// classes are told apart by their bytes.
		{[]string{"卡住", "挂起", "死锁", "卡", "\xa1", "hang"}, "任务卡住了\xa1，没有挂起 hang"},
		{[]string{"é", "è", "ü"}, "déjà vu über"},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// random adds n cases of up to most literals (at least least) of 1 to
	// litLen bytes and a text of up to textLen bytes, all drawn from
	// alphabet.
	random := func(n, least, most, litLen, textLen int, alphabet string) {
		for i := 0; i < n; i++ {
			var lits []string
			for j := 0; j < least+rng.IntN(most-least+1); j++ {
				lits = append(lits, randText(rng, alphabet, 1+rng.IntN(litLen)))
			}
			cases = append(cases, struct {
				lits []string
				text string
			}{lits, randText(rng, alphabet, rng.IntN(textLen))})
		}
	}
	random(200, 1, 6, 4, 40, "abc \xff")
	// Several bytes above ASCII, which share a class.
	random(200, 1, 8, 4, 40, "a \xe5\x8d\xa1\xff")
	// Many literals, so that the filter of first bytes is dense and
	// literals share prefixes, suffixes and first bytes.
	random(20, 50, 349, 8, 120, "abc \xff")
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
func randText(rng *rand.Rand, alphabet string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// BenchmarkScan scans the lines of an NCCL_DEBUG=INFO log for literals as
// many and as common in their first bytes as a log's readers look for.
func BenchmarkScan(b *testing.B) {
	lines := []string{
		"vm:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM",
		"vm:1:2 [1] NCCL INFO Connected all rings, use ring PXN 0 GDR 1",
		"vm:1:1 [0] NCCL INFO comm 0x55d0 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0",
		"vm:1:1 [0] NCCL INFO NCCL_NVLS_ENABLE set by environment to 0.",
		"torch.cuda.get_device_name(0) -> ok: NVIDIA H200",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var lits []string
	for _, l := range lines {
		for k := 0; k < 40; k++ { // pieces of the lines, and words like them
			i := rng.IntN(len(l) - 3)
			lits = append(lits, l[i:min(len(l), i+3+rng.IntN(12))]+string(rune('a'+rng.IntN(26))))
		}
	}
	lits = append(lits, "NCCL INFO ", "Channel ", "via P2P/", "\x1b", "^C", " vm", "int8", "0 Ti")
	a := New(lits)
	n, size := 0, 0
	for _, l := range lines {
		size += len(l) + 1
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, l := range lines {
			a.ScanString(l, func(int) { n++ })
		}
	}
}

// The trie takes room for its states and no more: literals that share
// prefixes, and bytes above ASCII that share a class, need fewer states
// than they have bytes.
func TestTrieSizedToItsStates(t *testing.T) {
	lits := []string{"NCCL WARN", "NCCL INFO", "NCCL", "cudaErrorPeerAccess", "cudaErrorPeer", "", "卡住", "卡死", "P2P"}
	a := New(lits)
	if len(a.trie) != cap(a.trie) {
		t.Errorf("trie holds %d of room for %d", len(a.trie), cap(a.trie))
	}
	// The root, NCCL (4), " WARN" and " INFO" past it (5+4: they share the
	// space), cudaErrorPeer (13), Access (6), 卡 and its next byte class
	// shared (6 bytes as one class, the two words differ in no class: 6),
	// P2P (3).
	if got, want := len(a.trie)/int(a.n), 1+4+5+4+13+6+6+3; got != want {
		t.Errorf("%d states, want %d", got, want)
	}
}
