package search

import (
	"fmt"
	"math"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	_ "github.com/blevesearch/bleve/v2/analysis/analyzer/custom" // the analyzer type of our tokenizer
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
)

const analyzerName = "p2pkb"

func init() {
	registry.RegisterTokenizer(analyzerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return tokenizer{}, nil
	})
}

// tokenizer is the analysis as bleve names it in the index mapping, for
// anyone who opens the index with bleve's own queries. The build hands
// bleve analyzed fields instead (analyzedField).
type tokenizer struct{}

func (tokenizer) Tokenize(input []byte) analysis.TokenStream {
	toks := Analyze(string(input))
	out := make(analysis.TokenStream, len(toks))
	for i, t := range toks {
		out[i] = &analysis.Token{Term: []byte(t.Term), Start: t.Start, End: t.End, Position: t.Pos, Type: analysis.AlphaNumeric}
	}
	return out
}

// analyzedField is a document field whose analysis the Corpus has done:
// only its term counts and length are indexed, nothing is stored.
type analyzedField struct {
	name  string
	terms fieldTerms
	freq  index.TokenFrequencies
	bytes uint64
	size  int // the memory bleve accounts for it, counted as it is made
}

func newAnalyzedField(name string, ft fieldTerms, textBytes int) *analyzedField {
	freq := make(index.TokenFrequencies, len(ft.terms))
	tfs := make([]index.TokenFreq, len(ft.terms))
	// As TokenFrequencies.Size counts it, which would walk the map again.
	size := int(unsafe.Sizeof(map[string]int{})) + len(ft.terms)*int(unsafe.Sizeof("")+unsafe.Sizeof(&tfs)+unsafe.Sizeof(tfs[0]))
	for k, t := range ft.terms {
		tfs[k] = index.TokenFreq{Term: []byte(t.term)}
		tfs[k].SetFrequency(int(t.n))
		freq[t.term] = &tfs[k]
		size += 2 * len(t.term)
	}
	return &analyzedField{name: name, terms: ft, freq: freq, bytes: uint64(textBytes), size: size}
}

func (f *analyzedField) Name() string                                     { return f.name }
func (f *analyzedField) ArrayPositions() []uint64                         { return nil }
func (f *analyzedField) Options() index.FieldIndexingOptions              { return index.IndexField }
func (f *analyzedField) Analyze()                                         {}
func (f *analyzedField) Value() []byte                                    { return nil }
func (f *analyzedField) NumPlainTextBytes() uint64                        { return f.bytes }
func (f *analyzedField) Size() int                                        { return f.size }
func (f *analyzedField) EncodedFieldType() byte                           { return 't' }
func (f *analyzedField) AnalyzedLength() int                              { return f.terms.n }
func (f *analyzedField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freq }

// Index is the server-side index: bleve for ranking, plus the documents for
// the regex pass and for showing results.
type Index struct {
	bleve  map[string]bleve.Index // one per language, so counts and lengths are the language's own, as in the client index
	mem    map[string]*memIndex   // instead of bleve, for an index made in memory
	docs   map[string]Doc         // by Key
	byLang map[string][]Doc
	docNum map[string]map[string]int // lang -> Key -> position in byLang, the client's document number
	avg    map[string][]float64      // lang -> average length of each field, in terms

	mu       sync.Mutex
	internal map[string]map[string]int // lang -> bleve internal id -> document number, built on first search
	scratch  sync.Pool                 // *scratch of a search's scorer
}

// finish derives the per-language tables from docs.
func (ix *Index) finish() {
	ix.docNum = map[string]map[string]int{}
	for lang, docs := range ix.byLang {
		ix.docNum[lang] = map[string]int{}
		for i, d := range docs {
			ix.docNum[lang][d.Key()] = i
		}
	}
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
	m.DefaultMapping = doc
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	// BM25, as the client index scores, so both rank alike.
	m.ScoringModel = index.BM25Scoring
	return m, nil
}

// Build indexes docs. dir is where bleve keeps the index, one folder per
// language; "" keeps it in memory.
func Build(docs []Doc, dir string) (*Index, error) { return NewCorpus(docs).Index(dir) }

