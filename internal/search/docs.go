package search

import (
	"context"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/parallel"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Doc is one searchable page: an entry or an article in one language.
type Doc struct {
	ID    string // entry id or article slug
	Kind  string // entry or article
	Lang  string // en, zh
	Title string // what a result shows
	Code  string // error code, for entries
	Path  string // the page's path from the site root, en/kb/<id>/

	// Text by field, most telling first (see fields).
	Sig, Codes, Heading, Cause, Fix, Body, Text string

	// What a result shows under its title, in one line each: the root
	// cause (an article's summary) and the best workaround.
	Gist, Best string
	// The Markdown that an entry's Gist and Best are made from, until they
	// are made (snippets): a search shows ten results, and making the
	// snippets of every document was a tenth of search --kb's time, and
	// of explain's, which shows none.
	gistFrom, bestFrom string

	Regex       *Pattern // entries: the signature pattern
	Confidence  float64  // entries: breaks ties between pattern matches of equal evidence
	Reports     int      // entries: the reports the entry cites (kb.Entry.Reports), the evidence that ranks pattern matches
	Generic     bool     // entries: the signature is an inner error alone, or a shape of message (see Before)
	Shape       bool     // entries: the entry answers a shape of message, not one (kb.Entry.Shape)
	ProgramSide bool     // entries: the usual cause is on the program's side (kb.Entry.ProgramSide)
	APIs        []string // entries: the kinds of CUDA calls the entry names (APIs)
	Versions    []string // entries: versions as written, for marking results against a machine
	AppliesWhen string   // entries: the entry's condition
	// Entries: what ranks the entry among the causes of a symptom (a paste
	// with no error line) when the facts rank them alike; Note also tells
	// the page whether a line it matches is an error or a note.
	Symptom SymptomCause
}

// Fields of a document and their weights: what people paste or type (signature,
// codes, article titles) counts most, then causes and fixes, then the rest.
var fields = []struct {
	Name  string
	Boost float64
}{
	{"sig", 5}, {"code", 5}, {"title", 5}, {"cause", 2}, {"fix", 2}, {"body", 1}, {"text", 2},
}

// An article's prose is a field of its own ("text"): in the body field its
// length was measured against the entries' few words of tags, and BM25's
// length normalization made an article that explains a word weigh less
// than an entry that names it once.

func (d Doc) field(name string) string {
	switch name {
	case "sig":
		return d.Sig
	case "code":
		return d.Codes
	case "title":
		return d.Heading
	case "cause":
		return d.Cause
	case "fix":
		return d.Fix
	case "text":
		return d.Text
	}
	return d.Body
}

// Key is the document's id in an index: lang:id.
func (d Doc) Key() string { return d.Lang + ":" + d.ID }

// Docs lists every entry and article of the site in every language. A
// language's entry document carries the original signature too, since people
// paste what the software printed whatever language they read.
func Docs(s *site.Site) []Doc {
	var out []Doc
	patterns := entryPatterns(s)
	for _, l := range site.Langs {
		out = append(out, langDocs(s, l.Code, patterns)...)
	}
	return out
}

// PatternDocs lists the entries of the site in one language with what
// matching lines of a log needs: id, title, path and pattern, without the
// text that ranking reads, which was most of what explain spent on them.
// None for a language the site does not have.
func PatternDocs(s *site.Site, lang string) []Doc {
	if _, ok := site.LangByCode(lang); !ok {
		return nil
	}
	out := make([]Doc, len(s.KB.Entries))
	for i, e := range s.KB.Entries {
		out[i] = Doc{ID: e.ID, Kind: "entry", Lang: lang, Title: site.Signature(e, lang), Code: e.ErrorCode, Path: site.EntryPath(lang, e.ID),
			Regex: entryPattern(e), Confidence: e.Confidence, Reports: len(e.Reports()), Generic: Generic(e), Shape: e.Shape, ProgramSide: e.ProgramSide, APIs: APIs(e), AppliesWhen: e.AppliesWhen}
	}
	return out
}

// entryPatterns are the entries' patterns, one per entry for its languages.
func entryPatterns(s *site.Site) []*Pattern {
	patterns := make([]*Pattern, len(s.KB.Entries))
	for i, e := range s.KB.Entries {
		patterns[i] = entryPattern(e) // checked by kb.Load
	}
	return patterns
}

// langDocs lists the documents of one language.
// The entries' documents are made on every core: their plain text and
// first sentences were a fifth of search --kb's time, on one core.
func langDocs(s *site.Site, lang string, patterns []*Pattern) []Doc {
	l, _ := site.LangByCode(lang)
	out := make([]Doc, len(s.KB.Entries))
	parallel.For(context.Background(), len(out), parallel.Workers(), func(_, i int) error {
		out[i] = entryDoc(s, l.Code, s.KB.Entries[i], patterns[i])
		return nil
	})
	return append(out, articleDocs(s, l.Code)...)
}

// articleDocs are the documents of the articles in lang, after the entries'.
func articleDocs(s *site.Site, lang string) []Doc {
	var out []Doc
	for _, slug := range s.Articles.Slugs {
		a := s.Articles.Articles[slug][lang]
		if a == nil {
			a = s.Articles.Articles[slug][site.Langs[0].Code]
		}
		out = append(out, Doc{ID: slug, Kind: "article", Lang: lang, Title: a.Title, Path: site.ArticlePath(lang, slug),
			Heading: a.Title, Cause: a.Summary, Body: strings.Join(a.Tags, " "), Text: string(a.Body), Gist: oneLine(a.Summary, causeWidth)})
	}
	return out
}

// entryDoc is the document of one entry in lang.
func entryDoc(s *site.Site, lang string, e *kb.Entry, pattern *Pattern) Doc {
	v := site.View(e, lang, s.KB)
	d := Doc{ID: e.ID, Kind: "entry", Lang: lang, Title: v.Signature, Code: e.ErrorCode, Path: site.EntryPath(lang, e.ID),
		Sig: e.Signature, Codes: strings.Join(append(append([]string{e.ErrorCode}, e.Aliases...), e.FormerCodes...), " ")}
	if v.Translation != "" {
		d.Sig += "\n" + v.Translation
	}
	// A corrected signature stays findable by the text the entry once gave.
	for _, f := range e.FormerSignatures {
		d.Sig += "\n" + f.Signature
	}
	d.Regex = pattern
	d.Confidence = e.Confidence
	d.Reports, d.Generic, d.Shape, d.APIs = len(e.Reports()), Generic(e), e.Shape, APIs(e)
	d.ProgramSide = e.ProgramSide
	d.AppliesWhen = e.AppliesWhen
	d.Symptom = NewSymptomCause(e)
	d.Versions = []string{}
	for _, ver := range e.Versions {
		d.Versions = append(d.Versions, ver.Version)
	}
	d.Cause = v.RootCause.Text
	d.gistFrom = v.RootCause.Text
	if len(v.Workarounds) > 0 {
		d.bestFrom = v.Workarounds[0].Text.Text // the highest success rate
	}
	var fix []string
	for _, w := range v.Workarounds {
		fix = append(fix, w.Text.Text, w.How)
	}
	for _, de := range v.DeadEnds {
		fix = append(fix, de.Action.Text, de.WhyFails.Text)
	}
	d.Fix = strings.Join(fix, "\n")
	var body []string
	body = append(body, e.Domain, e.Category, e.Subcategory, strings.Join(e.Tags, " "))
	for _, ver := range e.Versions {
		body = append(body, ver.Version)
	}
	d.Body = strings.Join(body, " ")
	return d
}

// snippets makes Gist and Best, where they are still to be made.
func (d *Doc) snippets() {
	if d.gistFrom != "" {
		d.Gist, d.gistFrom = oneLine(d.gistFrom, causeWidth), ""
	}
	if d.bestFrom != "" {
		d.Best, d.bestFrom = oneLine(d.bestFrom, fixWidth), ""
	}
}

// Pattern is an entry's signature pattern, compiled when first used: a
// build writes thousands of patterns into the indexes and runs none, and
// compiled, they were a fifth of its memory. The languages' documents of an
// entry share one.
type Pattern struct {
	expr   string
	syntax *syntax.Regexp // expr parsed and simplified, when kb.Load kept it, until literalSets reads it
	once   sync.Once
	re     *regexp.Regexp
	err    error

	litsOnce   sync.Once
	lits       [][]string // per branch of the pattern: literals every match of it holds; a nil branch holds none known
	anchorOnce sync.Once
	anchors    []string // the terms that can anchor it, made once for both languages (anchorTerms)
}

// NewPattern returns the pattern of expr, not yet compiled.
func NewPattern(expr string) *Pattern { return &Pattern{expr: expr} }

// entryPattern is the pattern of an entry, with the syntax kb.Load kept.
func entryPattern(e *kb.Entry) *Pattern { return &Pattern{expr: e.Regex, syntax: e.PatternSyntax()} }

// String is the pattern as written.
func (p *Pattern) String() string { return p.expr }

// Regexp compiles the pattern once; nil when it does not compile, which
// kb.Load and Open rule out.
func (p *Pattern) Regexp() *regexp.Regexp {
	p.once.Do(func() { p.re, p.err = regexp.Compile(p.expr) })
	return p.re
}

// literalSets are, per branch at the top of the pattern, the literals that
// every match of that branch holds (see lookFor), found once. One nil set:
// a match may hold none of them, and the pattern must run on every text.
func (p *Pattern) literalSets() [][]string {
	p.litsOnce.Do(func() {
		re := p.syntax
		if re == nil {
			if parsed, err := syntax.Parse(p.expr, syntax.Perl); err == nil {
				re = parsed.Simplify()
			}
		}
		p.syntax = nil // the entry has it
		if re != nil {
			for _, b := range branches(re) {
				sets := branchSets(b, maxBranchDepth)
				if sets == nil {
					p.lits = nil
					break
				}
				p.lits = append(p.lits, sets...)
			}
		}
		if len(p.lits) == 0 {
			p.lits = [][]string{nil}
		}
	})
	return p.lits
}

// maxBranchDepth bounds how deep branchSets looks into alternations inside
// alternations: each level may multiply the sets a pattern is looked for by.
const maxBranchDepth = 3

// branchSets are the literal sets of branch b of a pattern: its own, or,
// when it has only common bytes to look for or none (the parser factored a
// prefix out of alternatives, as cu(?:daErrorX|IpcY) from cudaErrorX|cuIpcY),
// one set per alternative of the alternation inside it, when each of those
// has rarer ones. nil when no literal is known: the pattern runs on every
// line, which a log of gigabytes must not pay for one entry.
func branchSets(b *syntax.Regexp, depth int) [][]string {
	set := lookFor(requiredLiterals(b))
	if depth == 0 || len(set) > 0 && rarity(set[0][0]) >= 2 {
		if len(set) == 0 {
			return nil
		}
		return [][]string{set}
	}
	subs := branches(b)
	if len(subs) < 2 {
		if len(set) == 0 {
			return nil
		}
		return [][]string{set}
	}
	var out [][]string
	for _, sub := range subs {
		s := branchSets(sub, depth-1)
		if s == nil {
			if len(set) == 0 {
				return nil
			}
			return [][]string{set} // an alternative with nothing to look for: the branch's own set is as good as it gets
		}
		out = append(out, s...)
	}
	return out
}

// mayMatch reports whether text holds every literal of some branch of the
// pattern: when it does not, the pattern cannot match anywhere in text, and
// is neither compiled nor run.
func (p *Pattern) mayMatch(text string) bool {
	for _, set := range p.literalSets() {
		all := true
		for _, l := range set {
			if !strings.Contains(text, l) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// FindString returns the leftmost match in s, or "".
func (p *Pattern) FindString(s string) string {
	if re := p.Regexp(); re != nil {
		return re.FindString(s)
	}
	return ""
}

// MatchString reports whether s holds a match; false for a pattern that
// does not compile.
func (p *Pattern) MatchString(s string) bool {
	re := p.Regexp()
	return re != nil && re.MatchString(s)
}
