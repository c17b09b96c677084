package search

import (
	"context"
	"math"
	"sort"

	index "github.com/blevesearch/bleve_index_api"
)

// weight is a term's BM25 weight in one document, summed over the weighted
// fields, before idf: what the client index stores per posting.
func weight(tf []float64, lengths []float64, avg []float64) float64 {
	w := 0.0
	for f := range fields {
		if tf[f] == 0 {
			continue
		}
		norm := k1 * (1 - bm25b + bm25b*lengths[f]/avg[f])
		w += fields[f].Boost * tf[f] * (k1 + 1) / (tf[f] + norm)
	}
	return w
}

// quantize rounds a weight as the client index stores it.
func quantize(w float64) int { return max(1, int(math.Round(w*weightScale))) }

// idf is BM25's inverse document frequency.
func idf(n, df int) float64 { return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5)) }

// unknownIDF is the weight of a query word no document holds, in Shared.
func unknownIDF(n int) float64 { return idf(n, 0) }

// postingReader is what the scorer reads of an index: bleve's reader, or
// a memIndex.
type postingReader interface {
	TermFieldReader(ctx context.Context, term []byte, field string, includeFreq, includeNorm, includeTermVectors bool) (index.TermFieldReader, error)
	FieldDictPrefix(field string, termPrefix []byte) (index.FieldDict, error)
	Close() error
}

// scorer reads postings from one language's index.
type scorer struct {
	r     postingReader
	ix    *Index
	lang  string
	n     int
	avg   []float64
	docOf map[string]int // bleve's internal id -> number in the language

	*scratch
}

// scratch is what add reads a term's postings into, by document number: a
// map and three slices for each document a term is in took most of a
// search of a large KB. It is cleared after each term and kept for the next
// search (Index.scratch).
type scratch struct {
	tf, lengths []float64 // by document, then field
	seen        []bool    // by document: the term is in it
	docs        []int     // the documents seen, in the order seen
}

func (ix *Index) newScorer(lang string) (*scorer, error) {
	if m := ix.mem[lang]; m != nil {
		return &scorer{r: m, ix: ix, lang: lang, n: len(ix.byLang[lang]), avg: ix.avg[lang], docOf: m.docOf}, nil
	}
	adv, err := ix.bleve[lang].Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	docOf, err := ix.internalNumbers(lang, r)
	if err != nil {
		r.Close()
		return nil, err
	}
	return &scorer{r: r, ix: ix, lang: lang, n: len(ix.byLang[lang]), avg: ix.avg[lang], docOf: docOf}, nil
}

// internalNumbers maps bleve's internal document ids to document numbers,
// once per language: looking up every posting's external id made a search
// of a large KB slow. The index is never written after it is built or
// opened, so the ids do not change.
func (ix *Index) internalNumbers(lang string, r index.IndexReader) (map[string]int, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if m := ix.internal[lang]; m != nil {
		return m, nil
	}
	ids, err := r.DocIDReaderAll()
	if err != nil {
		return nil, err
	}
	defer ids.Close()
	m := map[string]int{}
	for {
		id, err := ids.Next()
		if err != nil {
			return nil, err
		}
		if id == nil {
			break
		}
		key, err := r.ExternalID(id)
		if err != nil {
			return nil, err
		}
		if num, ok := ix.docNum[lang][key]; ok {
			m[string(id)] = num
		}
	}
	if ix.internal == nil {
		ix.internal = map[string]map[string]int{}
	}
	ix.internal[lang] = m
	return m, nil
}

func (s *scorer) close() {
	if s.scratch != nil {
		s.ix.scratch.Put(s.scratch)
	}
	s.r.Close()
}

