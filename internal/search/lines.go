package search

import (
	"regexp/syntax"
	"sort"
	"strings"
)

// LineMatcher finds the entries whose signature pattern matches a line, fast
// enough for logs of gigabytes: one pass of an Aho-Corasick automaton over
// the line finds the literals the patterns require, and only the patterns
// whose literals are all there are run. A log line that holds none of them,
// which is nearly every line, costs one table lookup per byte.
type LineMatcher struct {
	docs   []Doc
	owner  []int   // per doc: the index of the first doc of the same entry (a pattern a|b is a doc per branch)
	need   []int   // per doc: how many distinct literals it requires; 0: run its pattern on every line
	users  [][]int // per literal: the docs requiring it
	always []int   // docs whose patterns require no literal the automaton can look for

	ac acAutomaton

	// Per line scratch, stamped so that nothing is cleared between lines.
	stamp    uint32
	litSeen  []uint32
	docStamp []uint32
	docCount []int
	cands    []int
}

// LineMatch is one entry whose pattern matched a line.
type LineMatch struct {
	Doc  *Doc
	Text string // what the pattern matched
}

// Literals shorter than this find too many lines to be worth looking for,
// and longer ones are cut: any prefix of a required literal is required too,
// and the automaton stays small however long the signatures are.
const (
	minLiteral = 3
	maxLiteral = 32
)

// NewLineMatcher prepares the patterns of docs (entries of one language).
func NewLineMatcher(docs []Doc) *LineMatcher {
	m := &LineMatcher{}
	litID := map[string]int{}
	var lits []string
	for _, d := range docs {
		if d.Regex == nil { // a pattern is compiled when a line holds its literals: compiling them all was most of explain's memory
			continue
		}
		// A pattern whose top is an alternation requires no literal as a
		// whole, but each branch does: the entry is looked for through the
		// literals of any branch.
		var sets [][]string
		if re, err := syntax.Parse(d.Regex.String(), syntax.Perl); err == nil {
			for _, b := range branches(re.Simplify()) {
				set := lookFor(requiredLiterals(b))
				if len(set) == 0 {
					sets = nil
					break
				}
				sets = append(sets, set)
			}
		}
		if len(sets) == 0 {
			sets = [][]string{nil}
		}
		owner := len(m.docs)
		for _, set := range sets {
			i := len(m.docs)
			m.docs = append(m.docs, d)
			m.owner = append(m.owner, owner)
			ids := map[int]bool{}
			for _, t := range set {
				id, ok := litID[t]
				if !ok {
					id = len(lits)
					litID[t] = id
					lits = append(lits, t)
					m.users = append(m.users, nil)
				}
				if !ids[id] {
					ids[id] = true
					m.users[id] = append(m.users[id], i)
				}
			}
			m.need = append(m.need, len(ids))
			if len(ids) == 0 {
				m.always = append(m.always, i)
			}
		}
	}
	m.ac = newAutomaton(lits)
	m.litSeen = make([]uint32, len(lits))
	m.docStamp = make([]uint32, len(m.docs))
	m.docCount = make([]int, len(m.docs))
	return m
}

// lookFor picks what the automaton looks for from a pattern's required
// literals: any part of one is required too, so each is cut to start at its
// rarest byte in log text (a capital, a sign) and to hold at most maxLiteral
// bytes. Only those that start at a rare byte are kept, or the best one when
// none does: the automaton passes the bytes that start nothing quickly.
func lookFor(lits []literal) []string {
	var rare []string
	best, bestRank := "", -1
	for _, l := range lits {
		t := l.text
		at, r := 0, -1
		for i := 0; i+minLiteral <= len(t); i++ {
			if k := rarity(t[i]); k > r {
				at, r = i, k
			}
		}
		if r < 0 {
			continue
		}
		t = t[at:min(len(t), at+maxLiteral)]
		if r >= 2 {
			rare = append(rare, t)
		}
		if r > bestRank || r == bestRank && len(t) > len(best) {
			best, bestRank = t, r
		}
	}
	if len(rare) == 0 && best != "" {
		return []string{best}
	}
	return rare
}

// rarity ranks how seldom a byte starts a word in logs: 0 for space, 1 for
// the commonest letters, signs and digits, 2 for the other lower-case
// letters, 3 for capitals and the rest.
func rarity(c byte) int {
	switch {
	case c == ' ' || c == '\t':
		return 0
	case strings.IndexByte("etaoinsrhldcu0123456789:.,/-_=[]()", c) >= 0:
		return 1
	case c >= 'a' && c <= 'z':
		return 2
	}
	return 3
}

