package kb

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// lineCol converts a byte offset into 1-based line and column.
func lineCol(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data))) // an empty file's syntax error is at offset 0, so off-1 is -1
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - bytes.LastIndexByte(before, '\n')
	return line, col
}

// locate returns the byte offset of the value at the JSON-pointer path, or of
// its key where the value sits in an object, so that a message can point at
// the line a maintainer must edit. Where the path goes missing it returns the
// deepest enclosing value that exists. data must be valid JSON.
func locate(data []byte, path []string) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	return seek(data, dec, path)
}

// valueStart skips whitespace and separators after the decoder's offset.
func valueStart(data []byte, off int64) int {
	i := int(off)
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
			continue
		}
		break
	}
	return i
}

func seek(data []byte, dec *json.Decoder, path []string) int {
	start := valueStart(data, dec.InputOffset())
	if len(path) == 0 {
		return start
	}
	tok, err := dec.Token()
	if err != nil {
		return start
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			keyStart := valueStart(data, dec.InputOffset())
			key, err := dec.Token()
			if err != nil {
				return start
			}
			if key == path[0] {
				if len(path) == 1 {
					return keyStart
				}
				return seek(data, dec, path[1:])
			}
			if skip(dec) != nil {
				return start
			}
		}
	case json.Delim('['):
		want, err := strconv.Atoi(path[0])
		if err != nil {
			return start
		}
		for i := 0; dec.More(); i++ {
			if i == want {
				return seek(data, dec, path[1:])
			}
			if skip(dec) != nil {
				return start
			}
		}
	}
	return start
}

// skip consumes one whole value.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
