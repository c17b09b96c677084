package kb

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// compilePortable compiles an entry's regex for Go and refuses RE2 syntax that
// JavaScript reads differently or not at all, since the same pattern runs in
// the browser's search. What is left (literals, classes, groups, alternation,
// repetition, \d \w \s \b and their negations, anchors) means the same in both.
func compilePortable(expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	if err := checkPortable(expr); err != nil {
		return nil, err
	}
	return re, nil
}

func checkPortable(expr string) error {
	if bad := nonPortable(expr); bad != "" {
		return fmt.Errorf("%s is RE2 syntax that JavaScript does not share; rewrite it with plain groups, classes and escapes", bad)
	}
	return nil
}

// matchesPortable tells whether the pattern expr matches s, with the error
// compilePortable would give, and returns the pattern parsed with
// syntax.Perl and simplified. It runs the syntax tree (matchSyntax),
// compiling the pattern only when that cannot decide: regexp refuses what
// syntax.Parse with syntax.Perl refuses.
func matchesPortable(expr, s string) (bool, *syntax.Regexp, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return false, nil, err
	}
	if err := checkPortable(expr); err != nil {
		return false, nil, err
	}
	re = re.Simplify()
	if matched, ok := matchSyntax(re, s); ok {
		return matched, re, nil
	}
	return regexp.MustCompile(expr).MatchString(s), re, nil
}

// nonPortable returns the first construct in expr that JavaScript would read
// differently, or "".
func nonPortable(expr string) string {
	inClass := false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '\\' && i+1 < len(expr):
			n := expr[i+1]
			switch n {
			case 'A', 'z', 'Q', 'E', 'C', 'p', 'P':
				return `\` + string(n)
			case 'x':
				if i+2 < len(expr) && expr[i+2] == '{' {
					return `\x{...}`
				}
			}
			i++
		case c == '[' && !inClass:
			inClass = true
			if strings.HasPrefix(expr[i:], "[[:") || strings.HasPrefix(expr[i:], "[^[:") {
				return "[[:class:]]"
			}
			// A ']' right after '[' or '[^' is a literal in RE2, the end of an empty class in JavaScript.
			rest := strings.TrimPrefix(expr[i+1:], "^")
			if strings.HasPrefix(rest, "]") {
				return "[]...]"
			}
		case c == '[' && inClass:
			if strings.HasPrefix(expr[i:], "[:") {
				return "[[:class:]]"
			}
		case c == ']' && inClass:
			inClass = false
		case c == '(' && !inClass && i+1 < len(expr) && expr[i+1] == '?':
			rest := expr[i+2:]
			if strings.HasPrefix(rest, ":") {
				continue
			}
			if strings.HasPrefix(rest, "<") && !strings.HasPrefix(rest, "<=") && !strings.HasPrefix(rest, "<!") {
				continue // (?<name>...) is shared
			}
			end := strings.IndexAny(rest, ":)")
			if end < 0 {
				end = len(rest)
			}
			return "(?" + rest[:end] + ")"
		}
	}
	return ""
}

// CompilePattern compiles an entry's regex as the loader does: RE2 that
// JavaScript reads the same way, or an error saying what to rewrite.
func CompilePattern(expr string) (*regexp.Regexp, error) { return compilePortable(expr) }
