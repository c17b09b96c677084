package report

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/p2pkb/p2pkb/internal/ahocorasick"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// A log is read a piece at a time, so memory stays flat whatever its size.
// A line longer than a piece (a JSON document on one line) is read in
// pieces that overlap, so that a message across the boundary of two pieces
// is still whole in one of them unless it is longer than the overlap.
const (
	pieceBytes   = 1 << 20
	overlapBytes = 4 << 10
)

// eachLine calls fn with every line of r (without its line ending), numbered
// from 1, and long with the number and length of every line longer than a
// piece, after fn has seen its pieces. fn must not keep line.
func eachLine(r io.Reader, fn func(n int, line []byte), long func(n int, length int64)) error {
	br := bufio.NewReaderSize(r, pieceBytes)
	n := 0
	var carry, joined []byte // the end of a long line's previous piece; it and the next piece
	var length int64         // bytes of the long line read so far; 0 when not in one
	for {
		b, err := br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return err
		}
		if len(b) == 0 && errors.Is(err, io.EOF) {
			if length > 0 { // a long line ended with the input
				long(n, length)
			}
			return nil
		}
		if length == 0 {
			n++
		}
		piece := b
		if length > 0 {
			joined = append(append(joined[:0], carry...), b...)
			piece = joined
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			fn(n, piece)
			carry = append(carry[:0], b[len(b)-min(len(b), overlapBytes):]...)
			length += int64(len(b))
			continue
		}
		fn(n, trimEOL(piece))
		if length > 0 {
			long(n, length+int64(len(bytes.TrimRight(b, "\r\n"))))
			length = 0
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lineReader reads each line for the known messages and, with a paste
// extractor, for the facts: one pass of one automaton over the line finds
// both the matcher's literals and the extractor's words.
type lineReader struct {
	m     *search.LineMatcher
	x     *paste.Extractor // nil: messages only
	ac    *ahocorasick.Automaton
	split int // literals below are the matcher's, from it on the extractor's
	found func(lit int)
}

// prepared is what a catalogue's line readers share, kept for the last
// catalogue and language read: a fuzz run or a long-lived process explains
// many inputs with one catalogue, and preparing the patterns costs more than
// a short input does.
var prepared struct {
	sync.Mutex
	s    *site.Site
	lang string
	m    *search.LineMatcher // a prototype: each reader gets a Clone
	ac   *ahocorasick.Automaton
}

func newLineReader(s *site.Site, lang string, x *paste.Extractor) *lineReader {
	p := &prepared
	p.Lock()
	if p.s != s || p.lang != lang {
		p.m = search.NewLineMatcher(search.PatternDocs(s, lang))
		p.ac = ahocorasick.New(append(append([]string(nil), p.m.Literals()...), paste.Words()...))
		p.s, p.lang = s, lang
	}
	r := &lineReader{m: p.m.Clone(), x: x, ac: p.ac, split: len(p.m.Literals())}
	p.Unlock()
	r.found = r.foundLit
	return r
}

func (r *lineReader) foundLit(lit int) {
	if lit < r.split {
		r.m.Found(lit)
	} else if r.x != nil {
		r.x.Found(lit - r.split)
	}
}

// read gives line n to the extractor and returns the entries that match it
// (see search.LineMatcher.Match for done).
func (r *lineReader) read(n int, line []byte, done func(*search.Doc) bool) []search.LineMatch {
	if r.x == nil {
		return r.m.Match(line, done)
	}
	r.m.Begin()
	r.x.Begin()
	r.ac.Scan(line, r.found)
	r.x.End(n, line)
	return r.m.End(line, done)
}
