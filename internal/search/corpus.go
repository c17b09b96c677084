package search

import (
	"context"
	"math"
	"runtime"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/parallel"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Corpus is a set of documents, analyzed one language at a time. The
// client index, the bleve index and the stored document table are all built
// from one analysis of a language: analysis was most of the time of indexing
// a large KB while each of them ran it again, and holding every language's
// terms at once was most of its memory.
type Corpus struct {
	ctx    context.Context    // a cancelled context stops the indexing in progress
	source func(string) []Doc // makes a language's documents when it is analyzed, if set
	docs   []Doc
	langs  []string // in order of first appearance
	byLang map[string][]int
	avg    map[string][]float64  // lang -> average length of each field, once analyzed
	client func(*analyzed) error // while Index runs for WriteClientAndIndex: writes a language's client index

	// A site's corpus can reuse the analysis of an earlier corpus of the
	// same site, before an edit of some entries (serve --watch): only the
	// documents of the entries edited are made and analyzed again.
	entries  []*kb.Entry                  // the site's entries, whose documents come first, in order
	entryDoc func(lang string, i int) Doc // the document of entry i
	articles func(lang string) []Doc      // the documents of the articles, after the entries'
	keep     bool                         // keep each language's analysis for a later corpus
	// lazySnippets leaves the documents' snippets to be made for the
	// results that show them: no index file that holds them is written.
	lazySnippets bool
	kept         map[string]*analyzed
	since        *Corpus // the earlier corpus whose analysis is reused
}

// fieldTerms is one field of one document after analysis.
type fieldTerms struct {
	n     int         // length in terms
	terms []termCount // distinct terms, in no order
}

type termCount struct {
	term string
	n    int32
	id   int32 // the term's number in its analysis worker's dictionary (see analyzed)
}

// NewCorpus groups docs by language.
func NewCorpus(docs []Doc) *Corpus {
	c := &Corpus{ctx: context.Background(), docs: docs, byLang: map[string][]int{}, avg: map[string][]float64{}}
	for i, d := range docs {
		if c.byLang[d.Lang] == nil {
			c.langs = append(c.langs, d.Lang)
		}
		c.byLang[d.Lang] = append(c.byLang[d.Lang], i)
	}
	return c
}

// SiteCorpus is the corpus of the site's pages. Each language's documents
// are made when it is indexed, and once both indexes have them, only what
// results show is kept of them: their text was much of a large build's
// memory.
func SiteCorpus(s *site.Site) *Corpus {
	patterns := entryPatterns(s)
	c := NewCorpus(nil)
	c.source = func(lang string) []Doc { return langDocs(s, lang, patterns) }
	c.entries = s.KB.Entries
	c.entryDoc = func(lang string, i int) Doc { return entryDoc(s, lang, s.KB.Entries[i], patterns[i]) }
	c.articles = func(lang string) []Doc { return articleDocs(s, lang) }
	for _, l := range site.Langs {
		c.langs = append(c.langs, l.Code)
	}
	return c
}

// Only restricts the corpus to the documents of lang, for a search in that
// language alone: the other languages are neither made nor analyzed.
func (c *Corpus) Only(lang string) *Corpus {
	langs := c.langs[:0:0]
	for _, l := range c.langs {
		if l == lang {
			langs = append(langs, l)
		}
	}
	c.langs = langs
	return c
}

// Keep makes the corpus keep each language's analysis, for a later corpus
// of the same site to reuse (Since).
func (c *Corpus) Keep() *Corpus {
	c.keep = true
	return c
}

// Since makes the corpus reuse the analysis that earlier, a corpus of the
// same site made with Keep, kept: the documents of entries that are the
// same values as there are neither made nor analyzed again. An entry edited
// is a new value (kb.Load with a cache). c keeps its own analysis in turn.
func (c *Corpus) Since(earlier *Corpus) *Corpus {
	c.since = earlier
	return c.Keep()
}

// reusable is the analysis of lang to reuse and which of the entries'
// documents are the same there, or nil.
func (c *Corpus) reusable(lang string) (*analyzed, []bool) {
	e := c.since
	if e == nil || c.entryDoc == nil || e.kept[lang] == nil || len(e.entries) != len(c.entries) || len(e.kept[lang].docs) < len(c.entries) {
		return nil, nil
	}
	same := make([]bool, len(c.entries))
	for i, x := range c.entries {
		same[i] = e.entries[i] == x
	}
	return e.kept[lang], same
}

// strip drops the text of a language's documents, which the indexes have.
func (c *Corpus) strip(lang string) {
	if c.source == nil {
		return // the caller's documents: theirs to keep
	}
	for _, i := range c.byLang[lang] {
		blankText(&c.docs[i])
	}
	if a := c.kept[lang]; a != nil {
		for k := range a.docs {
			blankText(&a.docs[k])
		}
	}
}

// blankText drops a document's text, keeping what results show.
func blankText(d *Doc) {
	d.Sig, d.Codes, d.Heading, d.Cause, d.Fix, d.Body, d.Text = "", "", "", "", "", "", ""
}

// WithContext makes the indexing of c stop with an error when ctx is done:
// serve --watch drops an index that a newer edit has made stale.
func (c *Corpus) WithContext(ctx context.Context) *Corpus {
	c.ctx = ctx
	return c
}

// analyzed is one language's documents, in order, with their fields.
type analyzed struct {
	ctx    context.Context
	lang   string
	docs   []Doc
	fields [][]fieldTerms // by document, then by field (the order of fields)
	avg    []float64

	// The dictionaries of the analysis workers, and per document 1 + the
	// worker whose term numbers (termCount.id) its fields hold; 0 for a
	// document analyzed before, whose terms go by their text.
	dicts  [][]string
	dictOf []int32
}

// analyze analyzes the documents of lang on every core.
func (c *Corpus) analyze(lang string) (*analyzed, error) {
	prev, same := c.reusable(lang)
	// made marks the entries whose documents the analysis workers make:
	// making them took a large build a core's second before analysis began.
	var made []bool
	if c.source != nil && c.byLang[lang] == nil {
		var docs []Doc
		switch {
		case c.entryDoc != nil:
			docs = make([]Doc, len(c.entries))
			made = make([]bool, len(c.entries))
			for i := range c.entries {
				if prev != nil && same[i] {
					docs[i] = prev.docs[i]
				} else {
					made[i] = true
				}
			}
			docs = append(docs, c.articles(lang)...)
		default:
			docs = c.source(lang)
		}
		for _, d := range docs {
			c.byLang[lang] = append(c.byLang[lang], len(c.docs))
			c.docs = append(c.docs, d)
		}
	}
	idx := c.byLang[lang]
	a := &analyzed{lang: lang, docs: make([]Doc, len(idx)), fields: make([][]fieldTerms, len(idx)), dictOf: make([]int32, len(idx))}
	a.dicts = make([][]string, runtime.GOMAXPROCS(0))
	for k, i := range idx {
		a.docs[k] = c.docs[i]
	}
	// Each worker keeps its analyzer, with its own dictionary, and its
	// buffers from one document to the next.
	type worker struct {
		toks   []Token
		counts []int32
		spare  []termCount
		an     analyzer
	}
	workers := make([]worker, len(a.dicts))
	for w := range workers {
		workers[w].an = analyzer{terms: map[string]int32{}}
	}
	parallel.For(c.ctx, len(a.docs), len(workers), func(w, k int) error {
		wk := &workers[w]
		if k < len(made) && made[k] {
			a.docs[k] = c.entryDoc(lang, k)
			if !c.lazySnippets {
				a.docs[k].snippets() // here, on every core, for the files written
			}
		} else if prev != nil && k < len(same) && same[k] {
			a.fields[k] = prev.fields[k]
			return nil
		}
		if p := a.docs[k].Regex; p != nil {
			p.literalSets() // here, on every core, rather than on one at the first search
		}
		fs := make([]fieldTerms, len(fields))
		for f := range fields {
			wk.toks = wk.an.appendTokens(wk.toks[:0], a.docs[k].field(fields[f].Name))
			if n := len(wk.an.dict); len(wk.counts) < n {
				wk.counts = append(wk.counts, make([]int32, n-len(wk.counts))...)
			}
			fs[f] = countTerms(wk.toks, wk.counts, &wk.spare)
		}
		a.fields[k] = fs
		a.dictOf[k] = int32(w + 1)
		if c.source != nil {
			// The terms are interned: the text can go now.
			blankText(&a.docs[k])
		}
		return nil
	})
	for w := range workers {
		a.dicts[w] = workers[w].an.dict
	}
	if err := c.ctx.Err(); err != nil {
		return nil, err
	}
	for k, m := range made {
		if m {
			c.docs[idx[k]] = a.docs[k]
		}
	}
	// The site's documents' text is in the analysis now, and nothing reads
	// it again: it goes before the indexes are made from the analysis.
	c.strip(lang)
	for k := range a.docs {
		if c.source != nil {
			blankText(&a.docs[k])
		}
	}
	a.avg = averageLengths(a.fields)
	c.avg[lang] = a.avg
	a.ctx = c.ctx
	if c.keep {
		if c.kept == nil {
			c.kept = map[string]*analyzed{}
		}
		c.kept[lang] = a
	}
	return a, nil
}

// countTerms counts each term of toks, by their numbers: counts, indexed
// by term number, is zero before and after. The field's terms are carved
// from spare, a chunk the caller keeps: allocated one by one, they were a
// fifth of the analysis.
func countTerms(toks []Token, counts []int32, spare *[]termCount) fieldTerms {
	ft := fieldTerms{n: len(toks)}
	if len(toks) == 0 {
		return ft
	}
	distinct := 0
	for _, t := range toks {
		if counts[t.id] == 0 {
			distinct++
		}
		counts[t.id]++
	}
	if cap(*spare) < distinct {
		*spare = make([]termCount, 0, max(distinct, 4096))
	}
	ft.terms, *spare = (*spare)[:0:distinct], (*spare)[distinct:distinct]
	for _, t := range toks {
		if n := counts[t.id]; n > 0 {
			ft.terms = append(ft.terms, termCount{term: t.Term, n: n, id: t.id})
			counts[t.id] = 0
		}
	}
	return ft
}

// averageLengths is the mean number of terms of each field over the docs
// that have it: entries have no title, and counting them would make every
// article title look long.
func averageLengths(docs [][]fieldTerms) []float64 {
	avg := make([]float64, len(fields))
	have := make([]int, len(fields))
	for _, fs := range docs {
		for f, ft := range fs {
			if ft.n > 0 {
				avg[f] += float64(ft.n)
				have[f]++
			}
		}
	}
	for f := range avg {
		avg[f] = math.Max(1, avg[f]/float64(max(1, have[f])))
	}
	return avg
}
