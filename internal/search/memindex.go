package search

import (
	"context"
	"encoding/binary"
	"math"
	"sort"
	"strings"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/p2pkb/p2pkb/internal/parallel"
)

// memIndex is one language's postings in memory, made straight from the
// corpus's analysis: what the scorer reads of a bleve index (each posting's
// term frequency and field length, and a field's terms by prefix), for the
// commands that index a KB each time they start (search --kb, serve
// --watch). bleve's in-memory index took most of a minute and gigabytes of
// garbage for a large KB; this takes a pass over the analysis.
type memIndex struct {
	dict   map[string]int32 // term -> its number, the same in every field
	fields []memField       // in the order of fields
	ids    [][]byte         // document number -> the id postings carry
	docOf  map[string]int
}

type memField struct {
	off   []int32      // term number -> where its postings start in all; off[n+1] where they end
	all   []memPosting // every posting of the field, by term number, then document number ascending
	terms []string     // the field's terms, sorted, for prefix lookups
}

type memPosting struct {
	doc, freq, length int32
}

// postings are the postings of term in f, document number ascending.
func (m *memIndex) postings(f *memField, term string) []memPosting {
	id, ok := m.dict[term]
	if !ok {
		return nil
	}
	return f.all[f.off[id]:f.off[id+1]]
}

// WriteClientAndIndex writes the client index through emit and returns the
// index in memory, both from one analysis of each language: what serve
// --watch needs after an edit, where analyzing twice was half the wait.
func (c *Corpus) WriteClientAndIndex(emit func(name string, data []byte) error) (*Index, ClientStats, error) {
	var st ClientStats
	c.client = func(a *analyzed) error { return writeLang(a, emit, &st, false) }
	defer func() { c.client = nil }()
	ix, err := c.Index("")
	return ix, st, err
}