// Index builds the bleve index of the corpus, one per language, in dir; ""
// keeps the postings in memory without bleve, which ranks alike and takes a
// fraction of the time.
func (c *Corpus) Index(dir string) (*Index, error) {
	m, err := indexMapping()
	if err != nil {
		return nil, err
	}
	ix := &Index{bleve: map[string]bleve.Index{}, mem: map[string]*memIndex{}, docs: map[string]Doc{}, byLang: map[string][]Doc{}, avg: c.avg}
	// With no client index to write, snippets wait for the results.
	c.lazySnippets = c.client == nil
	defer func() { c.lazySnippets = false }()
	for _, lang := range c.langs {
		a, err := c.analyze(lang)
		if err == nil && c.client != nil {
			err = c.client(a)
		}
		if err != nil {
			ix.Close()
			return nil, err
		}
		if dir == "" {
			ix.mem[lang] = newMemIndex(a)
		} else {
			bi, err := indexLang(m, a, dir)
			if err != nil {
				ix.Close()
				return nil, err
			}
			ix.bleve[lang] = bi
		}
		c.strip(lang)
		docs := make([]Doc, 0, len(c.byLang[lang])) // at their size: documents are large
		for _, i := range c.byLang[lang] {
			d := c.docs[i]
			docs = append(docs, d)
			ix.docs[d.Key()] = d
		}
		ix.byLang[lang] = docs
	}
	ix.finish()
	c.since = nil // analyzed: the earlier corpus may go
	return ix, nil
}

// batchDocs is how many documents go to bleve at once: a batch holds every
// term of its documents twice over, and one of a whole language was most of
// a large build's memory.
const batchDocs = 500

// indexLang makes the bleve index of one language in dir/lang, or in memory.
func indexLang(m mapping.IndexMapping, a *analyzed, dir string) (bleve.Index, error) {
	var bi bleve.Index
	var err error
	if dir == "" {
		bi, err = bleve.NewMemOnly(m)
	} else {
		bi, err = bleve.New(filepath.Join(dir, a.lang), m)
	}
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	batch := bi.NewBatch()
	for k, d := range a.docs {
		if err := a.ctx.Err(); err != nil {
			bi.Close()
			return nil, err
		}
		doc := document.NewDocument(d.Key())
		for f, ft := range a.fields[k] {
			if ft.n > 0 {
				doc.AddField(newAnalyzedField(fields[f].Name, ft, len(d.field(fields[f].Name))))
			}
		}
		if err := batch.IndexAdvanced(doc); err != nil {
			bi.Close()
			return nil, err
		}
		if (k+1)%batchDocs == 0 || k+1 == len(a.docs) {
			if err := bi.Batch(batch); err != nil {
				bi.Close()
				return nil, fmt.Errorf("search index: %w", err)
			}
			batch.Reset()
		}
	}
	return bi, nil
}

// Write writes everything a built site needs for search, one language at a
// time so that only one language's analysis is held: the client index and
// each language's postings (PostingsFile, beside docsFile) through emit,
// and the document table as docsFile. bleve's index is made from the
// postings later, by the server (BuildBleve). emit is called from several
// goroutines at once.
func (c *Corpus) Write(emit func(name string, data []byte) error, docsFile string) (ClientStats, error) {
	var st ClientStats
	for _, lang := range c.langs {
		a, err := c.analyze(lang)
		if err != nil {
			return st, err
		}
		// The two read the analysis and share nothing else: one core writes
		// the client index while the other makes the postings.
		var clientErr error
		var wg sync.WaitGroup
		wg.Go(func() { clientErr = writeLang(a, emit, &st, true) })
		err = emit(path.Join(path.Dir(docsFile), PostingsFile(lang)), encodePostings(a))
		wg.Wait()
		if err != nil {
			return st, fmt.Errorf("search index: %w", err)
		}
		if clientErr != nil {
			return st, clientErr
		}
		c.strip(lang)
	}
	return st, c.WriteDocs(emit, docsFile)
}

