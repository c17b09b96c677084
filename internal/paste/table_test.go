package paste

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
)

// Every pattern of the readers is written in the syntax RE2 and JavaScript
// share, and none can make a backtracking engine (the browser's) take time
// growing faster than the line: no unbounded repetition inside another,
// and no two side by side that can take the same characters.
func TestPatternsPortable(t *testing.T) {
	if len(patterns) < 45 {
		t.Fatalf("only %d patterns recorded", len(patterns))
	}
	for name, src := range patterns {
		js, _ := jsPattern(src)
		for _, bad := range []string{"(?i)", "(?s)", "(?m)", "(?P<", "(?<", `\z`, `\A`, `\Q`, `[[:`, `\p{`, `\P{`, `\C`} {
			if strings.Contains(js, bad) {
				t.Errorf("%s: %q is not read alike by RE2 and JavaScript", name, bad)
			}
		}
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if why := backtracks(re); why != "" {
			t.Errorf("%s: %s in %s", name, why, src)
		}
	}
}

// The check itself finds what it is meant to find.
func TestBacktracksFinds(t *testing.T) {
	for src, want := range map[string]bool{
		`(a+)+$`: true, `(?:\s+\d+)+$`: true, `\w+\d+x`: true, `.*.*=`: true, `a*(?:b)?a*`: false,
		`\s*:\s*`: false, `\S+\s+\d`: false, `^(\d{1,3})(?:\s{1,8}\d{1,6}){1,64}$`: false, `x.*?y`: false,
	} {
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := backtracks(re) != ""; got != want {
			t.Errorf("backtracks(%s) = %v, want %v", src, got, want)
		}
	}
}

// backtracks says why re may take a backtracking engine long, or "".
func backtracks(re *syntax.Regexp) string {
	if unbounded(re) {
		for _, s := range re.Sub {
			if hasUnbounded(s) {
				return "an unbounded repetition inside another"
			}
		}
	}
	if re.Op == syntax.OpConcat {
		for i := 1; i < len(re.Sub); i++ {
			a, b := re.Sub[i-1], re.Sub[i]
			if unbounded(a) && unbounded(b) && overlap(chars(a.Sub[0]), chars(b.Sub[0])) {
				return "two unbounded repetitions side by side that take the same characters"
			}
		}
	}
	for _, s := range re.Sub {
		if why := backtracks(s); why != "" {
			return why
		}
	}
	return ""
}

func unbounded(re *syntax.Regexp) bool {
	return re.Op == syntax.OpStar || re.Op == syntax.OpPlus || re.Op == syntax.OpRepeat && re.Max == -1
}

func hasUnbounded(re *syntax.Regexp) bool {
	if unbounded(re) {
		return true
	}
	for _, s := range re.Sub {
		if hasUnbounded(s) {
			return true
		}
	}
	return false
}

// chars is the set of runes one repetition of re may start with, as
// ranges; nil stands for any.
func chars(re *syntax.Regexp) []rune {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) > 0 {
			r := re.Rune[0]
			if re.Flags&syntax.FoldCase != 0 {
				return []rune{unicode.ToLower(r), unicode.ToLower(r), unicode.ToUpper(r), unicode.ToUpper(r)}
			}
			return []rune{r, r}
		}
	case syntax.OpCharClass:
		return re.Rune
	case syntax.OpConcat, syntax.OpCapture:
		if len(re.Sub) > 0 {
			return chars(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []rune
		for _, s := range re.Sub {
			c := chars(s)
			if c == nil {
				return nil
			}
			out = append(out, c...)
		}
		return out
	}
	return nil
}

func overlap(a, b []rune) bool {
	if a == nil || b == nil {
		return true
	}
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}

// Every reader's pattern compiles: they are compiled on their first use, so
// a pattern no test's input reaches would otherwise fail only in a user's run.
func TestPatternsCompile(t *testing.T) {
	for name, src := range patterns {
		if _, err := regexp.Compile(src); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