// newMemIndex makes the postings of an analysis. The terms are numbered in
// their order, whatever the order of the documents' terms, so that the same
// postings make the same index, read from a file or made from an analysis.
// Each field's postings are counted, then placed in one array: appended
// term by term, each was looked up twice and the lists were twice their size
// in garbage. The analysis's term numbers stand for the terms, which are
// not looked up again.
func newMemIndex(a *analyzed) *memIndex {
	m := &memIndex{dict: map[string]int32{}, fields: make([]memField, len(fields)), ids: make([][]byte, len(a.docs)), docOf: make(map[string]int, len(a.docs))}
	for k := range a.docs {
		id := binary.BigEndian.AppendUint32(nil, uint32(k)) // in document order, as Advance needs
		m.ids[k] = id
		m.docOf[string(id)] = k
	}
	// The terms of the workers' dictionaries, and of documents analyzed
	// before, by their text.
	for _, d := range a.dicts {
		for _, t := range d {
			m.dict[t] = 0
		}
	}
	for k, fs := range a.fields {
		if a.dictOf[k] == 0 {
			for _, ft := range fs {
				for _, t := range ft.terms {
					m.dict[t.term] = 0
				}
			}
		}
	}
	terms := make([]string, 0, len(m.dict))
	for t := range m.dict {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	for i, t := range terms {
		m.dict[t] = int32(i)
	}
	number := make([][]int32, len(a.dicts)) // worker, its term number -> the term's number here
	for w, d := range a.dicts {
		number[w] = make([]int32, len(d))
		for i, t := range d {
			number[w][i] = m.dict[t]
		}
	}
	// The fields share nothing: each is made on a core of its own, the
	// largest first, so that no core is left with a large one at the end.
	size := make([]int, len(fields))
	for _, fs := range a.fields {
		for f, ft := range fs {
			size[f] += len(ft.terms)
		}
	}
	order := make([]int, len(fields))
	for f := range order {
		order[f] = f
	}
	sort.SliceStable(order, func(i, j int) bool { return size[order[i]] > size[order[j]] })
	parallel.For(context.Background(), len(order), parallel.Workers(), func(_, i int) error {
		f := order[i]
		m.fields[f] = m.makeField(a, f, terms, number)
		return nil
	})
	return m
}

// makeField makes the postings of field f.
func (m *memIndex) makeField(a *analyzed, f int, terms []string, number [][]int32) memField {
	id := func(k int, t termCount) int32 {
		if w := a.dictOf[k]; w > 0 {
			return number[w-1][t.id]
		}
		return m.dict[t.term]
	}
	mf := memField{off: make([]int32, len(terms)+1)}
	count := mf.off[1:]
	n := 0
	for k, fs := range a.fields {
		if f < len(fs) {
			for _, t := range fs[f].terms {
				count[id(k, t)]++
			}
			n += len(fs[f].terms)
		}
	}
	have := 0
	for _, c := range count {
		if c > 0 {
			have++
		}
	}
	if have > 0 {
		mf.terms = make([]string, 0, have)
	}
	var at int32
	for i, c := range count {
		if c > 0 {
			mf.terms = append(mf.terms, terms[i])
		}
		count[i] = at // where the next posting of term i goes
		at += c
	}
	mf.all = make([]memPosting, n)
	for k, fs := range a.fields {
		if f >= len(fs) {
			continue
		}
		ft := fs[f]
		for _, t := range ft.terms {
			i := id(k, t)
			mf.all[count[i]] = memPosting{int32(k), t.n, int32(ft.n)}
			count[i]++
		}
	}
	// count[i] is now where the postings of term i end: off[i+1].
	return mf
}

// field is the field of that name, or nil.
func (m *memIndex) field(name string) *memField {
	for f := range fields {
		if fields[f].Name == name {
			return &m.fields[f]
		}
	}
	return nil
}

// TermFieldReader lists the documents holding term in field, with the
// frequency and the norm (1/sqrt(length)) as bleve gives them.
func (m *memIndex) TermFieldReader(_ context.Context, term []byte, field string, _, _, _ bool) (index.TermFieldReader, error) {
	r := &memTermReader{ids: m.ids, term: string(term)}
	if f := m.field(field); f != nil {
		r.postings = m.postings(f, r.term)
	}
	return r, nil
}

// FieldDictPrefix lists the terms of field that begin with prefix, in order.
func (m *memIndex) FieldDictPrefix(field string, prefix []byte) (index.FieldDict, error) {
	d := &memDict{}
	if f := m.field(field); f != nil {
		p := string(prefix)
		i := sort.SearchStrings(f.terms, p)
		for j := i; j < len(f.terms) && strings.HasPrefix(f.terms[j], p); j++ {
			d.entries = append(d.entries, index.DictEntry{Term: f.terms[j], Count: uint64(len(m.postings(f, f.terms[j])))})
		}
	}
	return d, nil
}

// Close has nothing to release: the postings live as long as the Index.
func (m *memIndex) Close() error { return nil }

type memTermReader struct {
	ids      [][]byte
	term     string
	postings []memPosting
	next     int
}

func (r *memTermReader) Next(pre *index.TermFieldDoc) (*index.TermFieldDoc, error) {
	if r.next >= len(r.postings) {
		return nil, nil
	}
	p := r.postings[r.next]
	r.next++
	if pre == nil {
		pre = &index.TermFieldDoc{}
	}
	*pre = index.TermFieldDoc{Term: r.term, ID: r.ids[p.doc], Freq: uint64(p.freq), Norm: 1 / math.Sqrt(float64(p.length))}
	return pre, nil
}

// Advance moves to the first posting at or after the document id.
func (r *memTermReader) Advance(id index.IndexInternalID, pre *index.TermFieldDoc) (*index.TermFieldDoc, error) {
	for r.next < len(r.postings) && string(r.ids[r.postings[r.next].doc]) < string(id) {
		r.next++
	}
	return r.Next(pre)
}

func (r *memTermReader) Count() uint64 { return uint64(len(r.postings)) }
func (r *memTermReader) Close() error  { return nil }
func (r *memTermReader) Size() int     { return len(r.postings) * 12 }

type memDict struct {
	entries []index.DictEntry
	next    int
}

func (d *memDict) Next() (*index.DictEntry, error) {
	if d.next >= len(d.entries) {
		return nil, nil
	}
	d.next++
	return &d.entries[d.next-1], nil
}

func (d *memDict) Close() error      { return nil }
func (d *memDict) Cardinality() int  { return len(d.entries) }
func (d *memDict) BytesRead() uint64 { return 0 }
