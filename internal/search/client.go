package search

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"regexp/syntax"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/p2pkb/p2pkb/internal/parallel"
)

// The client index is a set of script files per language, loaded with
// <script> so that it works from file:// too. Terms are spread over shards
// by hash, so a query loads only the shards of its own terms:
//
//	search/<lang>/meta.js   counts, and the patterns no term can find
//	search/<lang>/t<N>.js   postings of the terms hashed to N, and the
//	                        signature patterns whose anchor term hashes to N
//	search/<lang>/v<N>.js   terms by their first two characters, for typos
//	search/<lang>/d<N>.js   result titles and paths, docChunk at a time
//
// Each file calls p2pkbSearch.add(lang, name, data) (assets/search.js).

// BM25 parameters; assets/search.js uses the precomputed weights.
const (
	k1         = 1.2
	bm25b      = 0.75
	docChunk   = 4    // documents per result file: a query loads the files of its results, snippets and all
	shardBytes = 2000 // target size of a term shard
	vocabBytes = 3000 // target size of a vocabulary shard
	// maxPostings caps a term's postings at its best-weighted documents. A
	// term in thousands of documents ranks nothing by itself, and its full
	// list would be most of what a query downloads; df keeps its idf right.
	maxPostings = 128
	fuzzyMin    = 5 // terms this long are corrected for one typo
	// weightScale turns weights into the integers the files hold.
	weightScale = 100
)

// Hash is FNV-1a of the term's UTF-8 bytes, as assets/search.js computes it.
func Hash(term string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(term))
	return h.Sum32()
}

// ClientStats says how big the client index came out.
type ClientStats struct {
	Files      int
	Bytes      int
	TermShards int
}

type clientTerm struct {
	postings []int32 // docNum, weight, docNum, weight, ... docNum ascending
	doc      int32   // while weighing: the last document with the term, not yet in postings
	w        float64 // and its weight so far
}

// WriteClient writes the client index of every language through emit.
func WriteClient(docs []Doc, emit func(name string, data []byte) error) (ClientStats, error) {
	return NewCorpus(docs).WriteClient(emit)
}

// WriteClient writes the client index of every language through emit,
// from the analysis kept (Keep) where there is one.
func (c *Corpus) WriteClient(emit func(name string, data []byte) error) (ClientStats, error) {
	var st ClientStats
	for _, lang := range c.langs {
		a := c.kept[lang]
		if a == nil {
			var err error
			if a, err = c.analyze(lang); err != nil {
				return st, err
			}
		}
		if err := writeLang(a, emit, &st, false); err != nil {
			return st, err
		}
	}
	return st, nil
}

// writeLang writes a language's client index through emit, which is
// called from several goroutines at once when concurrent says it may be.
func writeLang(a *analyzed, emit func(string, []byte) error, st *ClientStats, concurrent bool) error {
	files, shards, err := clientFiles(a)
	if err != nil {
		return err
	}
	st.TermShards += shards
	return writeClientFiles(a.lang, files, emit, st, concurrent)
}

// clientData is one file of a language's client index before it is encoded.
type clientData struct {
	name string // t<n> (postings), v<n> (vocabulary), d<n> (documents), meta
	data any
}

// writeClientFiles encodes and writes the files on a few goroutines:
// writing thousands of small files waits on the file system more than it
// computes, and one goroutine left this the last of a build.
func writeClientFiles(lang string, files []clientData, emit func(string, []byte) error, st *ClientStats, concurrent bool) error {
	var mu sync.Mutex
	return parallel.For(context.Background(), len(files), clientWriters, func(_, i int) error {
		f := files[i]
		js, err := clientFile(lang, f.name, f.data)
		if err != nil {
			return err
		}
		if !concurrent {
			mu.Lock()
			defer mu.Unlock()
		}
		if err := emit("search/"+lang+"/"+f.name+".js", js); err != nil {
			return err
		}
		if concurrent {
			mu.Lock()
			defer mu.Unlock()
		}
		st.Files++
		st.Bytes += len(js)
		return nil
	})
}

