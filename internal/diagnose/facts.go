package diagnose

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
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
		// Chinese readers see each fact's name in Chinese, never its dotted name.
		name := func(x paste.Fact) string {
			if lang == "zh" {
				return rules.DisplayNameIn(x.Name, lang)
			}
			return x.Name
		}
		nw, vw := 0, 0
		for _, x := range f.Facts {
			nw, vw = max(nw, cells(name(x))), max(vw, len(x.Value))
		}
		for _, x := range f.Facts {
			line := strings.TrimSpace(strings.ReplaceAll(x.Text, "\t", " "))
			n := name(x)
			fmt.Fprintf(w, "  %s%s  %-*s  "+factText(lang, "line")+": %s\n", n, strings.Repeat(" ", nw-cells(n)), vw, x.Value, x.Line, line)
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

// found is what the extractor gathered from the input, with where the
// machine's facts disagree.
func found(o Options, machine rules.Facts) Found {
	if o.Paste == nil {
		return Found{Facts: []paste.Fact{}, Conflicts: []paste.Conflict{}}
	}
	pf := o.Paste.Facts()
	_, conflicts := paste.Merge(machine, pf)
	if pf == nil {
		pf = []paste.Fact{}
	}
	if conflicts == nil {
		conflicts = []paste.Conflict{}
	}
	return Found{Facts: pf, Conflicts: conflicts}
}

// cells is how many terminal columns s takes: two for a wide (Han) character.
func cells(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.Is(unicode.Han, r) || r >= 0xFF01 && r <= 0xFF60 {
			n++
		}
	}
	return n
}
