// Package search indexes the entries and articles and answers queries: a
// bleve index for the server and the terminal, a sharded client index for
// the static site, and the regex pass that puts an entry whose signature a
// pasted log contains first. Go and the browser (assets/search.js) analyze
// text the same way; testdata/cases.json holds the cases both must pass.
package search

import (
	"sort"
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

// StopWords are the words analysis drops, sorted: assets/search.js drops
// the same.
func StopWords() []string {
	out := make([]string, 0, len(stopWords))
	for w := range stopWords {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// maxStopWord is the length of the longest stop word: a longer term is
// not looked up.
var maxStopWord int

func init() {
	for _, w := range strings.Fields(`a am an and are as at be by for from has have in is it its of on or that the this to was were will with`) {
		stopWords[w] = true
		maxStopWord = max(maxStopWord, len(w))
	}
}

// hanLow is the first code point of unicode.Han: below it, no rune is Han.
const hanLow = 0x2E80

func isHanRune(r rune) bool { return r >= hanLow && unicode.Is(unicode.Han, r) }

// asciiWord marks the ASCII bytes that belong to a word.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.'
	}
	return t
}()

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return (unicode.IsLetter(r) || unicode.IsNumber(r)) && !isHanRune(r)
}

// Token is one term with the byte range of the text it came from.
type Token struct {
	Term       string
	Start, End int   // byte offsets in the analyzed text
	Pos        int   // 1-based position; the parts of a compound share it
	id         int32 // the term's number in the analyzer that interned it
}

// Analyze splits text into index terms.
func Analyze(text string) []Token {
	var a analyzer
	return a.appendTokens(make([]Token, 0, len(text)/8), text)
}

// analyzer holds what one goroutine's analysis reuses from text to text.
type analyzer struct {
	// terms, when not nil, interns the terms and numbers them (dict): a
	// term recurs in many documents as one string, no term holds on to the
	// text it came from, which can go once analyzed, and terms are counted
	// and indexed by number rather than looked up again. Lower-casing each
	// word anew was a fifth of analyzing a large KB.
	terms map[string]int32
	dict  []string // number -> term
	// words holds the terms of each word seen, with terms: a word recurs,
	// and its terms are looked up once rather than made again each time.
	words map[string][]wordTerm
	buf   []byte   // a word lower-cased
	parts []string // the parts of a compound
}

// appendTokens analyzes text onto out. ASCII takes a table lookup, not a
// Unicode range search: this runs over every field of every document.
func (a *analyzer) appendTokens(out []Token, text string) []Token {
	pos := 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if !asciiWord[c] {
				i++
				continue
			}
			i = a.appendWordRun(&out, text, i, &pos)
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isHanRune(r):
			// Bigrams: each token runs from the start of one character to
			// the end of the next; a run of one character is itself.
			prev, cur := -1, i
			j := i + size
			for j < len(text) {
				r, n := utf8.DecodeRuneInString(text[j:])
				if !isHanRune(r) {
					break
				}
				prev, cur = cur, j
				pos++
				t, id := a.han(text[prev : j+n])
				out = append(out, Token{Term: t, Start: prev, End: j + n, Pos: pos, id: id})
				j += n
			}
			if prev < 0 {
				pos++
				t, id := a.han(text[i:j])
				out = append(out, Token{Term: t, Start: i, End: j, Pos: pos, id: id})
			}
			i = j
		case isWordRune(r):
			i = a.appendWordRun(&out, text, i, &pos)
		default:
			i += size
		}
	}
	return out
}

