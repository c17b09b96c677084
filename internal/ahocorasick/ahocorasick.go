// Package ahocorasick finds every occurrence of a fixed set of literals in
// one pass over a text, for the readers of logs that must decide quickly
// which of many patterns a line may hold. It knows nothing of what the
// literals mean.
package ahocorasick

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// Automaton finds literals in two steps. A filter of the first three bytes
// of every literal, a bit each in a table that stays in the CPU's nearest
// cache, passes over the places of a text where no literal can start (in a
// training log, more than nine in ten); from each place left, a walk down
// the literals' trie finds those that start there. An Aho-Corasick
// automaton, which this was, must follow every byte once it is inside any
// literal's prefix; the literals of a log's readers have prefixes so common
// (a space, "in", "0 ") that four bytes in five were walked.
//
// It is read-only once built, so one Automaton may scan in many goroutines
// at once.
type Automaton struct {
	class [256]int32 // byte -> its class; the bytes no literal holds share class 0, those above ASCII one class
	// wide[lit] is the literal where it holds a byte above ASCII (nil when
	// none does). Such bytes share one class, so that the few literals of
	// other scripts do not give every state of the trie a column for each
	// of their bytes; a wide literal is reported only once the text is seen
	// to hold it where the walk ended.
	wide []string
	// trie: state*n + class -> the child state*n, 0 where there is none
	// (the root is no one's child), negated (minus one) where literals end.
	trie []int32
	n    int32
	inv  uint64 // ceil(2^32/n): s*inv>>32 is s/n for a premultiplied state s, without a division
	// The literals that end at state s are lits[at[s]:at[s+1]].
	at   []int32
	lits []int32
	// first3 has the bit of hash3 of the first three bytes of every
	// literal, and of every three bytes a literal of two begins.
	first3 [1 << hashBits / 64]uint64
	two    [1 << 16 / 64]uint64 // the bits of literals of two bytes, for the end of a text
	one    []byte               // literals of one byte, found with IndexByte
	any    bool                 // some literal is not empty
}

const hashBits = 16

// hash3 spreads three bytes, the low 24 bits of w, over hashBits bits.
func hash3(w uint32) uint32 { return (w & 0xffffff) * 0x9e3779b1 >> (32 - hashBits) }

// New builds the automaton of lits; a literal is known by its index in lits.
// Empty literals are never found.
func New(lits []string) *Automaton {
	a := &Automaton{}
	var used [256]bool
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			used[l[i]] = true
		}
	}
	n := 1
	for b := range used[:utf8.RuneSelf] {
		if used[b] {
			a.class[b] = int32(n)
			n++
		}
	}
	if slices.Contains(used[utf8.RuneSelf:], true) {
		for b := utf8.RuneSelf; b < len(used); b++ {
			if used[b] {
				a.class[b] = int32(n)
			}
		}
		n++
		a.wide = make([]string, len(lits))
		for id, l := range lits {
			if strings.IndexFunc(l, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
				a.wide[id] = l
			}
		}
	}
	// Room for the trie is taken at once, and no more than it needs: the
	// literals' bytes would take half as much again as the states their
	// shared prefixes leave (a KB's 2,267 literals: 25,831 against 16,714).
	size := states(lits, &a.class)
	trie := make([]int32, n, size*n)
	out := make([][]int, 1, size)
	for id, l := range lits {
		if l == "" {
			continue
		}
		a.any = true
		s := 0
		for i := 0; i < len(l); i++ {
			c := int(a.class[l[i]])
			if trie[s*n+c] == 0 {
				trie[s*n+c] = int32(len(out))
				trie = append(trie, make([]int32, n)...)
				out = append(out, nil)
			}
			s = int(trie[s*n+c])
		}
		out[s] = append(out[s], id)
		switch len(l) {
		case 1:
			if bytes.IndexByte(a.one, l[0]) < 0 {
				a.one = append(a.one, l[0])
			}
		case 2:
			p := uint16(l[0]) | uint16(l[1])<<8
			a.two[p>>6] |= 1 << (p & 63)
			for c := 0; c < 256; c++ {
				a.set3(uint32(l[0]) | uint32(l[1])<<8 | uint32(c)<<16)
			}
		default:
			a.set3(uint32(l[0]) | uint32(l[1])<<8 | uint32(l[2])<<16)
		}
	}
	for i, t := range trie {
		v := t * int32(n)
		if len(out[t]) > 0 {
			v = -v - 1
		}
		trie[i] = v
	}
	a.trie, a.n, a.inv = trie, int32(n), (1<<32+uint64(n)-1)/uint64(n)
	a.at = make([]int32, len(out)+1)
	for s, ls := range out {
		for _, l := range ls {
			a.lits = append(a.lits, int32(l))
		}
		a.at[s+1] = int32(len(a.lits))
	}
	return a
}

