package diagnose

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terminal is what standard output allows when it is a terminal: links as
// OSC 8 hyperlinks, colour (unless NO_COLOR is set), and text wrapped to
// its width. Options.Term is nil for a pipe or a file, which get plain text.
type Terminal struct {
	Color bool
	Width int // columns; 0 leaves lines as they are
}

// SGR codes of the few styles the output uses.
const (
	bold   = "1"
	dim    = "2"
	red    = "31"
	green  = "32"
	yellow = "33"
)

// paint wraps s in an SGR style on a colour terminal.
func (o Options) paint(style, s string) string {
	if o.Term == nil || !o.Term.Color || s == "" {
		return s
	}
	return esc + "[" + style + "m" + s + esc + "[0m"
}

// esc stands for ESC in the sequences the output makes itself (paint,
// href): text output goes through escaping, which turns esc into ESC and
// shows every control character of the text as \x1b, so that a log line, a
// probe string or a KB field printed cannot clear the screen, set the
// window's title, write the clipboard (OSC 52) or make a link. It is a NUL
// and random letters, drawn once a process: no input can hold it.
var esc = func() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "\x00" + hex.EncodeToString(b)
}()

// escaping returns w with the control characters of what is written
// shown escaped, but for tab and newline and the sequences made with esc.
// A Write is escaped by itself: callers write whole strings.
func escaping(w io.Writer) io.Writer { return escaper{w} }

type escaper struct{ w io.Writer }

func (e escaper) Write(p []byte) (int, error) {
	var b []byte
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == 0 && bytes.HasPrefix(p[i:], []byte(esc)):
			b = append(b, 0x1b)
			i += len(esc)
			continue
		case c < 0x20 && c != '\n' && c != '\t' || c == 0x7f:
			b = fmt.Appendf(b, `\x%02x`, c)
			i++
			continue
		case c < 0x80:
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = fmt.Appendf(b, `\x%02x`, c) // a lone byte a terminal may read as a C1 control
		case r >= 0x80 && r <= 0x9f:
			b = fmt.Appendf(b, `\u%04x`, r) // C1 controls: U+009B is CSI
		default:
			b = append(b, p[i:i+size]...)
		}
		i += size
	}
	if _, err := e.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// href makes an absolute URL a terminal hyperlink (OSC 8) showing the URL
// itself, so that it can still be copied; a site-root path (no --base-url)
// stays text, since a terminal cannot open it.
func (o Options) href(u string) string {
	if strings.HasPrefix(u, "/") {
		// No --base-url: the page as p2pkb serve shows it on its default
		// address, rather than a path no terminal can open.
		u = ServeURL + u[1:]
	}
	if o.Term == nil || !(strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "file://")) {
		return u
	}
	return esc + "]8;;" + u + esc + "\\" + o.paint(dim, u) + esc + "]8;;" + esc + "\\"
}

// ServeURL is where `p2pkb serve` listens by default: terminal output links
// there when no site address is given (--base-url, $P2PKB_BASE_URL).
const ServeURL = "http://127.0.0.1:8080/"

// verdict is a verdict word, coloured by what it means.
func (o Options) verdict(v string) string {
	style := map[string]string{"applies": green, "does_not_apply": dim, "unknown": yellow}[v]
	return o.paint(style, verdictWord(o.Lang, v))
}

// wrap breaks s at spaces into lines that fit the terminal, the first
// after used columns, the others after indent columns of spaces; Han text
// breaks between any two characters. Without a terminal width s is
// returned as is.
func (o Options) wrap(s string, used, indent int) string {
	if o.Term == nil || o.Term.Width <= 0 {
		return s
	}
	width := max(20, o.Term.Width-indent)
	var b strings.Builder
	rs := []rune(s)
	col, lineStart, brk := used-indent, 0, -1 // brk: where the line may break last, before rs[brk]
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		w := 1
		if isWide(r) {
			w = 2
		}
		if r == ' ' || w == 2 || i > 0 && isWide(rs[i-1]) {
			brk = i
		}
		if col+w <= width || i == lineStart {
			col += w
			continue
		}
		cut := i // a word longer than the line breaks where it must
		if brk > lineStart {
			cut = brk
		}
		b.WriteString(strings.TrimRight(string(rs[lineStart:cut]), " "))
		b.WriteString("\n" + strings.Repeat(" ", indent))
		for cut < len(rs) && rs[cut] == ' ' {
			cut++
		}
		lineStart, brk, col = cut, -1, 0
		i = cut - 1
	}
	b.WriteString(string(rs[lineStart:]))
	return b.String()
}

// after is prefix followed by s wrapped to the terminal, its later lines
// indented by indent columns.
func (o Options) after(prefix, s string, indent int) string {
	return prefix + o.wrap(s, columns(prefix), indent)
}

// columns is how wide s shows, escape sequences aside.
func columns(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r == 0 || r == '\x1b':
			return n // prefixes are painted after they are measured
		case isWide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

// isWide tells whether a rune takes two columns: Han, CJK punctuation and
// full-width forms, the characters the Chinese text uses.
func isWide(r rune) bool {
	return unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFF60
}

// around cuts s to n characters that show match, for a terminal's line:
// from the start when the match ends within them, else from a little
// before the match; a cut side ends in "…".
func around(s, match string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	start := 0
	if i := strings.Index(s, match); i >= 0 && match != "" {
		first := utf8.RuneCountInString(s[:i])
		if last := first + utf8.RuneCountInString(match); last > n {
			start = max(0, min(first-n/4, len(rs)-n))
		}
	}
	out := string(rs[start : start+n])
	if start > 0 {
		out = "…" + out
	}
	if start+n < len(rs) {
		out += "…"
	}
	return out
}
