package kb

import (
	"regexp/syntax"
	"unicode"
)

// Patterns are RE2 in Go, linear in the text, but the site's search runs
// them with JavaScript's backtracking engine. There a repetition inside a
// repetition that can repeat on its own, (a+)+ or (\w+\s?)*, takes time
// exponential in a line that almost matches, and two repetitions of the
// same characters side by side, \d+\d+ or .*.*, multiply the work of each.
// backtracks finds the first such part of a simplified pattern and says
// what it is, or returns "".
func backtracks(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus:
		body := re.Sub[0]
		if hasRepeat(body) && canBeEmpty(withoutRepeats(body)) {
			return "nested repetition " + re.String() + ": its body repeats by an inner repetition alone"
		}
	case syntax.OpConcat:
		for i, a := range re.Sub {
			if !isRepeat(a) {
				continue
			}
			for _, b := range re.Sub[i+1:] {
				if isRepeat(b) && overlap(chars(a), chars(b)) {
					return "adjacent repetitions " + a.String() + " and " + b.String() + " of the same characters"
				}
				if !canBeEmpty(b) {
					break
				}
			}
		}
	}
	for _, sub := range re.Sub {
		if why := backtracks(sub); why != "" {
			return why
		}
	}
	return ""
}

// isRepeat: an unbounded repetition that consumes characters, in a group or not.
func isRepeat(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	return (re.Op == syntax.OpStar || re.Op == syntax.OpPlus) && len(chars(re.Sub[0])) > 0
}

// hasRepeat tells whether re holds an unbounded repetition that consumes characters.
func hasRepeat(re *syntax.Regexp) bool {
	if isRepeat(re) {
		return true
	}
	for _, sub := range re.Sub {
		if hasRepeat(sub) {
			return true
		}
	}
	return false
}

// withoutRepeats is re with every unbounded repetition made empty.
func withoutRepeats(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpStar || re.Op == syntax.OpPlus {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	if len(re.Sub) == 0 {
		return re
	}
	c := *re
	c.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		c.Sub[i] = withoutRepeats(sub)
	}
	return &c
}

// canBeEmpty tells whether re matches the empty string (anchors aside).
func canBeEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpPlus, syntax.OpCapture:
		return canBeEmpty(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || canBeEmpty(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !canBeEmpty(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if canBeEmpty(sub) {
				return true
			}
		}
		return false
	}
	return true // empty match, star, quest, anchors and word boundaries
}

// chars is the set of characters re's matches are made of, as ranges
// (pairs lo, hi); case folding adds the other cases.
func chars(re *syntax.Regexp) []rune {
	var out []rune
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			out = append(out, r, r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					out = append(out, f, f)
				}
			}
		}
	case syntax.OpCharClass:
		out = append(out, re.Rune...)
	case syntax.OpAnyChar:
		out = append(out, 0, unicode.MaxRune)
	case syntax.OpAnyCharNotNL:
		out = append(out, 0, '\n'-1, '\n'+1, unicode.MaxRune)
	default:
		for _, sub := range re.Sub {
			out = append(out, chars(sub)...)
		}
	}
	return out
}

func overlap(a, b []rune) bool {
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}