// add adds factor * idf * weight of term t to every document holding it,
// marks those documents in hit, and returns the term's idf, 0 when no
// document holds it. Like the client index, a term in more than maxPostings
// documents counts only in those where it weighs most.
func (s *scorer) add(t string, factor float64, scores map[int]float64, hit map[int]bool) (float64, error) {
	nf := len(fields)
	if s.scratch == nil {
		s.scratch, _ = s.ix.scratch.Get().(*scratch)
		if s.scratch == nil || len(s.seen) < s.n {
			s.scratch = &scratch{tf: make([]float64, s.n*nf), lengths: make([]float64, s.n*nf), seen: make([]bool, s.n)}
		}
	}
	defer func() {
		for _, doc := range s.docs {
			clear(s.tf[doc*nf : (doc+1)*nf])
			clear(s.lengths[doc*nf : (doc+1)*nf])
			s.seen[doc] = false
		}
		s.docs = s.docs[:0]
	}()
	var pre index.TermFieldDoc // read into, posting after posting
	for f := range fields {
		tfr, err := s.r.TermFieldReader(context.Background(), []byte(t), fields[f].Name, true, true, false)
		if err != nil {
			return 0, err
		}
		for {
			d, err := tfr.Next(&pre)
			if err != nil {
				tfr.Close()
				return 0, err
			}
			if d == nil {
				break
			}
			num, ok := s.docOf[string(d.ID)]
			if !ok || num >= s.n {
				continue
			}
			if !s.seen[num] {
				s.seen[num] = true
				s.docs = append(s.docs, num)
			}
			length := 0.0
			if d.Norm > 0 {
				length = math.Round(1 / (d.Norm * d.Norm))
			}
			s.tf[num*nf+f], s.lengths[num*nf+f] = float64(d.Freq), length
		}
		tfr.Close()
	}
	if len(s.docs) == 0 {
		return 0, nil
	}
	type posting struct {
		doc int
		w   int
	}
	ps := make([]posting, 0, len(s.docs))
	for _, doc := range s.docs {
		ps = append(ps, posting{doc, quantize(weight(s.tf[doc*nf:(doc+1)*nf], s.lengths[doc*nf:(doc+1)*nf], s.avg))})
	}
	df := len(ps)
	if len(ps) > maxPostings {
		sort.Slice(ps, func(i, j int) bool { return ps[i].w > ps[j].w || ps[i].w == ps[j].w && ps[i].doc < ps[j].doc })
		ps = ps[:maxPostings]
	}
	w := idf(s.n, df)
	for _, p := range ps {
		scores[p.doc] += factor * w * float64(p.w) / weightScale
		hit[p.doc] = true
	}
	return w, nil
}

// coverage scales the scores of a typed query (at most maxFuzzyTerms terms)
// by the share of its terms each document holds, each term counted by its
// idf: a page that explains "ring all-reduce" holds all three words, an
// entry whose signature names custom_all_reduce only the two common ones,
// and without this the signature's weight put the entry first. have[doc]
// is the idf of the terms doc holds, all that of every term some document
// holds. A pasted log is left alone: no page holds all its words.
// assets/search.js does the same.
func coverage(scores, have map[int]float64, all float64, terms int) {
	if terms < 2 || terms > maxFuzzyTerms || all == 0 {
		return
	}
	for d := range scores {
		c := have[d] / all
		scores[d] *= c * c
	}
}

// near lists the known terms one edit from t that share its first two
// characters, as the client's vocabulary shards do.
func (s *scorer) near(t string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	p := prefix(t)
	for _, f := range fields {
		dict, err := s.r.FieldDictPrefix(f.Name, []byte(p))
		if err != nil {
			return nil, err
		}
		for {
			e, err := dict.Next()
			if err != nil {
				dict.Close()
				return nil, err
			}
			if e == nil {
				break
			}
			v := e.Term
			if !seen[v] && inVocabulary(v) && withinOne(t, v) {
				seen[v] = true
				out = append(out, v)
			}
		}
		dict.Close()
	}
	sort.Strings(out)
	return out, nil
}

// inVocabulary tells whether the client's typo shards hold a term.
func inVocabulary(t string) bool {
	return len([]rune(t)) >= fuzzyMin-1 && !isHan(t)
}

// withinOne tells whether a and b differ by at most one insertion, deletion
// or substitution (assets/search.js has the same function).
func withinOne(a, b string) bool {
	if a == b {
		return true
	}
	ra, rb := []rune(a), []rune(b)
	la, lb := len(ra), len(rb)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i, j, edits := 0, 0, 0
	for i < la && j < lb {
		if ra[i] == rb[j] {
			i++
			j++
			continue
		}
		edits++
		if edits > 1 {
			return false
		}
		switch {
		case la > lb:
			i++
		case lb > la:
			j++
		default:
			i++
			j++
		}
	}
	return edits+(la-i)+(lb-j) <= 1
}
