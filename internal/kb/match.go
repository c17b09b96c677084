package kb

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The loader checks that each entry's pattern matches its own signature.
// Compiling the pattern to run it once was a quarter of loading a large KB
// and most of what loading allocated, so the check runs the parsed pattern
// itself: a backtracking walk of the syntax tree that decides what
// regexp's MatchString decides (a test and a fuzz target hold it to
// regexp), within a budget of steps. Past the budget, or on a construct it
// does not know, the pattern is compiled and run as before.

// matchBudget bounds the steps of one match: a signature and its pattern
// take a few hundred.
const matchBudget = 1 << 15

// matchSyntax reports whether re, parsed with syntax.Perl and simplified,
// matches somewhere in s, as regexp's MatchString does; ok is false when
// it could not decide within its budget.
func matchSyntax(re *syntax.Regexp, s string) (matched, ok bool) {
	m := &syntaxMatcher{s: s, budget: matchBudget}
	done := func(int) bool { return true }
	// A pattern that starts with a literal can start only where it is
	// (unless the literal holds U+FFFD, which an invalid byte matches).
	prefix := ""
	if first := firstOf(re); first.Op == syntax.OpLiteral && first.Flags&syntax.FoldCase == 0 {
		prefix = string(first.Rune)
		if strings.ContainsRune(prefix, utf8.RuneError) {
			prefix = ""
		}
	}
	for i := 0; i <= len(s); {
		if prefix != "" {
			at := strings.Index(s[i:], prefix)
			if at < 0 {
				break
			}
			i += at
		}
		if m.at(re, i, done) {
			return true, true
		}
		if m.budget < 0 || i == len(s) {
			break
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return false, m.budget >= 0
}

// firstOf is the first of a concatenation, or re.
func firstOf(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpConcat && len(re.Sub) > 0 {
		return re.Sub[0]
	}
	return re
}

type syntaxMatcher struct {
	s      string
	budget int // steps left; below zero: undecided
}

// at calls k with the positions where re, matched from i, can end, until
// k returns true.
func (m *syntaxMatcher) at(re *syntax.Regexp, i int, k func(int) bool) bool {
	if m.budget--; m.budget < 0 {
		return false
	}
	switch re.Op {
	case syntax.OpCapture:
		return m.at(re.Sub[0], i, k)
	case syntax.OpConcat:
		return m.concat(re.Sub, i, k)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if m.at(sub, i, k) {
				return true
			}
		}
		return false
	case syntax.OpQuest:
		return m.at(re.Sub[0], i, k) || m.budget >= 0 && k(i)
	case syntax.OpStar:
		return m.star(re.Sub[0], i, k)
	case syntax.OpPlus:
		sub := re.Sub[0]
		return m.at(sub, i, func(j int) bool { return m.star(sub, j, k) })
	}
	j, ok := m.one(re, i)
	return ok && k(j)
}

// concat matches subs one after another; the leading ones that match one
// way only are matched in a loop.
func (m *syntaxMatcher) concat(subs []*syntax.Regexp, i int, k func(int) bool) bool {
	for len(subs) > 0 && single(subs[0].Op) {
		if m.budget--; m.budget < 0 {
			return false
		}
		j, ok := m.one(subs[0], i)
		if !ok {
			return false
		}
		i, subs = j, subs[1:]
	}
	switch len(subs) {
	case 0:
		return k(i)
	case 1:
		return m.at(subs[0], i, k)
	}
	rest := subs[1:]
	return m.at(subs[0], i, func(j int) bool { return m.concat(rest, j, k) })
}

// star matches sub as many times as it can and fewer: an iteration that
// matches nothing is the same as stopping.
func (m *syntaxMatcher) star(sub *syntax.Regexp, i int, k func(int) bool) bool {
	if m.at(sub, i, func(j int) bool { return j > i && m.star(sub, j, k) }) {
		return true
	}
	return m.budget >= 0 && k(i)
}

// single tells whether one matches op: it has no subexpressions and
// matches one way or none.
func single(op syntax.Op) bool {
	switch op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpLiteral, syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar,
		syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}

// one matches re, a single op, at i, and returns where it ends. regexp
// reads an invalid byte of s as utf8.RuneError, one byte wide.
func (m *syntaxMatcher) one(re *syntax.Regexp, i int) (int, bool) {
	s := m.s
	switch re.Op {
	case syntax.OpEmptyMatch:
		return i, true
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		for _, r := range re.Rune {
			c, w := runeAt(s, i)
			if w == 0 || c != r && !(fold && foldsTo(r, c)) {
				return 0, false
			}
			i += w
		}
		return i, true
	case syntax.OpCharClass:
		c, w := runeAt(s, i)
		if w == 0 {
			return 0, false
		}
		for k := 0; k+1 < len(re.Rune); k += 2 {
			if re.Rune[k] <= c && c <= re.Rune[k+1] {
				return i + w, true
			}
		}
		return 0, false
	case syntax.OpAnyCharNotNL:
		c, w := runeAt(s, i)
		return i + w, w > 0 && c != '\n'
	case syntax.OpAnyChar:
		_, w := runeAt(s, i)
		return i + w, w > 0
	case syntax.OpBeginLine:
		return i, i == 0 || s[i-1] == '\n'
	case syntax.OpEndLine:
		return i, i == len(s) || s[i] == '\n'
	case syntax.OpBeginText:
		return i, i == 0
	case syntax.OpEndText:
		return i, i == len(s)
	case syntax.OpWordBoundary:
		return i, wordByte(s, i-1) != wordByte(s, i)
	case syntax.OpNoWordBoundary:
		return i, wordByte(s, i-1) == wordByte(s, i)
	case syntax.OpNoMatch:
		return 0, false
	}
	m.budget = -1 // a construct this matcher does not know (OpRepeat, which simplifying removes)
	return 0, false
}

func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// foldsTo tells whether c is r in another case, as regexp folds a literal.
func foldsTo(r, c rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == c {
			return true
		}
	}
	return false
}

// wordByte tells whether s[i] is an ASCII word character (\b's notion);
// the byte of a multi-byte character never is.
func wordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