// states is the number of states of the trie of lits read as classes: the
// root, and one for every distinct prefix of a literal. The literals, in
// classes, are sorted so that each adds the bytes past the prefix it shares
// with the one before.
func states(lits []string, class *[256]int32) int {
	keys := make([]string, 0, len(lits))
	for _, l := range lits {
		k := make([]byte, len(l))
		for i := 0; i < len(l); i++ {
			k[i] = byte(class[l[i]])
		}
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	n := 1
	for i, k := range keys {
		shared := 0
		if i > 0 {
			p := keys[i-1]
			for shared < len(p) && shared < len(k) && p[shared] == k[shared] {
				shared++
			}
		}
		n += len(k) - shared
	}
	return n
}

// ending calls found with the literals that end at premultiplied state s,
// reached with the text b up to end.
func ending[T string | []byte](a *Automaton, s int32, b T, end int, found func(lit int)) {
	k := uint64(s) * a.inv >> 32
	for _, l := range a.lits[a.at[k]:a.at[k+1]] {
		if a.wide != nil {
			if w := a.wide[l]; w != "" && (end < len(w) || string(b[end-len(w):end]) != w) {
				continue
			}
		}
		found(int(l))
	}
}

func (a *Automaton) set3(w uint32) {
	h := hash3(w)
	a.first3[h>>6] |= 1 << (h & 63)
}

// Scan calls found with the index of every literal occurrence in b, in no
// set order; a literal found twice is reported twice.
func (a *Automaton) Scan(b []byte, found func(lit int)) {
	scan(a, b, found)
	ones(a, b, func(from int, c byte) int { return bytes.IndexByte(b[from:], c) }, found)
}

// ScanString is Scan of a string.
func (a *Automaton) ScanString(s string, found func(lit int)) {
	scan(a, s, found)
	ones(a, s, func(from int, c byte) int { return strings.IndexByte(s[from:], c) }, found)
}

// scan finds the literals of two bytes or more.
func scan[T string | []byte](a *Automaton, b T, found func(lit int)) {
	if !a.any {
		return
	}
	if len(b) >= 3 {
		first3 := &a.first3
		// w holds the bytes at i and i+1, and then at i+2, the first lowest.
		w := uint32(b[0]) | uint32(b[1])<<8
		for i := 0; i+2 < len(b); i++ {
			w |= uint32(b[i+2]) << 16
			if h := hash3(w); first3[h>>6]&(1<<(h&63)) != 0 {
				walk(a, b, i, found)
			}
			w >>= 8
		}
	}
	// Where three bytes no longer fit: a literal of two at the end.
	if len(b) >= 2 {
		if p := uint16(b[len(b)-2]) | uint16(b[len(b)-1])<<8; a.two[p>>6]&(1<<(p&63)) != 0 {
			walk(a, b, len(b)-2, found)
		}
	}
}

// walk goes down the trie from the root with the bytes of b from i, and
// reports the literals of two bytes or more that start there.
func walk[T string | []byte](a *Automaton, b T, i int, found func(lit int)) {
	trie, class := a.trie, &a.class
	s := trie[class[b[i]]]
	if s < 0 {
		s = -s - 1
	}
	for j := i + 1; s != 0 && j < len(b); j++ {
		s = trie[s+class[b[j]]]
		if s < 0 {
			s = -s - 1
			ending(a, s, b, j+1, found)
		}
	}
}

// ones finds the literals of one byte in b, with index (from, c): the
// index of c in the text from from, or -1.
func ones[T string | []byte](a *Automaton, b T, index func(from int, c byte) int, found func(lit int)) {
	for _, c := range a.one {
		s := -a.trie[a.class[c]] - 1
		for i := 0; ; i++ {
			j := index(i, c)
			if j < 0 {
				break
			}
			i += j
			ending(a, s, b, i+1, found)
		}
	}
}
