package diagnose

import (
	"errors"
	"io"
	"runtime"
	"sync/atomic"
)

// Finding the literals of a line is most of what reading it costs, and one
// line's literals do not depend on another's: while the lines are read in
// order on one goroutine, workers find the literals of the lines ahead, a
// batch of lines at a time. The paste extractor reads the same batches in
// order on a goroutine of its own: its facts are wanted only at the end, so
// it need not keep pace with the matcher line by line.
const (
	batchBytes = 256 << 10 // lines copied into a batch before it is scanned
	maxWorkers = 4
)

// Procs is how many processors explain keeps busy: the workers that find
// the literals ahead, the goroutine that reads the lines for messages and
// the one that reads them for facts. More add no speed, only their own
// caches and collector workers to the memory.
const Procs = maxWorkers + 2

// batch is a run of lines, copied, and the literals found in each.
type batch struct {
	buf     []byte
	entries []batchEntry
	hits    []int32
	scanned chan struct{} // closed when hits are found
	err     error         // the reading's end, in the last batch: nil at the end of the input
	readers atomic.Int32  // goroutines still reading it: the last gives it back
}

// batchEntry is a line, or where a long line ended (length > 0).
type batchEntry struct {
	n                int
	start, end       int // the line in buf
	hitStart, hitEnd int // its literals in hits
	length           int64
}

var errStopped = errors.New("stopped")

// eachLineAhead is eachLine, with each line's literals found ahead on other
// goroutines: fn is called while r.pre holds them. The lines, their numbers
// and the calls of long are those of eachLine, in the same order. After fn
// returns an error, up to a batch more of in may be read, by a goroutine
// that ends then. With an extractor, it has read every line of in when
// eachLineAhead returns nil.
func (r *lineReader) eachLineAhead(in io.Reader, fn func(n int, line []byte) error, long func(n int, length int64)) error {
	workers := max(1, min(maxWorkers, runtime.GOMAXPROCS(0)-1))
	// Batches in flight are bounded, and so is memory: a batch holds
	// batchBytes, or one piece of a long line.
	free := make(chan *batch, workers+2)
	for range cap(free) {
		free <- &batch{}
	}
	readers := int32(1)
	if r.x != nil {
		readers = 2
	}
	release := func(b *batch) {
		if b.readers.Add(-1) == 0 {
			free <- b // never blocks: it came from there
		}
	}
	ordered := make(chan *batch, cap(free))
	work := make(chan *batch, cap(free))
	extract := make(chan *batch, cap(free))
	stop := make(chan struct{})
	extracted := make(chan struct{})
	if r.x == nil {
		close(extract)
		close(extracted)
	} else {
		r.xAhead = true
		defer func() { r.xAhead = false }()
		go r.extractAhead(extract, release, extracted)
	}
	for range workers {
		go func() {
			for b := range work {
				for i := range b.entries {
					e := &b.entries[i]
					e.hitStart = len(b.hits)
					if e.length == 0 {
						r.ac.Scan(b.buf[e.start:e.end], func(lit int) { b.hits = append(b.hits, int32(lit)) })
					}
					e.hitEnd = len(b.hits)
				}
				close(b.scanned)
			}
		}()
	}
	go func() {
		defer close(ordered)
		defer close(work)
		if r.x != nil {
			defer close(extract)
		}
		var cur *batch
		take := func() bool {
			select {
			case cur = <-free:
				cur.buf, cur.entries, cur.hits, cur.err = cur.buf[:0], cur.entries[:0], cur.hits[:0], nil
				cur.scanned = make(chan struct{})
				cur.readers.Store(readers)
				return true
			case <-stop:
				return false
			}
		}
		send := func() bool {
			work <- cur // never blocks: at most cap(free) batches exist
			if r.x != nil {
				extract <- cur // nor does this
			}
			select {
			case ordered <- cur:
				return true
			case <-stop:
				return false
			}
		}
		if !take() {
			return
		}
		err := eachLine(in, func(n int, line []byte) error {
			start := len(cur.buf)
			cur.buf = append(cur.buf, line...)
			cur.entries = append(cur.entries, batchEntry{n: n, start: start, end: len(cur.buf)})
			if len(cur.buf) >= batchBytes {
				if !send() || !take() {
					return errStopped
				}
			}
			return nil
		}, func(n int, length int64) {
			cur.entries = append(cur.entries, batchEntry{n: n, length: length})
		})
		if errors.Is(err, errStopped) {
			return
		}
		cur.err = err
		send()
	}()
	defer close(stop)
	for b := range ordered {
		<-b.scanned
		for _, e := range b.entries {
			if e.length > 0 {
				long(e.n, e.length)
				continue
			}
			r.pre, r.ahead = b.hits[e.hitStart:e.hitEnd], true
			err := fn(e.n, b.buf[e.start:e.end])
			r.pre, r.ahead = nil, false
			if err != nil {
				return err
			}
		}
		if b.err != nil {
			return b.err
		}
		release(b)
	}
	// The input has ended: its facts are wanted once the extractor has
	// read it all. (After an error they are not, and nothing waits for a
	// reader that may still block.)
	<-extracted
	return nil
}

// extractAhead gives the lines of each batch from in, in order, to the
// extractor, with the extractor's literals found ahead, and releases the
// batch; it closes done when in is closed and read.
func (r *lineReader) extractAhead(in <-chan *batch, release func(*batch), done chan<- struct{}) {
	defer close(done)
	from := r.split + r.layers
	for b := range in {
		<-b.scanned
		for _, e := range b.entries {
			if e.length > 0 {
				continue
			}
			r.x.Begin()
			for _, lit := range b.hits[e.hitStart:e.hitEnd] {
				if int(lit) >= from {
					r.x.Found(int(lit) - from)
				}
			}
			r.x.End(e.n, b.buf[e.start:e.end])
		}
		release(b)
	}
}
