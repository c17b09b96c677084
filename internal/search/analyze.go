// Package search indexes the entries and articles and answers queries: a
// bleve index for the server and the terminal, a sharded client index for
// the static site, and the regex pass that puts an entry whose signature a
// pasted log contains first. Go and the browser (assets/search.js) analyze
// text the same way; testdata/cases.json holds the cases both must pass.
package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The analysis, step by step (assets/search.js repeats it):
//  1. runs are Han characters, or other letters, digits, '_' and '.';
//  2. a Han run gives its bigrams (one character gives itself);
//  3. any other run, trimmed of '.' and '_', gives itself lower-cased, and
//     when it is a compound (dots, underscores, camelCase) each part too;
//  4. stop words and one-character non-Han terms are dropped.
// It is written out by hand rather than with regexp: it runs over every
// field of every document, and regexp made it most of the build's time.

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in is it its of on or that the this to was were will with`) {
		stopWords[w] = true
	}
}

func isHanRune(r rune) bool { return unicode.Is(unicode.Han, r) }

func isWordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '.') && !isHanRune(r)
}

// Token is one term with the byte range of the text it came from.
type Token struct {
	Term       string
	Start, End int // byte offsets in the analyzed text
	Pos        int // 1-based position; the parts of a compound share it
}

// Analyze splits text into index terms.
func Analyze(text string) []Token {
	var out []Token
	pos := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isHanRune(r):
			j := i
			var starts []int
			for j < len(text) {
				r, n := utf8.DecodeRuneInString(text[j:])
				if !isHanRune(r) {
					break
				}
				starts = append(starts, j)
				j += n
			}
			starts = append(starts, j)
			if len(starts) == 2 {
				pos++
				out = append(out, Token{Term: text[i:j], Start: i, End: j, Pos: pos})
			}
			for k := 0; k+2 < len(starts); k++ {
				pos++
				out = append(out, Token{Term: text[starts[k]:starts[k+2]], Start: starts[k], End: starts[k+2], Pos: pos})
			}
			i = j
		case isWordRune(r):
			j := i
			for j < len(text) {
				r, n := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r) {
					break
				}
				j += n
			}
			start, end := i, j
			for start < end && (text[start] == '.' || text[start] == '_') {
				start++
			}
			for end > start && (text[end-1] == '.' || text[end-1] == '_') {
				end--
			}
			i = j
			if start == end {
				continue
			}
			pos++
			out = appendWord(out, text[start:end], start, end, pos)
		default:
			i += size
		}
	}
	return out
}

// appendWord adds a word and, for a compound, its parts.
func appendWord(out []Token, word string, start, end, pos int) []Token {
	add := func(t string, seen map[string]bool) {
		if seen[t] || stopWords[t] || utf8.RuneCountInString(t) < 2 {
			return
		}
		seen[t] = true
		out = append(out, Token{Term: t, Start: start, End: end, Pos: pos})
	}
	seen := map[string]bool{}
	add(strings.ToLower(word), seen)
	parts := splitCompound(word)
	if len(parts) > 1 {
		for _, p := range parts {
			add(strings.ToLower(p), seen)
		}
	}
	return out
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }
func isLower(b byte) bool { return b >= 'a' && b <= 'z' }

// splitCompound splits at dots and underscores, between a lower-case and an
// upper-case ASCII letter (cudaError), and before the last capital of a run
// of capitals followed by a lower-case letter (HTTPServer).
func splitCompound(w string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c == '.' || c == '_' {
			if i > start {
				parts = append(parts, w[start:i])
			}
			start = i + 1
			continue
		}
		if i > start && isUpper(c) && (isLower(w[i-1]) || isUpper(w[i-1]) && i+1 < len(w) && isLower(w[i+1])) {
			parts = append(parts, w[start:i])
			start = i
		}
	}
	if start < len(w) {
		parts = append(parts, w[start:])
	}
	return parts
}

// Terms returns the distinct terms of text, in order of first appearance.
func Terms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range Analyze(text) {
		if !seen[t.Term] {
			seen[t.Term] = true
			out = append(out, t.Term)
		}
	}
	return out
}
