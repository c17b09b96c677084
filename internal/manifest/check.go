package manifest

import (
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// Problem is a manifest line whose entry does not cover it.
type Problem struct {
	Source string
	URL    string
	Line   string // the message as printed, with its placeholders filled
	Entry  string
	Why    string // unknown entry, or the pattern does not match
}

func (p Problem) String() string {
	return fmt.Sprintf("%s %s: entry %s %s\n\tline: %s", p.Source, p.URL, p.Entry, p.Why, p.Line)
}

// Check returns every message that names an entry the KB lacks, or whose
// printed line the entry's pattern does not match.
func Check(k *kb.KB, sources []*Source) ([]Problem, error) {
	compiled := map[string]*regexp.Regexp{}
	var out []Problem
	for _, s := range sources {
		for _, m := range s.Messages {
			if m.Entry == "" {
				continue
			}
			p := Problem{Source: s.Name, URL: s.URL(m), Line: s.Line(m), Entry: m.Entry}
			e, ok := k.ByID[m.Entry]
			if !ok {
				p.Why = "is not in the KB"
				out = append(out, p)
				continue
			}
			re, err := pattern(compiled, e)
			if err != nil {
				return nil, err
			}
			if !re.MatchString(p.Line) {
				p.Why = "has a pattern that does not match the line"
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// MatchedBy lists the entries whose pattern matches the printed line of a
// message, in KB order: for a gap, the entries that may already cover it.
func MatchedBy(k *kb.KB, s *Source, m Message) ([]string, error) {
	line := s.Line(m)
	var out []string
	for _, e := range k.Entries {
		re, err := kb.CompilePattern(e.Regex)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.ID, err)
		}
		if re.MatchString(line) {
			out = append(out, e.ID)
		}
	}
	return out, nil
}

func pattern(cache map[string]*regexp.Regexp, e *kb.Entry) (*regexp.Regexp, error) {
	if re, ok := cache[e.ID]; ok {
		return re, nil
	}
	re, err := kb.CompilePattern(e.Regex)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.ID, err)
	}
	cache[e.ID] = re
	return re, nil
}

// WriteCounts prints one row per source and a total: messages harvested,
// covered by an entry, out of scope, and in scope without an entry.
func WriteCounts(w io.Writer, counts []Count) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "source\tmessages\tcovered\tout of scope\tno entry yet\t")
	var t Count
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", c.Source, c.Messages, c.Covered, c.OutOfScope, c.Gaps)
		t.Messages += c.Messages
		t.Covered += c.Covered
		t.OutOfScope += c.OutOfScope
		t.Gaps += c.Gaps
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t\n", t.Messages, t.Covered, t.OutOfScope, t.Gaps)
	return tw.Flush()
}

// Audit loads the KB of kbFS and the manifest of manifestFS, prints the
// counts per source to w, and returns an error listing every message whose
// entry does not cover it.
func Audit(w io.Writer, kbFS, manifestFS fs.FS) error {
	k, err := kb.Load(kbFS)
	if err != nil {
		return err
	}
	sources, err := Load(manifestFS)
	if err != nil {
		return err
	}
	if err := WriteCounts(w, Counts(sources)); err != nil {
		return err
	}
	problems, err := Check(k, sources)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		lines := make([]string, len(problems))
		for i, p := range problems {
			lines[i] = p.String()
		}
		return fmt.Errorf("%d manifest messages are not covered by the entry they name:\n%s", len(problems), strings.Join(lines, "\n"))
	}
	return nil
}
