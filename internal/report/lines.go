package report

import (
	"bufio"
	"bytes"
	"errors"
	"io"
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
