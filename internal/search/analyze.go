// Package search indexes the entries and articles and answers queries: a
// bleve index for the server and the terminal, a sharded client index for
// the static site, and the regex pass that puts an entry whose signature a
// pasted log contains first. Go and the browser (assets/search.js) analyze
// text the same way; testdata/cases.json holds the cases both must pass.
package search

import (
	"regexp"
	"strings"
)

// The analysis, step by step (assets/search.js repeats it):
//  1. runs are Han characters, or letters, digits, '_' and '.';
//  2. a Han run gives its bigrams (one character gives itself);
//  3. any other run, trimmed of '.' and '_', gives itself lower-cased, and
//     when it is a compound (dots, underscores, camelCase) each part too;
//  4. stop words and one-character non-Han terms are dropped.
var (
	runRE     = regexp.MustCompile(`\p{Han}+|[\p{L}\p{N}_.]+`)
	hanRE     = regexp.MustCompile(`^\p{Han}`)
	camelRE   = regexp.MustCompile(`([a-z])([A-Z])`)
	acronymRE = regexp.MustCompile(`([A-Z]+)([A-Z][a-z])`)
	splitRE   = regexp.MustCompile(`[._]+`)
)

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in is it its of on or that the this to was were will with`) {
		stopWords[w] = true
	}
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
	for _, loc := range runRE.FindAllStringIndex(text, -1) {
		run := text[loc[0]:loc[1]]
		if hanRE.MatchString(run) {
			rs := []rune(run)
			off := loc[0]
			if len(rs) == 1 {
				pos++
				out = append(out, Token{Term: run, Start: off, End: loc[1], Pos: pos})
				continue
			}
			for i := 0; i+1 < len(rs); i++ {
				pos++
				w := string(rs[i : i+2])
				out = append(out, Token{Term: w, Start: off, End: off + len(w), Pos: pos})
				off += len(string(rs[i]))
			}
			continue
		}
		trimmed := strings.Trim(run, "._")
		if trimmed == "" {
			continue
		}
		start := loc[0] + strings.Index(run, trimmed)
		end := start + len(trimmed)
		pos++
		terms := []string{strings.ToLower(trimmed)}
		parts := splitRE.Split(acronymRE.ReplaceAllString(camelRE.ReplaceAllString(trimmed, "$1.$2"), "$1.$2"), -1)
		if len(parts) > 1 {
			for _, p := range parts {
				terms = append(terms, strings.ToLower(p))
			}
		}
		seen := map[string]bool{}
		for _, t := range terms {
			if seen[t] || stopWords[t] || len([]rune(t)) < 2 {
				continue
			}
			seen[t] = true
			out = append(out, Token{Term: t, Start: start, End: end, Pos: pos})
		}
	}
	return out
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
