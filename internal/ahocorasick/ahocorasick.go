// Package ahocorasick finds every occurrence of a fixed set of literals in
// one pass over a text, for the readers of logs that must decide quickly
// which of many patterns a line may hold. It is an Aho-Corasick automaton
// compiled to a full transition table; it knows nothing of what the
// literals mean.
package ahocorasick

// Automaton is an Aho-Corasick automaton as a full transition table over
// byte classes: the bytes no literal holds share one class, so the table is
// small. The table holds each state premultiplied by the number of classes,
// negated (minus one) for a state where literals end, so that the loop over
// a text's bytes is one lookup and one test per byte. It is read-only once
// built, so one Automaton may scan in many goroutines at once.
type Automaton struct {
	class [256]int32
	next  []int32 // state*n + class -> state*n, or -(state*n)-1 when literals end there
	n     int32
	inv   uint64    // ceil(2^32/n): s*inv>>32 is s/n for a premultiplied state s, without a division
	out   [][]int   // state -> literals ending there, through the failure links too
	start [256]bool // bytes that leave the start state
	// pairs that begin a literal (its first two bytes, or its only byte and
	// any other), as bits: a text's bytes are passed two at a time, and far
	// fewer pairs than bytes begin a literal.
	pairs [1 << 16 / 64]uint64
}

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
	for b := range used {
		if used[b] {
			a.class[b] = int32(n)
			n++
		}
	}
	// The trie, with -1 for a missing edge; room for its largest size is
	// taken at once, so that building leaves no garbage behind.
	size := 1
	for _, l := range lits {
		size += len(l)
	}
	next := make([]int32, 0, size*n)
	out := make([][]int, 0, size)
	newState := func() int {
		for c := 0; c < n; c++ {
			next = append(next, -1)
		}
		out = append(out, nil)
		return len(out) - 1
	}
	newState()
	for id, l := range lits {
		if l == "" {
			continue
		}
		s := 0
		for i := 0; i < len(l); i++ {
			c := int(a.class[l[i]])
			if next[s*n+c] < 0 {
				next[s*n+c] = int32(newState())
			}
			s = int(next[s*n+c])
		}
		out[s] = append(out[s], id)
	}
	// Breadth first, each missing edge takes its failure state's edge.
	fail := make([]int, len(out))
	var queue []int
	for c := 0; c < n; c++ {
		if t := next[c]; t < 0 {
			next[c] = 0
		} else {
			queue = append(queue, int(t))
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		out[s] = append(out[s], out[fail[s]]...)
		for c := 0; c < n; c++ {
			t := next[s*n+c]
			if t < 0 {
				next[s*n+c] = next[fail[s]*n+c]
				continue
			}
			fail[t] = int(next[fail[s]*n+c])
			queue = append(queue, int(t))
		}
	}
	a.out, a.n, a.inv = out, int32(n), (1<<32+uint64(n)-1)/uint64(n)
	for i, t := range next {
		v := t * int32(n)
		if len(out[t]) > 0 {
			v = -v - 1
		}
		next[i] = v
	}
	a.next = next
	for c := 0; c < 256; c++ {
		a.start[c] = a.next[a.class[c]] != 0
	}
	for _, l := range lits {
		switch {
		case len(l) == 1:
			for c := 0; c < 256; c++ {
				a.setPair(l[0], byte(c))
			}
		case len(l) > 1:
			a.setPair(l[0], l[1])
		}
	}
	return a
}

// Scan calls found with the index of every literal occurrence in b, in the
// order they end; a literal found twice is reported twice.
func (a *Automaton) Scan(b []byte, found func(lit int)) { scan(a, b, found) }

// ScanString is Scan of a string.
func (a *Automaton) ScanString(s string, found func(lit int)) { scan(a, s, found) }

func (a *Automaton) setPair(c0, c1 byte) {
	p := uint16(c0)<<8 | uint16(c1)
	a.pairs[p>>6] |= 1 << (p & 63)
}

func scan[T string | []byte](a *Automaton, b T, found func(lit int)) {
	if len(a.out) <= 1 {
		return
	}
	s, next, class, start, pairs := int32(0), a.next, &a.class, &a.start, &a.pairs
	for i := 0; i < len(b); i++ {
		if s == 0 {
			// Most places of a log begin no literal: a loop without the
			// table's chain of lookups passes them quickly.
			for i+1 < len(b) {
				p := uint16(b[i])<<8 | uint16(b[i+1])
				if pairs[p>>6]&(1<<(p&63)) != 0 {
					break
				}
				i++
			}
			if i == len(b) || i == len(b)-1 && !start[b[i]] {
				return
			}
		}
		s = next[s+class[b[i]]]
		if s < 0 {
			s = -s - 1
			for _, l := range a.out[uint64(s)*a.inv>>32] {
				found(l)
			}
		}
	}
}