// appendWordRun takes the word run starting at i, adds its terms and
// returns where the run ends.
func (a *analyzer) appendWordRun(out *[]Token, text string, i int, pos *int) int {
	j := i
	for j < len(text) {
		if c := text[j]; c < utf8.RuneSelf {
			if !asciiWord[c] {
				break
			}
			j++
			continue
		}
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
	if start < end {
		*pos++
		*out = a.appendWord(*out, text[start:end], start, end, *pos)
	}
	return j
}

// wordTerm is a term of a word, with its number.
type wordTerm struct {
	term string
	id   int32
}

// appendWord adds a word and, for a compound, its parts.
func (a *analyzer) appendWord(out []Token, word string, start, end, pos int) []Token {
	if ts, ok := a.words[word]; ok {
		for _, t := range ts {
			out = append(out, Token{Term: t.term, Start: start, End: end, Pos: pos, id: t.id})
		}
		return out
	}
	base := len(out)
	out = a.appendWordTerms(out, word, start, end, pos)
	if a.terms != nil {
		ts := make([]wordTerm, len(out)-base)
		for i, t := range out[base:] {
			ts[i] = wordTerm{t.Term, t.id}
		}
		if a.words == nil {
			a.words = map[string][]wordTerm{}
		}
		a.words[strings.Clone(word)] = ts
	}
	return out
}

// appendWordTerms adds the terms of a word and, for a compound, its parts.
func (a *analyzer) appendWordTerms(out []Token, word string, start, end, pos int) []Token {
	base := len(out)
	out = a.add(out, base, word, Token{Start: start, End: end, Pos: pos})
	a.parts = a.parts[:0]
	forParts(word, func(p string) { a.parts = append(a.parts, p) })
	if len(a.parts) < 2 {
		return out
	}
	for _, p := range a.parts {
		out = a.add(out, base, p, Token{Start: start, End: end, Pos: pos})
	}
	return out
}

// add adds w lower-cased as the term of tok, unless it is a stop word, one
// character, or a term the word at base has already given.
func (a *analyzer) add(out []Token, base int, w string, tok Token) []Token {
	t := a.lower(w)
	if len(t) < 2 || len(t) <= 4 && utf8.RuneCount(t) < 2 || len(t) <= maxStopWord && stopWords[string(t)] {
		return out
	}
	for _, o := range out[base:] {
		if o.Term == string(t) {
			return out
		}
	}
	tok.Term, tok.id = a.keep(t)
	return append(out, tok)
}

// lower is w lower-cased as strings.ToLower does it, in a.buf.
func (a *analyzer) lower(w string) []byte {
	a.buf = a.buf[:0]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			a.buf = append(a.buf[:0], strings.ToLower(w)...)
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		a.buf = append(a.buf, c)
	}
	return a.buf
}

// keep is the term t as a string of its own, and its number.
func (a *analyzer) keep(t []byte) (string, int32) {
	if a.terms == nil {
		return string(t), 0
	}
	if id, ok := a.terms[string(t)]; ok {
		return a.dict[id], id
	}
	return a.add1(string(t))
}

// han is a Han term, a piece of the text: interned, or the piece itself.
func (a *analyzer) han(t string) (string, int32) {
	if a.terms == nil {
		return t, 0
	}
	if id, ok := a.terms[t]; ok {
		return a.dict[id], id
	}
	return a.add1(strings.Clone(t))
}

// add1 numbers a new term.
func (a *analyzer) add1(t string) (string, int32) {
	id := int32(len(a.dict))
	a.terms[t] = id
	a.dict = append(a.dict, t)
	return t, id
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }
func isLower(b byte) bool { return b >= 'a' && b <= 'z' }

// forParts calls f with each part of w: it splits at dots and underscores,
// between a lower-case and an upper-case ASCII letter (cudaError), and
// before the last capital of a run of capitals followed by a lower-case
// letter (HTTPServer).
func forParts(w string, f func(string)) {
	start := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c == '.' || c == '_' {
			if i > start {
				f(w[start:i])
			}
			start = i + 1
			continue
		}
		if i > start && isUpper(c) && (isLower(w[i-1]) || isUpper(w[i-1]) && i+1 < len(w) && isLower(w[i+1])) {
			f(w[start:i])
			start = i
		}
	}
	if start < len(w) {
		f(w[start:])
	}
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
