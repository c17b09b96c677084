package search

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Corpus is a set of documents with every field analyzed once. The client
// index, the bleve index and the stored document table are all built from
// it: analysis was most of the time of indexing a large KB while each of
// them ran it again.
type Corpus struct {
	docs   []Doc
	fields [][]fieldTerms // by document, then by field (the order of fields)
	langs  []string       // in order of first appearance
	byLang map[string][]int
	avg    map[string][]float64 // lang -> average length of each field
}

// fieldTerms is one field of one document after analysis.
type fieldTerms struct {
	n     int         // length in terms
	terms []termCount // distinct terms, sorted
}

type termCount struct {
	term string
	n    int
}

// NewCorpus analyzes docs on every core.
func NewCorpus(docs []Doc) *Corpus {
	c := &Corpus{docs: docs, fields: make([][]fieldTerms, len(docs)), byLang: map[string][]int{}, avg: map[string][]float64{}}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var toks []Token
			var terms []string
			for {
				i := int(next.Add(1) - 1)
				if i >= len(docs) {
					return
				}
				fs := make([]fieldTerms, len(fields))
				for f := range fields {
					toks = appendTokens(toks[:0], docs[i].field(fields[f].Name))
					terms = terms[:0]
					for _, t := range toks {
						terms = append(terms, t.Term)
					}
					fs[f] = countTerms(terms)
				}
				c.fields[i] = fs
			}
		})
	}
	wg.Wait()
	for i, d := range docs {
		if c.byLang[d.Lang] == nil {
			c.langs = append(c.langs, d.Lang)
		}
		c.byLang[d.Lang] = append(c.byLang[d.Lang], i)
	}
	for _, lang := range c.langs {
		c.avg[lang] = c.averageLengths(c.byLang[lang])
	}
	return c
}

// countTerms sorts terms and counts each.
func countTerms(terms []string) fieldTerms {
	ft := fieldTerms{n: len(terms)}
	if len(terms) == 0 {
		return ft
	}
	slices.Sort(terms)
	distinct := 1
	for k := 1; k < len(terms); k++ {
		if terms[k] != terms[k-1] {
			distinct++
		}
	}
	ft.terms = make([]termCount, 0, distinct)
	for k, t := range terms {
		if k > 0 && t == terms[k-1] {
			ft.terms[len(ft.terms)-1].n++
			continue
		}
		ft.terms = append(ft.terms, termCount{term: t, n: 1})
	}
	return ft
}

// averageLengths is the mean number of terms of each field over the docs
// that have it: entries have no title, and counting them would make every
// article title look long.
func (c *Corpus) averageLengths(docs []int) []float64 {
	avg := make([]float64, len(fields))
	have := make([]int, len(fields))
	for _, i := range docs {
		for f, ft := range c.fields[i] {
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

// lang returns the documents of one language, in order, and their fields.
func (c *Corpus) lang(lang string) ([]Doc, [][]fieldTerms) {
	docs := make([]Doc, len(c.byLang[lang]))
	fs := make([][]fieldTerms, len(docs))
	for k, i := range c.byLang[lang] {
		docs[k], fs[k] = c.docs[i], c.fields[i]
	}
	return docs, fs
}
