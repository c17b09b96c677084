package kb

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a KB file, placed for the person who must
// fix it: file, line and column, and the field path (workarounds[1].success_rate).
type Problem struct {
	File    string // path as the maintainer sees it, kb/cuda/x.json
	Line    int    // 1-based; 0 when the problem is the file as a whole
	Col     int    // 1-based
	Field   string // field path; empty for file-level problems
	Message string

	place *placement // where to find Line and Col, until Placed
}

// placement is how to place a problem on demand: the file, read again,
// and the field's JSON-pointer tokens.
type placement struct {
	fsys   fs.FS
	path   string
	tokens []string
}

// Placed returns p with Line and Col filled in, reading its file again if
// they were left for later (warnings are placed only when shown). A file
// that cannot be read any more leaves them 0.
func (p Problem) Placed() Problem {
	if p.place == nil {
		return p
	}
	if data, err := fs.ReadFile(p.place.fsys, p.place.path); err == nil && json.Valid(data) {
		p.Line, p.Col = lineCol(data, locate(data, p.place.tokens))
	}
	p.place = nil
	return p
}

func (p Problem) String() string {
	p = p.Placed()
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", p.Line, p.Col)
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every error found in a KB; Load returns it as its error so that
// one run of lint lists them all.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// fieldPath turns JSON-pointer tokens into the dotted form people read:
// ["workarounds","1","success_rate"] -> workarounds[1].success_rate.
func fieldPath(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if _, err := strconv.Atoi(t); err == nil {
			fmt.Fprintf(&b, "[%s]", t)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}