// Match returns the entries whose pattern matches line, longest match first.
// With done, a line is answered only when an entry not done matches it, and
// then with every entry it matches; the patterns of done entries run only
// then, so a message already found costs little when it repeats. done may be
// nil. A LineMatcher is not safe for concurrent use.
func (m *LineMatcher) Match(line []byte, done func(doc *Doc) bool) []LineMatch {
	m.stamp++
	if m.stamp == 0 { // wrapped: start the stamps again
		clear(m.litSeen)
		clear(m.docStamp)
		m.stamp = 1
	}
	m.cands = m.cands[:0]
	m.ac.scan(line, func(lit int) {
		if m.litSeen[lit] == m.stamp {
			return
		}
		m.litSeen[lit] = m.stamp
		for _, d := range m.users[lit] {
			if m.docStamp[d] != m.stamp {
				m.docStamp[d], m.docCount[d] = m.stamp, 0
			}
			m.docCount[d]++
			if m.docCount[d] == m.need[d] {
				m.cands = append(m.cands, d)
			}
		}
	})
	m.cands = append(m.cands, m.always...)
	if len(m.cands) == 0 {
		return nil
	}
	// The branches of one entry stand for it once.
	for k, d := range m.cands {
		m.cands[k] = m.owner[d]
	}
	sort.Ints(m.cands)
	m.cands = compactInts(m.cands)
	sort.Ints(m.cands) // the documents' order, whatever order the literals came in
	s := string(line)
	var out []LineMatch
	if done != nil {
		// The patterns of documents not reported yet decide whether the
		// line says anything new; only then do the others run too, so that
		// the line lists every document it matches. A log repeats its
		// lines, and most of them would otherwise run every pattern again.
		fresh := false
		for _, d := range m.cands {
			if !done(&m.docs[d]) && m.docs[d].Regex.MatchString(s) {
				fresh = true
				break
			}
		}
		if !fresh {
			return nil
		}
	}
	for _, d := range m.cands {
		if t := m.docs[d].Regex.FindString(s); t != "" {
			out = append(out, LineMatch{&m.docs[d], t})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Text) > len(out[j].Text) })
	return out
}

// acAutomaton is an Aho-Corasick automaton as a full transition table over
// byte classes: the bytes no literal holds share one class, so the table is
// small. The table holds each state premultiplied by the number of classes,
// negated (minus one) for a state where literals end, so that the loop over
// a line's bytes is one lookup and one test per byte.
type acAutomaton struct {
	class [256]int32
	next  []int32 // state*n + class -> state*n, or -(state*n)-1 when literals end there
	n     int32
	out   [][]int   // state -> literals ending there, through the failure links too
	start [256]bool // bytes that leave the start state: the others are skipped without the table
}

func newAutomaton(lits []string) acAutomaton {
	var a acAutomaton
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
	// The trie, with -1 for a missing edge.
	var next []int32
	var out [][]int
	newState := func() int {
		for c := 0; c < n; c++ {
			next = append(next, -1)
		}
		out = append(out, nil)
		return len(out) - 1
	}
	newState()
	for id, l := range lits {
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
	a.out, a.n = out, int32(n)
	a.next = make([]int32, len(next))
	for i, t := range next {
		v := t * int32(n)
		if len(out[t]) > 0 {
			v = -v - 1
		}
		a.next[i] = v
	}
	for c := 0; c < 256; c++ {
		a.start[c] = a.next[a.class[c]] != 0
	}
	return a
}

// scan calls found for every literal occurrence in b.
func (a *acAutomaton) scan(b []byte, found func(lit int)) {
	if len(a.out) <= 1 {
		return
	}
	s, next, class, start := int32(0), a.next, &a.class, &a.start
	for i := 0; i < len(b); i++ {
		if s == 0 {
			// Most bytes of a log start no literal: a loop without the
			// table's chain of lookups passes them quickly.
			for i < len(b) && !start[b[i]] {
				i++
			}
			if i == len(b) {
				return
			}
		}
		s = next[s+class[b[i]]]
		if s < 0 {
			s = -s - 1
			for _, l := range a.out[s/a.n] {
				found(l)
			}
		}
	}
}

// LineMatcher returns a matcher of the entries of lang.
func (ix *Index) LineMatcher(lang string) *LineMatcher {
	return NewLineMatcher(ix.byLang[lang])
}

// branches are the alternatives at the top of a pattern, or the pattern.
// The parser factors a prefix the alternatives share out of them (a|ab is
// a(?:|b)): such a concatenation is spread back over the alternatives.
func branches(re *syntax.Regexp) []*syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	switch re.Op {
	case syntax.OpAlternate:
		return re.Sub
	case syntax.OpConcat:
		for i, sub := range re.Sub {
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			if sub.Op != syntax.OpAlternate {
				continue
			}
			var out []*syntax.Regexp
			for _, alt := range sub.Sub {
				mid := []*syntax.Regexp{alt}
				if alt.Op == syntax.OpConcat {
					mid = alt.Sub
				}
				parts := append(append(append([]*syntax.Regexp{}, re.Sub[:i]...), mid...), re.Sub[i+1:]...)
				out = append(out, &syntax.Regexp{Op: syntax.OpConcat, Sub: parts})
			}
			return out
		}
	}
	return []*syntax.Regexp{re}
}

// compactInts drops repeats from a sorted slice, in place.
func compactInts(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
