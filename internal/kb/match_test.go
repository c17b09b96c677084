package kb

import (
	"io/fs"
	"os"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// agreeMatch fails the test where matchSyntax and regexp decide expr on s
// differently; it reports whether matchSyntax decided.
func agreeMatch(t testing.TB, expr, s string) bool {
	t.Helper()
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return false
	}
	got, ok := matchSyntax(re.Simplify(), s)
	if !ok {
		return false
	}
	if want := regexp.MustCompile(expr).MatchString(s); got != want {
		t.Errorf("matchSyntax(%q, %q) = %v, regexp says %v", expr, s, got, want)
	}
	return true
}

// Every pattern of the repository's KB, on every signature and on lines
// made from them, and patterns of every construct on texts made to test
// each: the walk of the syntax tree decides as regexp does.
func TestMatchSyntaxAgreesWithRegexp(t *testing.T) {
	var patterns, texts []string
	err := fs.WalkDir(os.DirFS("../../kb"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || p == SchemaFile {
			return err
		}
		data, err := os.ReadFile("../../kb/" + p)
		if err != nil {
			return err
		}
		e := &Entry{}
		if _, err := decodeTyped(data, e); err != nil {
			return err
		}
		patterns = append(patterns, e.Regex)
		texts = append(texts, e.Signature, "[rank3]: "+e.Signature+" (x)", strings.ToUpper(e.Signature), e.Signature[:len(e.Signature)/2], "a\n"+e.Signature+"\nb")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(patterns) < 90 {
		t.Fatalf("%d patterns in the repository's KB", len(patterns))
	}
	patterns = append(patterns,
		``, `a`, `(?i)straße`, `(?i)k`, `(?i)[k-m]x`, `\bfoo\b`, `\Bo\B`, `(?m)^a$`, `(?m)^$`, `^$`, `^a|b$`, `a*?b`, `(a|ab)(c|bcd)(d*)`,
		`x{2,3}y`, `x{0}`, `(x{1,}){2}`, `[^a]+`, `.*z`, `(?s)a.b`, `a.b`, `\pL+\d`, `(a*)*b`, `(a|b|)+c`, `(?:)+x`, `[\x{FFFD}]`, "\uFFFD",
		`é+`, `[α-ω]{2}`, `(?U)a+?b`, `\Aa`, `a\z`, `(?i)ǅ`, `[[:alpha:]]+1`, `\d+\.\d+`, `(a+)+$`, `((a|b)*c)*d`, `\s*\S+\s*$`)
	texts = append(texts, "", "a", "b", "ab", "abcd", "aab", "xxxy", "xy", "ba", "foo bar", "foobar", "a\n", "\na", "a\nb", "STRASSE", "straße", "STRAẞE",
		"K", "k", "\u212a", "Kx", "a\nb", "azb", "é", "ééé", "αβ", "\xffab", "x\xff", "ǅ", "ǆ", "Ǆ", "1.25", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", "  word  ", "cd abd")
	decided := 0
	for _, p := range patterns {
		for _, s := range texts {
			if agreeMatch(t, p, s) {
				decided++
			}
		}
	}
	if total := len(patterns) * len(texts); decided < total*99/100 {
		t.Errorf("matchSyntax decided %d of %d", decided, total)
	}
}

// FuzzMatchSyntax: whatever the pattern and the text, matchSyntax decides
// as regexp does, or leaves it to regexp.
func FuzzMatchSyntax(f *testing.F) {
	for _, c := range [][2]string{{`a+b`, "aab"}, {`(?i)x\b`, "X y"}, {`(a|ab)(c|bcd)`, "abcd"}, {`^\d+$`, "12"}, {`[^\n]*$`, "a\nb"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, expr, s string) {
		agreeMatch(t, expr, s)
	})
}

// The loader refuses the patterns compilePortable refuses, with its
// message, and decides a match of those it takes as regexp does.
func TestMatchesPortableRefusesAsCompile(t *testing.T) {
	for _, expr := range []string{`(`, `a)`, `[z-a]`, `x**`, `\8`, `a{1001}`, `a{2,1}`, `(?P<n>x)`, `(?i)x`, `\pL`, `[[:alpha:]]`, `x\z`,
		`((((((((((((((((((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))))))))))))))))))`,
		strings.Repeat("(", 1001) + strings.Repeat(")", 1001), `((a{100}){100}){100}`, `(a{1000}){1000}`, "\xff", `[\d-z]`, `x{0,1000}`,
		`GPU:\d+ \(x\)`, `a|b`, ``, `(?:a|b)+ c\b`} {
		for _, s := range []string{"", "GPU:1 (x)", "b c", "aaaa"} {
			matched, _, err := matchesPortable(expr, s)
			re, cerr := compilePortable(expr)
			if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
				t.Errorf("%q: matchesPortable says %v, compilePortable %v", expr, err, cerr)
				continue
			}
			if err == nil && matched != re.MatchString(s) {
				t.Errorf("%q on %q: %v, regexp says %v", expr, s, matched, !matched)
			}
		}
	}
}
