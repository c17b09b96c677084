// Package manifest reads the manifest of harvested messages: for each program
// whose source prints GPU peer-to-peer, IPC, shared-memory, NVLS or topology
// messages, every such line with its file, line and format string, and the
// KB entry that covers it or why it is out of scope. It checks that each
// named entry's pattern matches the line as the program prints it, and counts
// coverage per source; it knows nothing of pages or search.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Source is one program's harvest, one file of the manifest.
type Source struct {
	Name       string            `json:"source"`     // NCCL, PyTorch, Open MPI, ...
	Repository string            `json:"repository"` // https://github.com/NVIDIA/nccl
	Ref        string            `json:"ref"`        // the tag or commit the lines are read at
	Printed    map[string]string `json:"printed"`    // level -> how the program decorates a message: "{file}:{line} NCCL WARN {message}"; also {base} and {func}
	StripPath  string            `json:"strip_path"` // prefix the program drops from {file} (NCCL prints transport/p2p.cc for src/transport/p2p.cc)
	Scope      string            `json:"scope"`      // which files and which of their lines were harvested
	Messages   []Message         `json:"messages"`   //

	File string `json:"-"` // file name inside the manifest folder, for messages
}

// Message is one line of source code that prints a message.
type Message struct {
	File       string   `json:"file"`                   // path in the repository
	Line       int      `json:"line"`                   // 1-based line of the call
	Ref        string   `json:"ref,omitempty"`          // overrides the source's ref for this line
	Level      string   `json:"level"`                  // WARN, INFO, ERROR, exception, ... (a key of Printed, or none)
	Function   string   `json:"function,omitempty"`     // the enclosing function, for programs that print __FUNCTION__ ({func})
	Message    string   `json:"message"`                // the format string as written in the source
	Args       []string `json:"args,omitempty"`         // values for the placeholders, in order; defaults otherwise
	Entry      string   `json:"entry,omitempty"`        // the KB entry that covers it
	OutOfScope string   `json:"out_of_scope,omitempty"` // why no entry is meant to cover it
	Gap        string   `json:"gap,omitempty"`          // in scope, no entry yet: what one would say
}

// URL is the address of the message's line at the harvested ref.
func (s *Source) URL(m Message) string {
	ref := s.Ref
	if m.Ref != "" {
		ref = m.Ref
	}
	return fmt.Sprintf("%s/blob/%s/%s#L%d", strings.TrimSuffix(s.Repository, "/"), ref, m.File, m.Line)
}

// Load reads every manifest file (<source>.json) at the root of fsys, the
// repository's manifest/ folder, checking that each message has its place,
// its text and exactly one of entry, out_of_scope and gap.
func Load(fsys fs.FS) ([]*Source, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	var out []*Source
	var problems []string
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", name, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var s Source
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("manifest %s: %w", name, err)
		}
		s.File = name
		if s.Name == "" || !strings.HasPrefix(s.Repository, "https://") || s.Ref == "" {
			problems = append(problems, fmt.Sprintf("%s: source, repository (https://...) and ref are required", name))
		}
		for i, m := range s.Messages {
			where := fmt.Sprintf("%s: messages[%d] (%s:%d)", name, i, m.File, m.Line)
			n := 0
			for _, v := range []string{m.Entry, m.OutOfScope, m.Gap} {
				if v != "" {
					n++
				}
			}
			switch {
			case m.File == "" || m.Line < 1:
				problems = append(problems, where+": file and line are required")
			case m.Message == "":
				problems = append(problems, where+": message is empty")
			case n != 1:
				problems = append(problems, where+": exactly one of entry, out_of_scope and gap is required")
			}
		}
		out = append(out, &s)
	}
	if len(problems) > 0 {
		return out, fmt.Errorf("manifest:\n%s", strings.Join(problems, "\n"))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Line is the message as the program prints it: the format string with
// plausible values in its placeholders, inside the decoration of its level.
func (s *Source) Line(m Message) string {
	msg := Instantiate(m.Message, m.Args)
	tmpl, ok := s.Printed[m.Level]
	if !ok {
		return msg
	}
	file := strings.TrimPrefix(m.File, s.StripPath)
	r := strings.NewReplacer("{file}", file, "{base}", path.Base(m.File), "{line}", fmt.Sprint(m.Line), "{func}", m.Function, "{message}", msg)
	return r.Replace(tmpl)
}

// placeholder finds printf verbs (%d, %lu, %.2f, %s, %p, %%) and the brace
// fields of Python and fmt-style formats ({}, {rank}, {:.2f}).
var placeholder = regexp.MustCompile(`%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L|PRI[a-z0-9]+)?[diouxXeEfgGcspnm%]|\{[A-Za-z0-9_.\[\]'()]*(?::[^{}]*)?\}`)

// Instantiate fills a format string's placeholders with args in order, then
// with a plausible value for the verb: a number for %d, a word for %s, an
// address for %p, a hexadecimal bus id for %x.
func Instantiate(format string, args []string) string {
	i := 0
	return placeholder.ReplaceAllStringFunc(format, func(p string) string {
		if p == "%%" {
			return "%"
		}
		if i < len(args) {
			i++
			return args[i-1]
		}
		switch p[len(p)-1] {
		case 'd', 'i', 'u':
			return "3"
		case 'x', 'X':
			return "81000"
		case 'o':
			return "7"
		case 'p':
			return "0x7f3a2c000000"
		case 'e', 'E', 'f', 'g', 'G':
			return "1.5"
		case 'c':
			return "x"
		case 's':
			return "value"
		}
		return "3" // a brace field: most are numbers (ranks, devices, sizes)
	})
}

// Count is one source's coverage.
type Count struct {
	Source     string
	Messages   int // lines harvested
	Covered    int // with an entry
	OutOfScope int // with a reason no entry is meant to cover them
	Gaps       int // in scope, no entry yet
}

// Counts tallies each source's messages, in the order of sources.
func Counts(sources []*Source) []Count {
	var out []Count
	for _, s := range sources {
		c := Count{Source: s.Name, Messages: len(s.Messages)}
		for _, m := range s.Messages {
			switch {
			case m.Entry != "":
				c.Covered++
			case m.OutOfScope != "":
				c.OutOfScope++
			default:
				c.Gaps++
			}
		}
		out = append(out, c)
	}
	return out
}
