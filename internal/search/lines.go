package search

import (
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/p2pkb/p2pkb/internal/ahocorasick"
)

// LineMatcher finds the entries whose signature pattern matches a line, fast
// enough for logs of gigabytes: one pass over the line (internal/ahocorasick)
// finds the literals the patterns require, and only the patterns whose
// literals are all there are run. A log line that holds none of them,
// which is nearly every line, costs one test of a filter per byte.
type LineMatcher struct {
	docs   []Doc
	owner  []int   // per doc: the index of the first doc of the same entry (a pattern a|b is a doc per branch)
	need   [][]int // per doc: the literals it requires; none: run its pattern on every line
	users  [][]int // per literal: the docs it is the key of, the literal of theirs fewest docs require
	always []int   // docs whose patterns require no literal the automaton can look for

	ac    func() *ahocorasick.Automaton // built on the first Match: a reader that finds the literals itself needs none
	lits  []string
	found func(lit int) // Found, bound once

	// Per line scratch, stamped so that nothing is cleared between lines.
	stamp   uint32
	litSeen []uint32
	cands   []int
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
		sets := d.Regex.literalSets()
		owner := len(m.docs)
		for _, set := range sets {
			i := len(m.docs)
			m.docs = append(m.docs, d)
			m.owner = append(m.owner, owner)
			var need []int
			for _, t := range set {
				id, ok := litID[t]
				if !ok {
					id = len(lits)
					litID[t] = id
					lits = append(lits, t)
				}
				if !slices.Contains(need, id) {
					need = append(need, id)
				}
			}
			m.need = append(m.need, need)
			if len(need) == 0 {
				m.always = append(m.always, i)
			}
		}
	}
	// A doc is a candidate when its key literal is found, and stays one
	// when its other literals are found too. The key is the literal of
	// the doc that the fewest docs require: a literal many require (NCCL
	// INFO) is in many lines, and finding it should cost little.
	required := make([]int, len(lits))
	for _, need := range m.need {
		for _, id := range need {
			required[id]++
		}
	}
	m.users = make([][]int, len(lits))
	for d, need := range m.need {
		if len(need) == 0 {
			continue
		}
		key := need[0]
		for _, id := range need[1:] {
			if required[id] < required[key] || required[id] == required[key] && len(lits[id]) > len(lits[key]) {
				key = id
			}
		}
		m.users[key] = append(m.users[key], d)
	}
	m.ac = sync.OnceValue(func() *ahocorasick.Automaton { return ahocorasick.New(lits) })
	m.lits = lits
	m.found = m.Found
	m.litSeen = make([]uint32, len(lits))
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
	m.Begin()
	m.ac().Scan(line, m.found)
	return m.End(line, done)
}

// Clone is a matcher of the same entries that shares what NewLineMatcher
// prepared, for another reader of lines (a LineMatcher is not safe for
// concurrent use).
func (m *LineMatcher) Clone() *LineMatcher {
	c := *m
	c.stamp, c.cands = 0, nil
	c.litSeen = make([]uint32, len(m.litSeen))
	c.found = c.Found
	return &c
}

// Literals are what the matcher looks for in a line. A reader that looks
// for literals of its own in the same lines can find both in one pass: for
// each line it calls Begin, Found with the index in Literals of every
// literal the line holds, and End, which answers as Match does.
func (m *LineMatcher) Literals() []string { return m.lits }

// Begin starts a line (see Literals).
func (m *LineMatcher) Begin() {
	m.stamp++
	if m.stamp == 0 { // wrapped: start the stamps again
		clear(m.litSeen)
		m.stamp = 1
	}
	m.cands = m.cands[:0]
}

// Found says that the line holds literal lit of Literals; a literal may be
// said more than once.
func (m *LineMatcher) Found(lit int) {
	if m.litSeen[lit] == m.stamp {
		return
	}
	m.litSeen[lit] = m.stamp
	m.cands = append(m.cands, m.users[lit]...)
}

// End answers for the line, as Match does.
func (m *LineMatcher) End(line []byte, done func(doc *Doc) bool) []LineMatch {
	// The docs whose key was found and that lack another literal drop out.
	k := 0
	for _, d := range m.cands {
		all := true
		for _, id := range m.need[d] {
			all = all && m.litSeen[id] == m.stamp
		}
		if all {
			m.cands[k] = d
			k++
		}
	}
	m.cands = append(m.cands[:k], m.always...)
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
	var out []LineMatch
	if done != nil {
		// The patterns of documents not reported yet decide whether the
		// line says anything new; only then do the others run too, so that
		// the line lists every document it matches. A log repeats its
		// lines, and most of them would otherwise run every pattern again.
		fresh := false
		for _, d := range m.cands {
			if re := m.docs[d].Regex.Regexp(); re != nil && !done(&m.docs[d]) && re.Match(line) {
				fresh = true
				break
			}
		}
		if !fresh {
			return nil
		}
	}
	for _, d := range m.cands {
		re := m.docs[d].Regex.Regexp()
		if re == nil {
			continue
		}
		if loc := re.FindIndex(line); loc != nil && loc[1] > loc[0] {
			out = append(out, LineMatch{&m.docs[d], string(line[loc[0]:loc[1]])})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Text) > len(out[j].Text) })
	return out
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
