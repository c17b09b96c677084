package search

import (
	"context"
	"encoding/binary"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	index "github.com/blevesearch/bleve_index_api"
)

// memIndex is one language's postings in memory, made straight from the
// corpus's analysis: what the scorer reads of a bleve index (each posting's
// term frequency and field length, and a field's terms by prefix), for the
// commands that index a KB each time they start (search --kb, serve
// --watch). bleve's in-memory index took most of a minute and gigabytes of
// garbage for a large KB; this takes a pass over the analysis.
type memIndex struct {
	fields []memField // in the order of fields
	ids    [][]byte   // document number -> the id postings carry
	docOf  map[string]int
}

type memField struct {
	postings map[string][]memPosting // term -> postings, document number ascending
	terms    []string                // sorted, for prefix lookups
}

type memPosting struct {
	doc, freq, length int32
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

func newMemIndex(a *analyzed) *memIndex {
	m := &memIndex{fields: make([]memField, len(fields)), ids: make([][]byte, len(a.docs)), docOf: make(map[string]int, len(a.docs))}
	for f := range m.fields {
		m.fields[f].postings = map[string][]memPosting{}
	}
	for k := range a.docs {
		id := binary.BigEndian.AppendUint32(nil, uint32(k)) // in document order, as Advance needs
		m.ids[k] = id
		m.docOf[string(id)] = k
	}
	// The fields share nothing: each is filled, in document order, and its
	// terms sorted on a core of its own.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(m.fields)) {
		wg.Go(func() {
			for {
				f := int(next.Add(1) - 1)
				if f >= len(m.fields) {
					return
				}
				mf := &m.fields[f]
				for k := range a.docs {
					if f >= len(a.fields[k]) {
						continue
					}
					ft := a.fields[k][f]
					for _, t := range ft.terms {
						mf.postings[t.term] = append(mf.postings[t.term], memPosting{int32(k), int32(t.n), int32(ft.n)})
					}
				}
				mf.terms = make([]string, 0, len(mf.postings))
				for t := range mf.postings {
					mf.terms = append(mf.terms, t)
				}
				sort.Strings(mf.terms)
			}
		})
	}
	wg.Wait()
	return m
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
		r.postings = f.postings[r.term]
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
			d.entries = append(d.entries, index.DictEntry{Term: f.terms[j], Count: uint64(len(f.postings[f.terms[j]]))})
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
