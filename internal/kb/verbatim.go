package kb

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A signature is copied from what the software prints. These functions
// compare it with the text it was copied from: a reproduction's output or a
// report's excerpt (VerbatimIn), or the statement in the source that prints
// it (InstanceOf). Either way a problem names the first character of the
// signature that differs, so that the person fixing it knows where to look.

// Variable parts of a printed line: where two runs of the same program
// differ, a copy may differ too.
const (
	varNumber = '\x01' // 42, 3.5, 0x7f3a00, a hex word with a digit (c1000)
	varPath   = '\x02' // /home/me/x.cu, ../torch/csrc/x.cpp
	varHost   = '\x03' // the host name before NCCL's host:pid:tid prefix
)

// normalized is a text with its variable parts replaced, one sentinel rune
// each, and the byte offset in the original of each byte of the result.
type normalized struct {
	s   string
	off []int
}

// hostName is the length of the host name that starts s when s starts
// as NCCL's host:pid:tid prefix does, else 0. Written out: a regexp tried
// at every word of a long output was most of the time of checking it.
func hostName(s string) int {
	i := 0
	for i < len(s) && (isWordByte(s[i]) || s[i] == '.' || s[i] == '-') {
		i++
	}
	if i == 0 || s[0] == '_' || s[0] == '.' || s[0] == '-' {
		return 0
	}
	j := i
	for range 2 {
		if j >= len(s) || s[j] != ':' {
			return 0
		}
		j++
		k := j
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == k {
			return 0
		}
	}
	return i
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isPathByte is a byte a path printed in a log goes on with.
func isPathByte(c byte) bool {
	return c > ' ' && !strings.ContainsRune(`'"()[]<>,;:`+"`", rune(c))
}

// normalize replaces numbers, addresses, paths and host names in s.
func normalize(s string) normalized {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	// The result is no longer than s: sized once, the two grew by doubling
	// for every excerpt of a large KB's load.
	var b strings.Builder
	b.Grow(len(s))
	n := normalized{off: make([]int, 0, len(s))}
	emit := func(c byte, at int) {
		b.WriteByte(c)
		n.off = append(n.off, at)
	}
	for i := 0; i < len(s); {
		wordStart := i == 0 || !isWordByte(s[i-1])
		pathStart := i == 0 || !isWordByte(s[i-1]) && s[i-1] != '/' && s[i-1] != '.'
		if wordStart {
			if n := hostName(s[i:]); n > 0 {
				emit(varHost, i)
				i += n
				continue
			}
		}
		if pathStart {
			rest := s[i:]
			for _, p := range []string{"/", "./", "../", "~/"} {
				if strings.HasPrefix(rest, p) && len(rest) > len(p) && isPathByte(rest[len(p)]) && rest[len(p)] != '/' {
					j := i + len(p)
					for j < len(s) && isPathByte(s[j]) {
						j++
					}
					emit(varPath, i)
					i = j
					goto next
				}
			}
		}
		if strings.HasPrefix(s[i:], "0x") && i+2 < len(s) && isHexByte(s[i+2]) && wordStart {
			j := i + 2
			for j < len(s) && isHexByte(s[j]) {
				j++
			}
			emit(varNumber, i)
			i = j
			continue
		}
		if wordStart && isHexByte(s[i]) {
			// A hex word with a digit in it: an address or a bus id printed without 0x.
			j, digit := i, false
			for j < len(s) && isHexByte(s[j]) {
				digit = digit || s[j] <= '9'
				j++
			}
			if digit && (j == len(s) || !isWordByte(s[j])) {
				emit(varNumber, i)
				i = j
				continue
			}
		}
		if '0' <= s[i] && s[i] <= '9' {
			j := i
			for j < len(s) && ('0' <= s[j] && s[j] <= '9' || s[j] == '.' && j+1 < len(s) && '0' <= s[j+1] && s[j+1] <= '9') {
				j++
			}
			emit(varNumber, i)
			i = j
			continue
		}
		emit(s[i], i)
		i++
	next:
	}
	n.s = b.String()
	return n
}

// charAt is the 1-based character number of byte offset off in s.
func charAt(s string, off int) int { return utf8.RuneCountInString(s[:off]) + 1 }

// excerptAround is up to 40 bytes of s from off, cut at a rune boundary.
func excerptAround(s string, off int) string {
	if off >= len(s) {
		return ""
	}
	end := min(len(s), off+40)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return s[off:end]
}

// VerbatimIn checks that sig appears in text, letting only numbers,
// addresses, paths and host names differ. It returns "" when it does, else
// where the signature first differs from the closest text.
func VerbatimIn(sig, text string) string {
	return verbatimIn(sig, text, normalize(text))
}

// verbatimIn is VerbatimIn with text already normalized as nt.
func verbatimIn(sig, text string, nt normalized) string {
	sig = strings.TrimSpace(sig)
	ns := normalize(sig)
	if strings.Contains(nt.s, ns.s) {
		return ""
	}
	// The longest start of the signature found in the text: the character
	// after it is the first that differs.
	lo, hi := 0, len(ns.s) // the start of length lo is found, of hi not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if strings.Contains(nt.s, ns.s[:mid]) {
			lo = mid
		} else {
			hi = mid
		}
	}
	at := ns.off[lo]
	if lo == 0 {
		return fmt.Sprintf("character %d (%q) begins no text there", charAt(sig, at), excerptAround(sig, at))
	}
	found := strings.Index(nt.s, ns.s[:lo]) + lo
	there := "the end of the text"
	if found < len(nt.off) {
		there = fmt.Sprintf("%q", excerptAround(text, nt.off[found]))
	}
	return fmt.Sprintf("first differs at character %d: the signature has %q where the text has %s", charAt(sig, at), excerptAround(sig, at), there)
}

