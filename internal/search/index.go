package search

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	_ "github.com/blevesearch/bleve/v2/analysis/analyzer/custom" // the analyzer type of our tokenizer
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search/query"
)

const analyzerName = "p2pkb"

func init() {
	registry.RegisterTokenizer(analyzerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return tokenizer{}, nil
	})
}

// tokenizer feeds bleve the same terms the browser computes.
type tokenizer struct{}

func (tokenizer) Tokenize(input []byte) analysis.TokenStream {
	toks := Analyze(string(input))
	out := make(analysis.TokenStream, len(toks))
	for i, t := range toks {
		out[i] = &analysis.Token{Term: []byte(t.Term), Start: t.Start, End: t.End, Position: t.Pos, Type: analysis.AlphaNumeric}
	}
	return out
}

// Index is the server-side index: bleve for ranking, plus the documents for
// the regex pass and for showing results.
type Index struct {
	bleve  bleve.Index
	docs   map[string]Doc // by Key
	byLang map[string][]Doc
}

func indexMapping() (mapping.IndexMapping, error) {
	m := bleve.NewIndexMapping()
	if err := m.AddCustomAnalyzer(analyzerName, map[string]any{"type": "custom", "tokenizer": analyzerName}); err != nil {
		return nil, err
	}
	m.DefaultAnalyzer = analyzerName
	doc := bleve.NewDocumentStaticMapping()
	for _, f := range fields {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = analyzerName
		fm.Store = false // the pages hold the text; results come from Doc
		fm.IncludeTermVectors = false
		fm.IncludeInAll = false
		fm.DocValues = false
		doc.AddFieldMappingsAt(f.Name, fm)
	}
	lang := bleve.NewKeywordFieldMapping()
	lang.Store, lang.IncludeInAll, lang.DocValues = false, false, false
	doc.AddFieldMappingsAt("lang", lang)
	m.DefaultMapping = doc
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	return m, nil
}

// Build indexes docs. dir is where bleve keeps the index; "" keeps it in memory.
func Build(docs []Doc, dir string) (*Index, error) {
	m, err := indexMapping()
	if err != nil {
		return nil, err
	}
	var bi bleve.Index
	if dir == "" {
		bi, err = bleve.NewMemOnly(m)
	} else {
		bi, err = bleve.New(dir, m)
	}
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	ix := &Index{bleve: bi, docs: map[string]Doc{}, byLang: map[string][]Doc{}}
	batch := bi.NewBatch()
	for _, d := range docs {
		ix.docs[d.Key()] = d
		ix.byLang[d.Lang] = append(ix.byLang[d.Lang], d)
		body := map[string]any{"lang": d.Lang}
		for _, f := range fields {
			if v := d.field(f.Name); v != "" {
				body[f.Name] = v
			}
		}
		if err := batch.Index(d.Key(), body); err != nil {
			return nil, err
		}
		if batch.Size() >= 1000 {
			if err := bi.Batch(batch); err != nil {
				return nil, err
			}
			batch = bi.NewBatch()
		}
	}
	if err := bi.Batch(batch); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	return ix, nil
}

// Close releases the bleve index.
func (ix *Index) Close() error { return ix.bleve.Close() }

// Result is one hit.
type Result struct {
	ID    string  `json:"id"`    // entry id or article slug
	Kind  string  `json:"kind"`  // entry or article
	Title string  `json:"title"` //
	Code  string  `json:"code,omitempty"`
	Path  string  `json:"path"`            // page path from the site root
	Score float64 `json:"score"`           // higher is better; a signature match scores above every other hit
	Match string  `json:"match,omitempty"` // the text a signature pattern matched
}

// Limits that keep a query cheap whatever it is sent.
const (
	MaxQueryBytes = 64 << 10
	MaxResults    = 100
	maxQueryTerms = 64
	maxFuzzyTerms = 4
)

// Search ranks documents of lang for q. Entries whose pattern matches the
// query, or a line of it, come first; the rest is bleve's ranking.
func (ix *Index) Search(q, lang string, limit int) ([]Result, error) {
	if len(q) > MaxQueryBytes {
		q = q[:MaxQueryBytes]
	}
	limit = max(1, min(limit, MaxResults))
	var out []Result
	seen := map[string]bool{}
	for _, m := range matchPatterns(ix.byLang[lang], q) {
		seen[m.doc.ID] = true
		out = append(out, result(m.doc, 1000+float64(len(m.text)), m.text))
	}

	terms := Terms(q)
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	if len(terms) == 0 {
		return trim(out, limit), nil
	}
	// Typos are corrected in short, typed queries; a pasted log's unknown
	// words (timestamps, paths, host names) are not typos.
	fuzzy := len(terms) <= maxFuzzyTerms
	var should []query.Query
	for _, t := range terms {
		for _, f := range fields {
			tq := bleve.NewTermQuery(t)
			tq.SetField(f.Name)
			tq.SetBoost(f.Boost)
			should = append(should, tq)
			if fuzzy && len([]rune(t)) >= fuzzyMin && !isHan(t) {
				fq := bleve.NewFuzzyQuery(t)
				fq.SetField(f.Name)
				fq.SetFuzziness(1)
				fq.SetBoost(f.Boost * 0.3)
				should = append(should, fq)
			}
		}
	}
	lq := bleve.NewTermQuery(lang)
	lq.SetField("lang")
	dq := bleve.NewDisjunctionQuery(should...)
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(lq, dq), limit+len(out), 0, false)
	res, err := ix.bleve.Search(req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	for _, h := range res.Hits {
		d, ok := ix.docs[h.ID]
		if !ok || seen[d.ID] {
			continue
		}
		out = append(out, result(d, h.Score, ""))
	}
	return trim(out, limit), nil
}

func result(d Doc, score float64, match string) Result {
	return Result{ID: d.ID, Kind: d.Kind, Title: d.Title, Code: d.Code, Path: d.Path, Score: math.Round(score*1000) / 1000, Match: match}
}

func trim(rs []Result, n int) []Result {
	if len(rs) > n {
		return rs[:n]
	}
	return rs
}

type patternMatch struct {
	doc  Doc
	text string
}

// matchPatterns tries each entry's pattern on the whole text and on each of
// its lines; longer matches (more specific patterns) first.
func matchPatterns(docs []Doc, text string) []patternMatch {
	var out []patternMatch
	lines := strings.Split(text, "\n")
	for _, d := range docs {
		if d.Regex == nil {
			continue
		}
		if m := d.Regex.FindString(text); m != "" {
			out = append(out, patternMatch{d, m})
			continue
		}
		for _, l := range lines {
			if m := d.Regex.FindString(l); m != "" {
				out = append(out, patternMatch{d, m})
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].text) > len(out[j].text) })
	return out
}

// Matches returns the entries of lang whose signature pattern occurs in text.
func (ix *Index) Matches(text, lang string) []Doc {
	var out []Doc
	for _, m := range matchPatterns(ix.byLang[lang], text) {
		out = append(out, m.doc)
	}
	return out
}

func isHan(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isHanRune(r)
}