// clientFiles makes the files of a language's client index, and says how
// many term shards they have.
func clientFiles(a *analyzed) ([]clientData, int, error) {
	docs, per, avg := a.docs, a.fields, a.avg
	var files []clientData
	put := func(name string, data any) { files = append(files, clientData{name, data}) }

	// A term's weight in a document, summed over its fields in their
	// order: each term holds the sum for the document being read, and
	// posts it when a later document has the term, or at the end.
	terms := map[string]*clientTerm{}
	tf := make([]float64, len(fields))
	lengths := make([]float64, len(fields))
	for i := range docs {
		for f, ft := range per[i] {
			clear(tf)
			clear(lengths)
			lengths[f] = float64(ft.n)
			for _, t := range ft.terms {
				tf[f] = float64(t.n)
				w := weight(tf, lengths, avg)
				ct := terms[t.term]
				switch {
				case ct == nil:
					ct = &clientTerm{doc: int32(i), w: w}
					terms[t.term] = ct
				case ct.doc == int32(i):
					ct.w += w
				default:
					ct.postings = append(ct.postings, ct.doc, int32(quantize(ct.w)))
					ct.doc, ct.w = int32(i), w
				}
			}
		}
	}
	for _, ct := range terms {
		ct.postings = append(ct.postings, ct.doc, int32(quantize(ct.w)))
	}

	if err := a.ctx.Err(); err != nil {
		return nil, 0, err
	}

	// Anchors are chosen by the true document frequency, before truncation.
	anchors := make([]string, len(docs))
	for i, d := range docs {
		if d.Regex != nil {
			anchors[i] = anchorTerm(d.Regex, terms)
		}
	}

	// Common terms keep their best postings only; the rest stay exact.
	df := map[string]int{}
	var keys []uint64
	for t, ct := range terms {
		n := len(ct.postings) / 2
		if n <= maxPostings {
			continue
		}
		df[t] = n
		// Best first (weight down, then document up) as one integer each,
		// and only the best selected, not all sorted: the common terms'
		// postings are most of the client index.
		keys = keys[:0]
		for k := 0; k < n; k++ {
			keys = append(keys, uint64(math.MaxInt32-ct.postings[2*k+1])<<32|uint64(ct.postings[2*k]))
		}
		best := smallest(keys, maxPostings)
		slices.SortFunc(best, func(x, y uint64) int { return cmp.Compare(uint32(x), uint32(y)) })
		ct.postings = ct.postings[:0]
		for _, k := range best {
			ct.postings = append(ct.postings, int32(uint32(k)), int32(math.MaxInt32-(k>>32)))
		}
	}

	// Shards sized to the postings they hold.
	total := 0
	for t, ct := range terms {
		total += len(t) + 6 + 5*len(ct.postings)
	}
	shards := pow2(total / shardBytes)
	shard := make([]map[string][]int32, shards)
	regexes := make([][][5]any, shards)
	for i := range shard {
		shard[i] = map[string][]int32{}
	}
	for t, ct := range terms {
		// Doc numbers as gaps keep the files small; nothing reads the
		// postings after this.
		p := ct.postings
		for k := len(p) - 2; k >= 2; k -= 2 {
			p[k] -= p[k-2]
		}
		shard[Hash(t)%uint32(shards)][t] = p
	}

	// A pattern row: the document, the pattern, and what ranks its matches
	// (see patternScore): reports, generic (1) or not (0), confidence.
	var always [][5]any
	for i, d := range docs {
		if d.Regex == nil {
			continue
		}
		anchor := anchors[i]
		if anchor == "" {
			always = append(always, patternRow(i, d))
			continue
		}
		s := Hash(anchor) % uint32(shards)
		regexes[s] = append(regexes[s], patternRow(i, d))
	}
	dfs := make([]map[string]int, shards)
	for t, n := range df {
		s := Hash(t) % uint32(shards)
		if dfs[s] == nil {
			dfs[s] = map[string]int{}
		}
		dfs[s][t] = n
	}
	for i := range shard {
		data := map[string]any{"p": shard[i]}
		if dfs[i] != nil {
			data["df"] = dfs[i]
		}
		if len(regexes[i]) > 0 {
			data["r"] = regexes[i]
		}
		put(fmt.Sprintf("t%d", i), data)
	}

	// Vocabulary by two-character prefix, for typo correction.
	vtotal := 0
	for t := range terms {
		vtotal += len(t) + 3
	}
	vshards := pow2(vtotal / vocabBytes)
	vocab := make([][]string, vshards)
	for t := range terms {
		if len([]rune(t)) < fuzzyMin-1 || isHan(t) {
			continue
		}
		v := Hash(prefix(t)) % uint32(vshards)
		vocab[v] = append(vocab[v], t)
	}
	for i := range vocab {
		sort.Strings(vocab[i])
		if vocab[i] == nil {
			vocab[i] = []string{}
		}
		put(fmt.Sprintf("v%d", i), vocab[i])
	}

	for c := 0; c*docChunk < len(docs); c++ {
		var rows [][]any
		for _, d := range docs[c*docChunk : min(len(docs), (c+1)*docChunk)] {
			d.snippets() // made by the analysis, unless the caller's documents
			row := []any{d.ID, d.Kind, d.Title, d.Path, d.Code, d.Gist, d.Best}
			if d.Kind == "entry" {
				// What ranks the entry among the causes of a line (see
				// Before), also where the page finds it by its error code.
				row = append(row, d.Versions, d.AppliesWhen, d.Reports, genericMark(d), d.Confidence)
				if len(d.APIs) > 0 || d.ProgramSide {
					row = append(row, strings.Join(d.APIs, " "))
				}
				if d.ProgramSide {
					// What orders the entries closest to words that speak
					// of no path between GPUs (diagnose's byWords).
					row = append(row, 1)
				}
			}
			rows = append(rows, row)
		}
		put(fmt.Sprintf("d%d", c), rows)
	}
	if always == nil {
		always = [][5]any{}
	}
	symptoms, notes := symptomRows(docs)
	put("meta", map[string]any{
		"n": len(docs), "shards": shards, "vshards": vshards, "chunk": docChunk, "scale": weightScale, "fuzzy": fuzzyMin, "fuzzyTerms": maxFuzzyTerms, "always": always,
		"symptoms": symptoms, "notes": notes,
	})
	return files, shards, nil
}

