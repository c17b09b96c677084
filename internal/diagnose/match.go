package diagnose

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Match is Explain for a machine: every cause's workarounds and dead ends
// are marked as applying to it or not.
func Match(w io.Writer, s *site.Site, f rules.Facts, in io.Reader, o Options) (Summary, error) {
	return answer(w, s, in, f, o, true)
}

// Marked is a workaround or dead end marked for a machine.
type Marked struct {
	Text    string   `json:"text"`
	Rate    float64  `json:"rate"` // success rate of a workaround, fail rate of a dead end
	Verdict string   `json:"verdict"`
	Reasons []string `json:"reasons,omitempty"`
}

// Applicable is an entry judged against a machine.
type Applicable struct {
	ID          string   `json:"id"`
	Signature   string   `json:"signature"`
	URL         string   `json:"url"`
	Verdict     string   `json:"verdict"` // applies, does_not_apply, unknown
	Reasons     []string `json:"reasons,omitempty"`
	Workarounds []Marked `json:"workarounds"` // those that apply first
	DeadEnds    []Marked `json:"dead_ends"`
}

// MatchAll lists every entry that may apply to a machine (applies or
// unknown), with its workarounds and dead ends marked. It returns how many
// it printed.
func MatchAll(w io.Writer, s *site.Site, f rules.Facts, o Options) (int, error) {
	if !o.JSON {
		w = escaping(w)
	}
	var ids []string
	for _, e := range s.KB.Entries {
		ids = append(ids, e.ID)
	}
	var out []Applicable
	for _, id := range ids {
		e := s.KB.ByID[id]
		var versions []string
		for _, v := range e.Versions {
			versions = append(versions, v.Version)
		}
		v, err := rules.Applies(versions, e.AppliesWhen, f)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", e.File, err)
		}
		if v.Truth == rules.False {
			continue
		}
		view := site.View(e, o.Lang, s.KB)
		a := Applicable{ID: e.ID, Signature: view.Signature, URL: link(o.BaseURL, site.EntryPath(o.Lang, e.ID)),
			Verdict: v.Truth.String(), Reasons: v.Reasons, Workarounds: []Marked{}, DeadEnds: []Marked{}}
		for _, wk := range view.Workarounds {
			a.Workarounds = append(a.Workarounds, mark(o.plain(wk.Text.Text), wk.SuccessRate, wk.Condition, f))
		}
		sort.SliceStable(a.Workarounds, func(i, j int) bool { return rank(a.Workarounds[i].Verdict) < rank(a.Workarounds[j].Verdict) })
		for _, de := range view.DeadEnds {
			a.DeadEnds = append(a.DeadEnds, mark(deadEndText(de, o), de.FailRate, de.Condition, f))
		}
		out = append(out, a)
	}
	if o.JSON {
		if out == nil {
			out = []Applicable{}
		}
		return len(out), writeJSON(w, withTest(out, o.Test, f))
	}
	writeTest(w, o.Test, f, o.Lang)
	if len(out) == 0 {
		fmt.Fprintln(w, text(o.Lang, "none_apply"))
	}
	for i, a := range out {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s %s\n  %s%s\n", o.paint(red, "●"), o.paint(bold, a.Signature), o.verdict(a.Verdict), because(o.Lang, a.Reasons))
		if len(a.Workarounds) > 0 {
			fmt.Fprintf(w, "\n  %s\n", text(o.Lang, "works"))
			for j, m := range a.Workarounds {
				fmt.Fprintf(w, "%s\n       %s%s\n", o.after(fmt.Sprintf("    %d. %s", j+1, rateMark(m.Rate, "")), m.Text, 7), o.verdict(m.Verdict), because(o.Lang, m.Reasons))
			}
		}
		if len(a.DeadEnds) > 0 {
			fmt.Fprintf(w, "\n  %s\n", text(o.Lang, "avoid"))
			for _, m := range a.DeadEnds {
				line := o.after(fmt.Sprintf("    ✗ %s", rateMark(m.Rate, text(o.Lang, "fail"))), m.Text, 7)
				fmt.Fprintf(w, "%s\n       %s%s\n", strings.Replace(line, "✗", o.paint(red, "✗"), 1), o.verdict(m.Verdict), because(o.Lang, m.Reasons))
			}
		}
		fmt.Fprintf(w, "\n  %s %s\n", text(o.Lang, "more"), o.href(a.URL))
	}
	return len(out), nil
}

func mark(t string, rate float64, cond string, f rules.Facts) Marked {
	m := Marked{Text: t, Rate: rate}
	e, err := rules.Parse(cond)
	if err != nil { // lint refuses such a KB; say so rather than guess
		m.Verdict, m.Reasons = rules.Unknown.String(), []string{err.Error()}
		return m
	}
	v := rules.Eval(e, f)
	m.Verdict, m.Reasons = v.Truth.String(), v.Reasons
	return m
}

func rank(verdict string) int {
	return map[string]int{"applies": 0, "unknown": 1, "does_not_apply": 2}[verdict]
}

// because lists a verdict's reasons in lang.
func because(lang string, reasons []string) string {
	if len(reasons) == 0 {
		return ""
	}
	out := make([]string, len(reasons))
	for i, r := range reasons {
		out[i] = rules.ReasonIn(r, lang)
	}
	return ": " + strings.Join(out, "; ")
}

func verdictWord(lang, v string) string { return text(lang, "v_"+v) }
