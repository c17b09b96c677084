package diagnose

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/ahocorasick"
	"github.com/p2pkb/p2pkb/internal/errvocab"
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
// piece, after fn has seen its pieces; an error of fn stops the reading and
// is returned. fn must not keep line.
func eachLine(r io.Reader, fn func(n int, line []byte) error, long func(n int, length int64)) error {
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
			if err := fn(n, piece); err != nil {
				return err
			}
			carry = append(carry[:0], b[len(b)-min(len(b), overlapBytes):]...)
			length += int64(len(b))
			continue
		}
		if err := fn(n, trimEOL(piece)); err != nil {
			return err
		}
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
// the matcher's literals, the literals of the layers' line shapes
// (errvocab.Triggers) and the extractor's words.
type lineReader struct {
	m      *search.LineMatcher
	x      *paste.Extractor // nil: messages only
	ac     *ahocorasick.Automaton
	split  int  // literals below are the matcher's, from it the layers', from split+layers the extractor's
	layers int  // how many literals are the layers'
	layer  bool // the line holds a literal of a layer's shape: errvocab.Read may find something in it
	found  func(lit int)
	// ahead: the line's literals were found ahead (eachLineAhead), and
	// are pre, rather than found in the line as it is read.
	ahead bool
	pre   []int32
	// xAhead: the extractor reads the lines on a goroutine of its own
	// (eachLineAhead), not in read.
	xAhead bool
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

var layerTriggers = errvocab.Triggers()

func newLineReader(s *site.Site, lang string, x *paste.Extractor) *lineReader {
	p := &prepared
	p.Lock()
	if p.s != s || p.lang != lang {
		p.m = search.NewLineMatcher(search.PatternDocs(s, lang))
		lits := append(append([]string(nil), p.m.Literals()...), layerTriggers...)
		p.ac = ahocorasick.New(append(lits, paste.Words()...))
		p.s, p.lang = s, lang
	}
	r := &lineReader{m: p.m.Clone(), x: x, ac: p.ac, split: len(p.m.Literals()), layers: len(layerTriggers)}
	p.Unlock()
	r.found = r.foundLit
	return r
}

func (r *lineReader) foundLit(lit int) {
	switch {
	case lit < r.split:
		r.m.Found(lit)
	case lit < r.split+r.layers:
		r.layer = true
	case r.x != nil && !r.xAhead:
		r.x.Found(lit - r.split - r.layers)
	}
}

// read gives line n to the extractor and returns the entries that match it
// (see search.LineMatcher.Match for done).
// After read, r.layer tells whether the line holds a layer's literal; such
// a line is answered with every entry it matches, done or not, so that a
// known message repeated is not taken for one no entry names.
func (r *lineReader) read(n int, line []byte, done func(*search.Doc) bool) []search.LineMatch {
	r.layer = false
	r.m.Begin()
	xHere := r.x != nil && !r.xAhead
	if xHere {
		r.x.Begin()
	}
	if r.ahead {
		for _, lit := range r.pre {
			r.found(int(lit))
		}
	} else {
		r.ac.Scan(line, r.found)
	}
	if xHere {
		r.x.End(n, line)
	}
	if r.layer {
		done = nil
	}
	return r.m.End(line, done)
}

// NotTextError is the answer to an input that is not text: a binary or
// compressed file given for a log. It is refused whole rather than read in
// part.
type NotTextError struct {
	Line   int    // the line, from 1
	Offset int    // the byte of the line
	Why    string // what is there
}

func (e *NotTextError) Error() string {
	return fmt.Sprintf("the input is not text: line %d, byte %d: %s; pass a log as text (not a binary, compressed or core file)", e.Line, e.Offset+1, e.Why)
}

// headBytes of the input are checked in full for what text does not hold;
// after them, only for NUL bytes, which is nearly free.
const headBytes = 64 << 10

// textCheck returns a *NotTextError when line n is not text: it holds a NUL
// byte, or, within the first headBytes of the input (read is how many came
// before), control characters or invalid UTF-8 in more than a tenth of it.
func textCheck(n int, line []byte, read int64) error {
	if i := bytes.IndexByte(line, 0); i >= 0 {
		return &NotTextError{n, i, "a NUL byte"}
	}
	if read >= headBytes || len(line) < 16 {
		return nil
	}
	bad, first := 0, -1
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\t' && r != '\r' && r != 0x1b || r == 0x7f {
			bad++
			if first < 0 {
				first = i
			}
		}
		i += size
	}
	if bad*10 > len(line) {
		return &NotTextError{n, first, fmt.Sprintf("%d of its %d bytes are control characters or not UTF-8", bad, len(line))}
	}
	return nil
}