// symptomRows are what the search page answers a paste with no error line
// from, as explain does (internal/diagnose, symptoms): every entry with a
// condition, as [document, condition], in the order SymptomBefore ranks the
// causes of one symptom, the page finding among them the entries whose
// condition reads a symptom's fact; and the ids of the notes, whose lines
// are no error (results from p2pkb serve's API carry ids, not documents).
func symptomRows(docs []Doc) ([][]any, []string) {
	var idx []int
	notes := []string{}
	for i, d := range docs {
		if d.Kind != "entry" {
			continue
		}
		if d.Symptom.Note {
			notes = append(notes, d.ID)
		}
		if strings.TrimSpace(d.AppliesWhen) != "" {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return SymptomBefore(docs[idx[a]].Symptom, docs[idx[b]].Symptom) })
	rows := make([][]any, 0, len(idx))
	for _, i := range idx {
		row := []any{i, docs[i].AppliesWhen}
		if docs[i].ProgramSide {
			// What orders a hang's causes in a paste that shows nothing
			// of the path between GPUs (diagnose's symptoms).
			row = append(row, 1)
		}
		rows = append(rows, row)
	}
	return rows, notes
}

// clientWriters is how many goroutines write a language's client files.
const clientWriters = 4

// clientFile is one file of the client index: a script that hands data to
// p2pkbSearch.add.
func clientFile(lang, name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil {
		return nil, err
	}
	body := bytes.TrimSpace(buf.Bytes())
	js := make([]byte, 0, len(body)+len(lang)+len(name)+32)
	js = append(js, "p2pkbSearch.add("...)
	js = strconv.AppendQuote(js, lang)
	js = append(js, ',')
	js = strconv.AppendQuote(js, name)
	js = append(js, ',')
	js = append(js, body...)
	js = append(js, ");\n"...)
	return js, nil
}