// Close releases the bleve index.
func (ix *Index) Close() error {
	var first error
	for _, bi := range ix.bleve {
		if err := bi.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Result is one hit.
type Result struct {
	ID    string  `json:"id"`    // entry id or article slug
	Kind  string  `json:"kind"`  // entry or article
	Title string  `json:"title"` //
	Code  string  `json:"code,omitempty"`
	Path  string  `json:"path"`            // page path from the site root
	Score float64 `json:"score"`           // higher is better; a signature match scores above every other hit
	Match string  `json:"match,omitempty"` // the text a signature pattern matched
	Line  int     `json:"line,omitempty"`  // the line of the query Match is on, from 1, when the query has several
	// Lines are every line of a query of several that the pattern matches
	// on its own, from 1: a line whose match differs from Match is still
	// named by the entry, so no answer is composed for it from its parts.
	Lines []int `json:"lines,omitempty"`
	// Shared is the share of the query's ranking words, each weighted by
	// its rarity (idf), that the document holds: 1 when it holds them all.
	Shared float64 `json:"shared,omitempty"`
	Gist   string  `json:"gist,omitempty"` // the root cause (an article's summary) in one line
	Best   string  `json:"best,omitempty"` // the best workaround in one line

	Versions    []string `json:"versions,omitempty"`     // entries: to judge the result against a machine
	AppliesWhen string   `json:"applies_when,omitempty"` //
	// Entries: what ranks the causes of one line (see Before) where the
	// page ranks them again with a machine's facts.
	Reports int  `json:"reports,omitempty"`
	Generic bool `json:"generic,omitempty"`
	Shape   bool `json:"shape,omitempty"` // the entry answers a shape of message (kb.Entry.Shape)
	// The usual cause is on the program's side (kb.Entry.ProgramSide),
	// which orders the entries closest to a paste's words.
	ProgramSide bool     `json:"program_side,omitempty"`
	Confidence  float64  `json:"confidence,omitempty"`
	APIs        []string `json:"apis,omitempty"` // the kinds of CUDA calls the entry names (APIs)
}

// Limits that keep a query cheap whatever it is sent.
const (
	MaxQueryBytes = 64 << 10
	MaxResults    = 100
	MaxQueryTerms = 64
	maxFuzzyTerms = 4
)

// QueryTooLongError is Search's answer to a query over MaxQueryBytes: it is
// refused whole rather than searched in part.
type QueryTooLongError struct{ Len int }

func (e *QueryTooLongError) Error() string {
	return fmt.Sprintf("the query is %d bytes long; a query may have at most %d", e.Len, MaxQueryBytes)
}

// Search ranks documents of lang for q, exactly as the client index does
// (assets/search.js): entries whose pattern matches the query or a line of
// it come first, the rest by BM25 over the weighted fields, computed from
// bleve's postings. Both sides rank alike because they share the formula.
// A query over MaxQueryBytes is a *QueryTooLongError; limit is at most
// MaxResults.
func (ix *Index) Search(q, lang string, limit int) ([]Result, error) {
	if len(q) > MaxQueryBytes {
		return nil, &QueryTooLongError{len(q)}
	}
	limit = max(1, min(limit, MaxResults))
	docs := ix.byLang[lang]
	scores := map[int]float64{}
	matches := map[int]string{}
	shared := map[int]float64{}

	terms := queryTerms(q)
	if (ix.bleve[lang] != nil || ix.mem[lang] != nil) && len(terms) > 0 {
		sc, err := ix.newScorer(lang)
		if err != nil {
			return nil, err
		}
		defer sc.close()
		fuzzy := len(terms) <= maxFuzzyTerms
		have, all, words := map[int]float64{}, 0.0, 0.0
		for _, t := range terms {
			hit := map[int]bool{}
			idf, err := sc.add(t, 1, scores, hit)
			if err != nil {
				return nil, err
			}
			if idf == 0 && fuzzy && utf8.RuneCountInString(t) >= fuzzyMin && !isHan(t) {
				near, err := sc.near(t)
				if err != nil {
					return nil, err
				}
				for _, v := range near {
					w, err := sc.add(v, 0.3, scores, hit)
					if err != nil {
						return nil, err
					}
					idf = max(idf, w)
				}
			}
			all += idf
			for d := range hit {
				have[d] += idf
			}
			// A word no document holds counts as the rarest word there
			// could be: the query's words the KB does not know at all.
			if idf == 0 {
				idf = unknownIDF(sc.n)
			}
			words += idf
		}
		coverage(scores, have, all, len(terms))
		for d, h := range have {
			shared[d] = h / words
		}
	}
	for i, d := range docs {
		if d.Regex == nil || !d.Regex.mayMatch(q) {
			continue // its literals are not all in q: it cannot match, and is not compiled
		}
		if m := matchPattern(d, q); m != "" {
			matches[i] = m
			scores[i] = patternScore(m, d.Generic, d.Reports, d.Confidence)
		}
	}
	multiline := strings.Contains(strings.TrimSpace(q), "\n")
	ranked := make([]int, 0, len(scores))
	for i := range scores {
		ranked = append(ranked, i)
	}
	sort.Slice(ranked, func(a, b int) bool {
		sa, sb := scores[ranked[a]], scores[ranked[b]]
		if sa != sb {
			return sa > sb
		}
		return ranked[a] < ranked[b]
	})
	var out []Result
	for _, i := range ranked[:min(limit, len(ranked))] {
		r := result(docs[i], scores[i], matches[i])
		r.Shared = math.Round(shared[i]*1000) / 1000
		if r.Match != "" && multiline {
			r.Line = lineOf(q, r.Match)
			r.Lines = linesMatched(docs[i], q)
		}
		out = append(out, r)
	}
	return out, nil
}

// queryTerms are the terms a query is ranked by. A long query is a pasted
// message or log: its numbers (timestamps, ranks, line numbers) rank nothing
// and would only cost index downloads, so they are left out.
// assets/search.js does the same.
func queryTerms(q string) []string {
	terms := Terms(q)
	if len(terms) > maxFuzzyTerms {
		kept := terms[:0]
		for _, t := range terms {
			if !isNumber(t) {
				kept = append(kept, t)
			}
		}
		terms = kept
	}
	return terms[:min(len(terms), MaxQueryTerms)]
}

// isNumber tells whether a term is digits only.
func isNumber(t string) bool {
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return t != ""
}

func result(d Doc, score float64, match string) Result {
	d.snippets()
	return Result{ID: d.ID, Kind: d.Kind, Title: d.Title, Code: d.Code, Path: d.Path, Score: math.Round(score*1000) / 1000, Match: match,
		Gist: d.Gist, Best: d.Best, Versions: d.Versions, AppliesWhen: d.AppliesWhen, Reports: d.Reports, Generic: d.Generic, Shape: d.Shape, ProgramSide: d.ProgramSide, Confidence: d.Confidence, APIs: d.APIs}
}

// linesMatched lists the lines of q, from 1, that d's pattern matches
// alone. assets/search.js finds them the same way.
func linesMatched(d Doc, q string) []int {
	var out []int
	for n, l := range strings.Split(q, "\n") {
		if d.Regex.mayMatch(l) && d.Regex.MatchString(l) {
			out = append(out, n+1)
		}
	}
	return out
}

// lineOf is the number, from 1, of the first line of q that holds match; 0
// when the match spans lines. assets/search.js finds it the same way.
func lineOf(q, match string) int {
	for n, l := range strings.Split(q, "\n") {
		if strings.Contains(l, match) {
			return n + 1
		}
	}
	return 0
}

func trim(rs []Result, n int) []Result {
	if len(rs) > n {
		return rs[:n]
	}
	return rs
}

// matchPattern returns what an entry's pattern matches in text, trying the
// whole text and then each line, or "".
func matchPattern(d Doc, text string) string {
	if d.Regex == nil {
		return ""
	}
	if m := d.Regex.FindString(text); m != "" {
		return m
	}
	for _, l := range strings.Split(text, "\n") {
		if m := d.Regex.FindString(l); m != "" {
			return m
		}
	}
	return ""
}

type patternMatch struct {
	doc  Doc
	text string
}

// matchPatterns lists the entries whose pattern matches text, longest match first.
func matchPatterns(docs []Doc, text string) []patternMatch {
	var out []patternMatch
	for _, d := range docs {
		if m := matchPattern(d, text); m != "" {
			out = append(out, patternMatch{d, m})
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

// Names tells whether the pattern of some entry of lang matches line, and
// whether one that is not generic (see Before) does: the literals each
// pattern requires are looked for first, so that a pattern runs, and is
// compiled, only where it may match.
func (ix *Index) Names(line, lang string) (matched, specific bool) {
	for _, d := range ix.byLang[lang] {
		if d.Regex != nil && d.Regex.mayMatch(line) && d.Regex.MatchString(line) {
			matched = true
			specific = specific || !d.Generic
		}
	}
	return matched, specific
}
