package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/markdown"
)

// Widths of the one-line snippets a result shows under its title, in
// columns: a Han character takes two. They keep the client index's
// document files small, since a query loads the files of its results.
const (
	causeWidth = 150
	fixWidth   = 120
)

// oneLine is the first sentence of inline Markdown as plain text, cut at a
// word to width columns with an ellipsis: the whole text is on the page.
func oneLine(md string, width int) string {
	// Parsing a whole root cause to keep one sentence of it took most of a
	// large build's time: the first sentence of the Markdown, at most four
	// lines' worth, is parsed.
	if len(md) > 4*width {
		cut := 4 * width
		for cut > 0 && !utf8.RuneStart(md[cut]) {
			cut--
		}
		md = md[:cut]
	}
	s := firstSentence(markdown.Plain(firstSentence(md)))
	cols, last := 0, -1
	for i, r := range s {
		w := 1
		if isHanRune(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF {
			w = 2
		}
		if r == ' ' || w == 2 {
			last = i
		}
		if cols+w > width-1 {
			if last <= 0 || w == 2 {
				last = i
			}
			return strings.TrimRight(s[:last], " ,;:，；：、") + "…"
		}
		cols += w
	}
	return s
}

// firstSentence is s up to the end of its first sentence: a full stop,
// question or exclamation mark followed by a space and a capital or digit,
// or a Chinese full stop. Abbreviations such as "e.g." are followed by a
// lower-case word, so they do not end it.
func firstSentence(s string) string {
	for i, r := range s {
		switch r {
		case '。', '！', '？':
			return s[:i+utf8.RuneLen(r)]
		case '.', '!', '?':
			rest := s[i+1:]
			if !strings.HasPrefix(rest, " ") {
				continue
			}
			next, _ := utf8.DecodeRuneInString(rest[1:])
			if unicode.IsUpper(next) || unicode.IsDigit(next) || next == '`' {
				return s[:i+1]
			}
		}
	}
	return s
}
