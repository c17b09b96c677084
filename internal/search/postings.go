package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/blevesearch/bleve/v2"
)

// A built site keeps each language's postings beside the document table, in
// a compact file: what the server's index needs of the analysis (each
// posting's term frequency and field length). A build writes them in a
// fraction of the time bleve took to index, so bleve is off the build's
// critical path: the server answers from the postings at once and makes
// bleve's index from them in the background (BuildBleve), keeping it for
// the next start. Both rank alike, being read by the same scorer.

// PostingsFile is the name of a language's postings beside DocsFile.
func PostingsFile(lang string) string { return "postings." + lang + ".bin" }

// postingsMagic starts a postings file, with its format's version.
const postingsMagic = "p2pkb postings 2\n"

// encodePostings writes a language's analysis as the postings file holds
// it: the distinct terms once, then each document's fields, each as its
// length and its (term number, frequency) pairs, all as uvarints. Written
// by document, it needs no inverted index in the build's memory; Open
// inverts it.
func encodePostings(a *analyzed) []byte {
	// Terms in order, and each field's in the order of their numbers, so
	// that a build writes the same bytes every time.
	ids := map[string]uint64{}
	var terms []string
	size, npairs := len(postingsMagic)+30, 0
	for _, fs := range a.fields {
		for _, ft := range fs {
			npairs += len(ft.terms)
			for _, t := range ft.terms {
				if _, ok := ids[t.term]; !ok {
					ids[t.term] = 0
					terms = append(terms, t.term)
					size += len(t.term) + 1
				}
			}
		}
	}
	slices.Sort(terms)
	for i, t := range terms {
		ids[t] = uint64(i)
	}
	// Room for it all at once: two bytes a field's counts and four a pair
	// cover most; growing the file by copies was most of its allocation.
	size += 2*len(a.fields)*len(fields) + 4*npairs
	var pairs []uint64
	b := make([]byte, 0, size)
	b = append(b, postingsMagic...)
	b = binary.AppendUvarint(b, uint64(len(a.fields)))
	b = binary.AppendUvarint(b, uint64(len(fields)))
	b = binary.AppendUvarint(b, uint64(len(terms)))
	for _, t := range terms {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	for _, fs := range a.fields {
		for _, ft := range fs {
			b = binary.AppendUvarint(b, uint64(ft.n))
			b = binary.AppendUvarint(b, uint64(len(ft.terms)))
			// Term number and frequency as one integer, sorted plainly:
			// a field's terms are distinct, so the numbers alone order them.
			pairs = pairs[:0]
			for _, t := range ft.terms {
				pairs = append(pairs, ids[t.term]<<32|uint64(uint32(t.n)))
			}
			slices.Sort(pairs)
			for _, p := range pairs {
				b = binary.AppendUvarint(b, p>>32)
				b = binary.AppendUvarint(b, uint64(uint32(p)))
			}
		}
	}
	return b
}

var errPostings = errors.New("postings file is damaged")

// decodePostings reads what encodePostings wrote, for a language of ndocs
// documents, into the index in memory.
func decodePostings(data []byte, ndocs int) (*memIndex, error) {
	if !bytes.HasPrefix(data, []byte(postingsMagic)) {
		return nil, fmt.Errorf("not a postings file of this version")
	}
	r := data[len(postingsMagic):]
	bad := false
	next := func() uint64 {
		v, n := binary.Uvarint(r)
		if n <= 0 {
			bad = true
			return 0
		}
		r = r[n:]
		return v
	}
	if n := next(); int(n) != ndocs {
		return nil, fmt.Errorf("postings of %d documents for %d", n, ndocs)
	}
	if nf := next(); int(nf) != len(fields) {
		return nil, fmt.Errorf("postings of %d fields for %d", nf, len(fields))
	}
	nt := next()
	if nt > uint64(len(r)) {
		return nil, errPostings
	}
	terms := make([]string, nt)
	for i := range terms {
		l := next()
		if l > uint64(len(r)) {
			return nil, errPostings
		}
		terms[i] = string(r[:l])
		r = r[l:]
	}
	// Read back into the documents' fields, the index is made as from an
	// analysis.
	a := &analyzed{fields: make([][]fieldTerms, ndocs), dicts: [][]string{terms}, dictOf: make([]int32, ndocs)}
	a.docs = make([]Doc, ndocs)
	for k := range ndocs {
		fs := make([]fieldTerms, len(fields))
		for f := range fs {
			n, count := next(), next()
			if count > uint64(len(r)) {
				return nil, errPostings
			}
			fs[f].n = int(n)
			if count > 0 {
				fs[f].terms = make([]termCount, count)
			}
			for i := range count {
				id, freq := next(), next()
				if id >= nt || bad {
					return nil, errPostings
				}
				fs[f].terms[i] = termCount{terms[id], int32(freq), int32(id)}
			}
		}
		a.fields[k] = fs
		a.dictOf[k] = 1 // the file's term numbers
	}
	if bad || len(r) != 0 {
		return nil, errPostings
	}
	return newMemIndex(a), nil
}

// analysis turns the postings back into the documents' fields, as the
// corpus's analysis gave them, for bleve.
func (m *memIndex) analysis(lang string, docs []Doc) *analyzed {
	a := &analyzed{lang: lang, docs: docs, fields: make([][]fieldTerms, len(docs))}
	for k := range a.fields {
		a.fields[k] = make([]fieldTerms, len(fields))
	}
	for f, mf := range m.fields {
		for _, t := range mf.terms {
			for _, p := range m.postings(&mf, t) {
				ft := &a.fields[p.doc][f]
				ft.n = int(p.length)
				ft.terms = append(ft.terms, termCount{term: t, n: p.freq})
			}
		}
	}
	return a
}

// InMemory tells whether some language is answered from postings in
// memory rather than from bleve: BuildBleve would make its index.
func (ix *Index) InMemory() bool { return len(ix.mem) > 0 }

// BuildBleve makes bleve's index of every language answered from memory,
// in dir (one folder per language, as Open reads them). Each language's
// index is made in a folder of its own and renamed into place once whole,
// so a reader finds a complete index or none. A cancelled ctx stops it.
func (ix *Index) BuildBleve(ctx context.Context, dir string) error {
	m, err := indexMapping()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	langs := make([]string, 0, len(ix.mem))
	for lang := range ix.mem {
		langs = append(langs, lang)
	}
	slices.Sort(langs)
	for _, lang := range langs {
		tmp, err := os.MkdirTemp(dir, "."+lang+"-")
		if err != nil {
			return fmt.Errorf("search index: %w", err)
		}
		a := ix.mem[lang].analysis(lang, ix.byLang[lang])
		a.ctx = ctx
		bi, err := indexLang(m, a, tmp)
		if err == nil {
			err = bi.Close()
		}
		if err == nil {
			err = os.Rename(filepath.Join(tmp, lang), filepath.Join(dir, lang))
		}
		os.RemoveAll(tmp)
		if err != nil {
			return fmt.Errorf("search index: %w", err)
		}
	}
	return nil
}

// openLang opens a language's bleve index in bleveDir, or, where there is
// none, reads its postings beside docsPath.
func (ix *Index) openLang(lang, bleveDir, docsPath string) error {
	if _, err := os.Stat(filepath.Join(bleveDir, lang)); err == nil {
		bi, err := bleve.OpenUsing(filepath.Join(bleveDir, lang), map[string]any{"read_only": true})
		if err != nil {
			return fmt.Errorf("search index %s: %w", bleveDir, err)
		}
		ix.bleve[lang] = bi
		return nil
	}
	p := filepath.Join(filepath.Dir(docsPath), PostingsFile(lang))
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	mi, err := decodePostings(data, len(ix.byLang[lang]))
	if err != nil {
		return fmt.Errorf("search index %s: %w", p, err)
	}
	ix.mem[lang] = mi
	return nil
}
