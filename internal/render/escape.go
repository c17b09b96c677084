package render

import (
	"encoding/json"
	"strconv"
)

// The escapers below are what the compiled pages (compiled.go) write values
// with. Each gives exactly the bytes html/template's escaper for the same
// context gives, so that a compiled page equals the template's page byte for
// byte (compiled_test.go checks both ways on every page).

// appendHTML escapes s for HTML text, RCDATA (<title>) and quoted attribute
// values, as html/template does there: the five special characters, '+'
// (against UTF-7 sniffing) and NUL, which becomes U+FFFD. Every other byte,
// invalid UTF-8 included, is kept.
func appendHTML(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case 0:
			rep = "\uFFFD"
		case '"':
			rep = "&#34;"
		case '&':
			rep = "&amp;"
		case '\'':
			rep = "&#39;"
		case '+':
			rep = "&#43;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, rep...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// appendURL writes s as a whole URL attribute value (href="..."), as
// html/template does: a URL whose scheme is not http, https or mailto
// becomes "#ZgotmplZ"; bytes a URL may not hold are percent-encoded (valid
// %XX escapes are kept); then the result is escaped for the attribute.
func appendURL(b []byte, s string) []byte {
	if !safeURL(s) {
		return append(b, unsafeURL...)
	}
	return appendURLPath(b, s)
}

// appendRefreshURL writes s after "url=" in a meta element's content, as
// html/template does: a URL whose scheme is not http, https or mailto
// becomes "#ZgotmplZ"; the rest is escaped for the attribute, not
// normalized.
func appendRefreshURL(b []byte, s string) []byte {
	if !safeURL(s) {
		return append(b, unsafeURL...)
	}
	return appendHTML(b, s)
}

// unsafeURL is what html/template writes for a URL it refuses.
const unsafeURL = "#ZgotmplZ"

// appendURLPath is appendURL without the check of the scheme.
func appendURLPath(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var rep string
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case c == '-' || c == '.' || c == '_' || c == '~' || c == '!' || c == '#' || c == '$' ||
			c == '*' || c == ',' || c == '/' || c == ':' || c == ';' || c == '=' || c == '?' || c == '@' || c == '[' || c == ']':
			continue
		case c == '&':
			rep = "&amp;"
		case c == '+':
			rep = "&#43;"
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue
		}
		b = append(b, s[last:i]...)
		if rep != "" {
			b = append(b, rep...)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
		last = i + 1
	}
	return append(b, s[last:]...)
}

// safeURL: no scheme, or http, https or mailto in any case.
func safeURL(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/':
			return true
		case ':':
			p := s[:i]
			return equalFold(p, "http") || equalFold(p, "https") || equalFold(p, "mailto")
		}
	}
	return true
}

// equalFold compares an ASCII lower-case word with s in any case, as
// strings.EqualFold does for these words (no non-ASCII letter folds to an
// ASCII one of http, https or mailto but the Kelvin sign K, absent from them).
func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// appendJSONString writes s as encoding/json writes a string (with its HTML
// escaping of <, > and &), which is also what html/template writes for a
// string in a script.
func appendJSONString(b []byte, s string) []byte { return appendJSON(b, s) }

// appendJSONStrings writes a list of strings as encoding/json does.
func appendJSONStrings(b []byte, ss []string) []byte { return appendJSON(b, ss) }

// appendJSON appends encoding/json's encoding of v, a string or a list of
// strings, which cannot fail.
func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, j...)
}

// appendFloat writes f as fmt.Sprint does, which is how a template prints a
// number.
func appendFloat(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'g', -1, 64) }

// appendPct writes what the templates' pct function returns.
func appendPct(b []byte, f float64) []byte {
	return append(strconv.AppendFloat(b, f*100, 'f', 0, 64), '%')
}