// formatUnit is one character of a format string, or a placeholder.
type formatUnit struct {
	lit      string // a literal character; "" for a placeholder
	wildcard bool
}

var (
	printfVerb  = regexp.MustCompile(`^%(?:\([A-Za-z_]+\))?[-+ #0']*(?:[0-9]+|\*)?(?:\.(?:[0-9]+|\*))?(?:hh|h|ll|l|z|j|t|L|q)?[diouxXeEfFgGcspnar]`)
	bracePlace  = regexp.MustCompile(`^\{[^{}]*\}`)
	priMacro    = regexp.MustCompile(`^PRI[diouxX](?:8|16|32|64|PTR|MAX)$`)
	stringStart = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([fFrRbBuU]{0,2})("""|'''|"|')`)
)

// literal is a string literal of a source line, decoded.
type literal struct {
	text       string
	start, end int // its span in the line, quotes and prefix included
}

// literals finds the string literals of a C, C++ or Python line.
func literals(line string) []literal {
	var out []literal
	for i := 0; i < len(line); {
		m := stringStart.FindStringSubmatchIndex(line[i:])
		if m == nil {
			break
		}
		prefix := line[i+m[2] : i+m[3]]
		quote := line[i+m[4] : i+m[5]]
		start := i + m[2]
		j := i + m[5]
		raw := strings.ContainsAny(prefix, "rR")
		var b strings.Builder
		closed := false
		for j < len(line) {
			if strings.HasPrefix(line[j:], quote) {
				j += len(quote)
				closed = true
				break
			}
			c := line[j]
			if c == '\\' && j+1 < len(line) {
				if raw {
					b.WriteString(line[j : j+2])
				} else {
					switch e := line[j+1]; e {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case '\n': // a continued line
					default:
						b.WriteByte(e)
					}
				}
				j += 2
				continue
			}
			if c == '\n' && len(quote) == 1 {
				break
			}
			b.WriteByte(c)
			j++
		}
		if !closed {
			break
		}
		out = append(out, literal{b.String(), start, j})
		i = j
	}
	return out
}

// formatOf is the format a printing statement prints: its first run of
// string literals, joined where only space, a stream's << or a + stands
// between them (there with a placeholder for what is inserted). A line
// with no literal, such as a help file's text, is the format itself.
func formatOf(line string) []formatUnit {
	lits := literals(line)
	if len(lits) == 0 {
		return trimUnits(parseFormat(strings.TrimSpace(line)))
	}
	units := parseFormat(lits[0].text)
	for k := 1; k <= len(lits); k++ {
		var between string
		if k < len(lits) {
			between = strings.TrimSpace(line[lits[k-1].end:lits[k].start])
		} else {
			between = strings.TrimSpace(line[lits[k-1].end:])
		}
		inserted := strings.HasPrefix(between, "<<") || strings.HasPrefix(between, "+") && !strings.HasPrefix(between, "+=")
		switch {
		case inserted && (k == len(lits) || strings.TrimSpace(strings.Trim(between, "<+ ")) != ""):
			units = append(units, formatUnit{wildcard: true})
		case inserted, between == "", between == "\\":
		case priMacro.MatchString(between) && len(units) > 0 && units[len(units)-1].lit == "%":
			units[len(units)-1] = formatUnit{wildcard: true}
		default:
			return trimUnits(units)
		}
		if k < len(lits) {
			units = append(units, parseFormat(lits[k].text)...)
		}
	}
	return trimUnits(units)
}

// parseFormat splits a format string into literal characters and
// placeholders (printf's %d, Python's %(name)s, {name} and {}).
func parseFormat(f string) []formatUnit {
	var out []formatUnit
	for i := 0; i < len(f); {
		switch {
		case strings.HasPrefix(f[i:], "%%"), strings.HasPrefix(f[i:], "{{"), strings.HasPrefix(f[i:], "}}"):
			out = append(out, formatUnit{lit: f[i : i+1]})
			i += 2
			continue
		case f[i] == '%':
			if m := printfVerb.FindString(f[i:]); m != "" {
				out = append(out, formatUnit{wildcard: true})
				i += len(m)
				continue
			}
		case f[i] == '{':
			if m := bracePlace.FindString(f[i:]); m != "" {
				out = append(out, formatUnit{wildcard: true})
				i += len(m)
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(f[i:])
		out = append(out, formatUnit{lit: f[i : i+size]})
		i += size
	}
	return out
}

// trimUnits drops a format's closing newline and spaces: not part of the message.
func trimUnits(units []formatUnit) []formatUnit {
	for len(units) > 0 && !units[len(units)-1].wildcard && strings.TrimSpace(units[len(units)-1].lit) == "" {
		units = units[:len(units)-1]
	}
	return units
}

// formatRegexp matches the first n units; anchored, the message ends the text.
func formatRegexp(units []formatUnit, anchored bool) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)")
	for _, u := range units {
		if u.wildcard {
			b.WriteString(".*?")
		} else {
			b.WriteString(regexp.QuoteMeta(u.lit))
		}
	}
	if anchored {
		b.WriteString(`\s*$`)
	}
	return regexp.MustCompile(b.String())
}

// InstanceOf checks that sig is what the statement line prints: its format
// with each placeholder filled, after any prefix a logger adds, whole or
// up to the end of one of its lines. It returns "" when it is, else where
// the signature first differs.
func InstanceOf(sig, line string) string {
	// Text decoded from JSON is valid UTF-8; other text is made so, the
	// same way on both sides, since a pattern cannot hold invalid bytes.
	sig = strings.TrimSpace(strings.ToValidUTF8(sig, "\uFFFD"))
	line = strings.ToValidUTF8(line, "\uFFFD")
	units := formatOf(line)
	for len(units) > 0 && !units[0].wildcard && strings.TrimSpace(units[0].lit) == "" {
		units = units[1:] // indentation is no part of the message
	}
	if len(units) == 0 {
		return "the line holds no message to compare"
	}
	// A signature is the message, or its first lines when it has several.
	for i, u := range units {
		if (u.lit == "\n" || i == len(units)-1) && formatRegexp(trimUnits(units[:i+1]), true).MatchString(sig) {
			return ""
		}
	}
	lo, hi := 0, len(units)+1 // the first lo units match, the first hi do not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if formatRegexp(units[:mid], false).MatchString(sig) {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return fmt.Sprintf("the signature has nothing of the source's message, which begins %q", formatText(units))
	}
	if lo < len(units) && units[lo-1].wildcard && lo > 1 {
		lo-- // a placeholder matches what follows: say it is where the message goes on
	}
	end := formatRegexp(units[:lo], false).FindStringIndex(sig)[1]
	if lo == len(units) {
		return fmt.Sprintf("first differs at character %d: the signature goes on with %q after the source's message ends", charAt(sig, end), excerptAround(sig, end))
	}
	has := fmt.Sprintf("%q", excerptAround(sig, end))
	if end == len(sig) {
		has = "nothing more"
	}
	return fmt.Sprintf("first differs at character %d: the signature has %s where the source's message goes on %q", charAt(sig, end), has, formatText(units[lo:]))
}

// formatText writes up to 40 characters of units back as text, a
// placeholder as %v.
func formatText(units []formatUnit) string {
	var b strings.Builder
	for i, u := range units {
		if i == 40 {
			break
		}
		if u.wildcard {
			b.WriteString("%v")
		} else {
			b.WriteString(u.lit)
		}
	}
	return b.String()
}

// HarnessText is the first text of sig that the reproducer program prints
// itself (a label or an arrow of its own format), or "": the signature is
// what the software under test prints, not the harness around it.
func HarnessText(sig, program string) string { return harnessIn(sig, harnessParts(program)) }

// harnessParts are the texts a program prints of its own: the pieces of
// its string literals between placeholders that look like a label or an
// arrow rather than a word the software prints too.
func harnessParts(program string) []string {
	var out []string
	for _, line := range strings.Split(program, "\n") {
		for _, lit := range literals(line) {
			for _, piece := range strings.FieldsFunc(lit.text, func(r rune) bool { return r == '\n' }) {
				for _, part := range placeholderSplit(piece) {
					if part = strings.TrimSpace(part); len(part) >= 6 && strings.ContainsAny(part, " ()->") {
						out = append(out, part)
					}
				}
			}
		}
	}
	return out
}

// harnessIn is the first of parts in sig, the longest where two start together.
func harnessIn(sig string, parts []string) string {
	best, at := "", -1
	for _, part := range parts {
		if i := strings.Index(sig, part); i >= 0 && (at < 0 || i < at || i == at && len(part) > len(best)) {
			best, at = part, i
		}
	}
	return best
}

// placeholderSplit cuts a format string at its placeholders.
func placeholderSplit(f string) []string {
	var out []string
	var b strings.Builder
	for _, u := range parseFormat(f) {
		if u.wildcard {
			out = append(out, b.String())
			b.Reset()
			continue
		}
		b.WriteString(u.lit)
	}
	return append(out, b.String())
}