// smallest reorders keys, which are distinct, so that its first k are the
// k smallest, and returns them, in no order (quickselect).
func smallest(keys []uint64, k int) []uint64 {
	lo, hi := 0, len(keys)-1
	for lo < hi {
		// The median of three as pivot, moved to hi.
		mid := lo + (hi-lo)/2
		if keys[mid] < keys[lo] {
			keys[mid], keys[lo] = keys[lo], keys[mid]
		}
		if keys[hi] < keys[lo] {
			keys[hi], keys[lo] = keys[lo], keys[hi]
		}
		if keys[mid] < keys[hi] {
			keys[mid], keys[hi] = keys[hi], keys[mid]
		}
		pivot, p := keys[hi], lo
		for i := lo; i < hi; i++ {
			if keys[i] < pivot {
				keys[i], keys[p] = keys[p], keys[i]
				p++
			}
		}
		keys[p], keys[hi] = keys[hi], keys[p]
		switch {
		case p == k || p == k-1:
			return keys[:k]
		case p < k:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
	return keys[:k]
}

// prefix is the first two characters of a term.
func prefix(t string) string {
	r := []rune(t)
	return string(r[:min(2, len(r))])
}

func pow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// anchorTerm picks the rarest term of the pattern's required literals:
// any text the pattern matches contains that literal, hence that term, so a
// query loads the shard holding the pattern. "" when the pattern has no
// such term.
func anchorTerm(p *Pattern, df map[string]*clientTerm) string {
	best, bestDF := "", math.MaxInt
	for _, t := range p.anchorTerms() {
		n := math.MaxInt - 1
		if ct := df[t]; ct != nil {
			n = len(ct.postings) / 2
		}
		if n < bestDF {
			best, bestDF = t, n
		}
	}
	return best
}

// anchorTerms lists, in order, the terms of the pattern's required literals
// that can anchor it. Terms cut by the literal's ends are skipped.
// Parsing the pattern was most of choosing anchors, and both languages'
// documents share the pattern, so this is done once.
func (p *Pattern) anchorTerms() []string {
	p.anchorOnce.Do(func() {
		re, err := syntax.Parse(p.expr, syntax.Perl)
		if err != nil {
			return
		}
		for _, lit := range requiredLiterals(re.Simplify()) {
			for _, tok := range Analyze(lit.text) {
				if tok.Start == 0 && !lit.wordStart || tok.End == len(lit.text) && !lit.wordEnd || isNumber(tok.Term) {
					continue // long queries drop numbers (queryTerms), so a number cannot anchor
				}
				p.anchors = append(p.anchors, strings.Clone(tok.Term))
			}
		}
	})
	return p.anchors
}

type literal struct {
	text               string
	wordStart, wordEnd bool // the literal's first (last) character starts (ends) a word for sure
}

// requiredLiterals lists the literal runs every match must contain: those in
// the top-level concatenation of the pattern.
func requiredLiterals(re *syntax.Regexp) []literal {
	var parts []*syntax.Regexp
	switch re.Op {
	case syntax.OpConcat:
		parts = re.Sub
	case syntax.OpLiteral:
		parts = []*syntax.Regexp{re}
	case syntax.OpCapture:
		return requiredLiterals(re.Sub[0])
	default:
		return nil
	}
	var out []literal
	for i, p := range parts {
		if p.Op != syntax.OpLiteral || p.Flags&syntax.FoldCase != 0 {
			continue
		}
		text := string(p.Rune)
		// A literal at the pattern's edge or next to a non-literal may be part
		// of a longer word in the text; only a non-word neighbour in the
		// literal itself proves a word boundary.
		l := literal{text: text}
		l.wordStart = i > 0 && parts[i-1].Op == syntax.OpWordBoundary
		l.wordEnd = i+1 < len(parts) && parts[i+1].Op == syntax.OpWordBoundary
		if strings.TrimSpace(text) != "" {
			out = append(out, l)
		}
	}
	return out
}

// patternRow is a document's pattern as the client index holds it.
func patternRow(i int, d Doc) [5]any {
	return [5]any{i, d.Regex.String(), d.Reports, genericMark(d), d.Confidence}
}

// genericMark is how the client index marks an entry (see Before): 0
// specific, 1 generic, 2 generic because it answers a shape of message
// (kb.Entry.Shape).
func genericMark(d Doc) int {
	switch {
	case d.Shape:
		return 2
	case d.Generic:
		return 1
	}
	return 0
}
