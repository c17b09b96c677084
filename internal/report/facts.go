package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Found is what a paste says about the machine: the facts recognized in it
// and, when a probe report is given too, where the two disagree.
type Found struct {
	Facts     []paste.Fact     `json:"facts"`
	Conflicts []paste.Conflict `json:"conflicts"`
}

var factTexts = map[string]map[string]string{
	"en": {"facts": "Facts found in the input", "line": "line %d", "conflicts": "The probe report disagrees with the input; its facts are used:",
		"conflict": "the log says %s %s (line %d), the probe found %s on this machine"},
	"zh": {"facts": "输入中找到的事实", "line": "第 %d 行", "conflicts": "探针报告与输入不一致，以探针报告为准：",
		"conflict": "日志说 %s 是 %s（第 %d 行），探针在这台机器上找到的是 %s"},
}

func factText(lang, key string) string {
	if t, ok := factTexts[lang][key]; ok {
		return t
	}
	return factTexts["en"][key]
}

// WriteFacts prints the facts of a paste with their lines, then the
// conflicts with a probe report; nothing when there are none.
func WriteFacts(w io.Writer, f Found, lang string) {
	if len(f.Facts) == 0 && len(f.Conflicts) == 0 {
		return
	}
	if len(f.Facts) > 0 {
		fmt.Fprintf(w, "%s\n", factText(lang, "facts"))
		nw, vw := 0, 0
		for _, x := range f.Facts {
			nw, vw = max(nw, len(x.Name)), max(vw, len(x.Value))
		}
		for _, x := range f.Facts {
			line := strings.TrimSpace(strings.ReplaceAll(x.Text, "\t", " "))
			fmt.Fprintf(w, "  %-*s  %-*s  "+factText(lang, "line")+": %s\n", nw, x.Name, vw, x.Value, x.Line, line)
		}
	}
	if len(f.Conflicts) > 0 {
		fmt.Fprintf(w, "%s\n", factText(lang, "conflicts"))
		for _, c := range f.Conflicts {
			fmt.Fprintf(w, "  "+factText(lang, "conflict")+"\n", rules.Display(c.Name), c.Log, c.Line, c.Probe)
		}
	}
	fmt.Fprintln(w)
}

// ExplainFacts is Explain with the facts of the log printed first; with
// JSON the answer is {"facts", "conflicts", "explanations"}.
func ExplainFacts(w io.Writer, ix *search.Index, s *site.Site, log string, f Found, o Options) (int, error) {
	if !o.JSON {
		WriteFacts(w, f, o.Lang)
		return Explain(w, ix, s, log, o)
	}
	var buf bytes.Buffer
	n, err := Explain(&buf, ix, s, log, o)
	if err != nil {
		return n, err
	}
	return n, writeFound(w, f, "explanations", buf.Bytes())
}

// MatchFacts judges entries with a probe report's facts and the paste's:
// the probe's win where both have one, and every conflict is listed. probe
// may be nil: the paste's facts alone judge. With JSON the answer is
// {"facts", "conflicts", "entries"}.
func MatchFacts(w io.Writer, ix *search.Index, s *site.Site, probe rules.Facts, pasted []paste.Fact, input string, o Options) (int, error) {
	merged, conflicts := paste.Merge(probe, pasted)
	f := Found{Facts: pasted, Conflicts: conflicts}
	if !o.JSON {
		WriteFacts(w, f, o.Lang)
		return Match(w, ix, s, merged, input, o)
	}
	var buf bytes.Buffer
	n, err := Match(&buf, ix, s, merged, input, o)
	if err != nil {
		return n, err
	}
	return n, writeFound(w, f, "entries", buf.Bytes())
}

// foundJSON is the --json answer of explain and match.
type foundJSON struct {
	Facts        []paste.Fact     `json:"facts"`
	Conflicts    []paste.Conflict `json:"conflicts"`
	Explanations json.RawMessage  `json:"explanations,omitempty"`
	Entries      json.RawMessage  `json:"entries,omitempty"`
}

func writeFound(w io.Writer, f Found, key string, results []byte) error {
	out := foundJSON{Facts: f.Facts, Conflicts: f.Conflicts}
	if out.Facts == nil {
		out.Facts = []paste.Fact{}
	}
	if out.Conflicts == nil {
		out.Conflicts = []paste.Conflict{}
	}
	if key == "entries" {
		out.Entries = results
	} else {
		out.Explanations = results
	}
	return writeJSON(w, out)
}
