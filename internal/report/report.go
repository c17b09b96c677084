// Package report answers in a terminal: ranked search results, and the
// explanation of every known message in a log read as a stream, each with
// its causes ranked by a machine's facts, as text for people or as JSON for
// tools. It formats what the search index and the site model hold and
// judges it with internal/rules; search's line matcher finds the messages.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// Options shape the output.
type Options struct {
	Lang    string    // en or zh
	JSON    bool      // machine-readable output
	Limit   int       // results to show
	BaseURL string    // prefix of links; "" gives site-root paths (/en/kb/<id>/)
	Term    *Terminal // standard output is a terminal: hyperlinks, colour, width; nil for plain text
	RepoURL string    // the project's repository: explain that recognizes nothing prints a link to report the input there

	Test *facts.Test // what p2p-probe --test measured; match prints it first
	// Reading a log (Explain, Match).
	Follow     bool                     // write each message as soon as it appears, the summary at the end
	Observe    func(n int, line []byte) // sees every line of the input, numbered from 1, in order (a line over 1 MiB in overlapping pieces, each with its number); it must not keep line
	PasteFacts func() rules.Facts       // the facts gathered from the input so far; the machine's win over them
	Warn       io.Writer                // where to say that the input was read otherwise than as given (lines too long)
	Paste      *paste.Extractor         // gathers facts from the input, in the pass that finds the messages (sets PasteFacts); they are printed with the messages
}

// Lang picks the language: the flag when given, else LANG (zh_CN.UTF-8 -> zh).
func Lang(flag string) string {
	if flag != "" {
		return flag
	}
	if strings.HasPrefix(strings.ToLower(os.Getenv("LANG")), "zh") {
		return "zh"
	}
	return "en"
}

func link(base, path string) string {
	if base == "" {
		return "/" + path
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + path
}

// Hit is one search result as `p2pkb search --json` prints it.
type Hit struct {
	ID    string  `json:"id"`
	Kind  string  `json:"kind"`
	Title string  `json:"title"`
	URL   string  `json:"url"`
	Score float64 `json:"score"`
	Gist  string  `json:"gist,omitempty"` // the root cause (an article's summary) in one line
	Best  string  `json:"best,omitempty"` // the best workaround in one line
}

// Search prints the ranked results of q.
func Search(w io.Writer, ix *search.Index, q string, o Options) (int, error) {
	if !o.JSON {
		w = escaping(w)
	}
	res, err := ix.Search(q, o.Lang, max(1, o.Limit))
	if err != nil {
		return 0, err
	}
	hits := make([]Hit, 0, len(res))
	for _, r := range res {
		hits = append(hits, Hit{ID: r.ID, Kind: r.Kind, Title: r.Title, URL: link(o.BaseURL, r.Path), Score: r.Score, Gist: r.Gist, Best: r.Best})
	}
	if o.JSON {
		return len(hits), writeJSON(w, hits)
	}
	for i, h := range hits {
		fmt.Fprintf(w, "%d. %s\n", i+1, o.paint(bold, h.Title))
		if h.Gist != "" {
			fmt.Fprintln(w, o.after("   ", h.Gist, 3))
		}
		if h.Best != "" {
			fmt.Fprintln(w, o.after("   "+text(o.Lang, "fix")+" ", h.Best, 3))
		}
		fmt.Fprintf(w, "   %s · %s\n", h.Kind, o.href(h.URL))
	}
	if len(hits) == 0 {
		fmt.Fprintln(w, text(o.Lang, "nothing"))
	}
	return len(hits), nil
}

// deadEndText is a dead end as one line: what is tried, and why it fails.
func deadEndText(de site.DeadEndView, o Options) string {
	t := o.plain(de.WhyFails.Text)
	if de.Action.Text != "" {
		t = o.plain(de.Action.Text) + " — " + t
	}
	return t
}

var mdLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)]+)\)`)

// plain turns inline Markdown into terminal text.
func (o Options) plain(s string) string {
	s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := mdLink.FindStringSubmatch(m)
		return sub[1] + " <" + o.href(o.resolve(sub[2])) + ">"
	})
	return strings.NewReplacer("`", "", "**", "", "__", "").Replace(s)
}

// resolve turns a link of a KB text, written relative to the entry's page
// (../../../articles/<slug>/index.html), into a link from the site's root,
// since a terminal has no page to be relative to.
func (o Options) resolve(dest string) string {
	if strings.Contains(dest, "://") || strings.HasPrefix(dest, "/") || strings.HasPrefix(dest, "#") {
		return dest
	}
	p := path.Join(site.EntryPath(o.Lang, "domain/entry"), dest)
	p = strings.TrimSuffix(p, "index.html")
	if !strings.HasSuffix(p, "/") && !strings.Contains(path.Base(p), ".") {
		p += "/"
	}
	return link(o.BaseURL, p)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

var texts = map[string]map[string]string{
	"en": {"nothing": "No results. Paste the whole error message, or pipe the whole log into 'p2pkb explain'.",
		"no_match": "No known error message found in the input.", "unverified": "(AI-generated entry, not verified on hardware)",
		"matched": "matched", "cause": "Root cause", "works": "What works", "avoid": "What does not work", "fail": "fail",
		"more": "More:", "v_applies": "applies", "v_does_not_apply": "does not apply", "v_unknown": "unknown",
		"none_apply": "No entry applies to this machine.", "fix": "Fix:",
		"report": "Report this error, so that the next person with it gets an answer (a new issue with the lines that look like errors; nothing is sent unless you submit it):"},
	"zh": {"nothing": "没有结果。请粘贴完整的错误信息，或把整段日志通过管道交给 'p2pkb explain'。",
		"no_match": "输入中没有找到已知的错误信息。", "unverified": "（AI 生成的条目，未在硬件上验证）",
		"matched": "匹配", "cause": "根本原因", "works": "有效的办法", "avoid": "无效的做法", "fail": "失败",
		"more": "详情：", "v_applies": "适用", "v_does_not_apply": "不适用", "v_unknown": "未知",
		"none_apply": "没有适用于这台机器的条目。", "fix": "解决：",
		"report": "报告这个错误，下一个遇到的人就能得到答案（新建一个问题，附上看起来是错误的那些行；只有你提交才会发送）："},
}

func text(lang, key string) string {
	if t, ok := texts[lang][key]; ok {
		return t
	}
	return texts["en"][key]
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
				fmt.Fprintf(w, "%s\n       %s%s\n", o.after(fmt.Sprintf("    %d. [%3.0f%%] ", j+1, m.Rate*100), m.Text, 7), o.verdict(m.Verdict), because(o.Lang, m.Reasons))
			}
		}
		if len(a.DeadEnds) > 0 {
			fmt.Fprintf(w, "\n  %s\n", text(o.Lang, "avoid"))
			for _, m := range a.DeadEnds {
				line := o.after(fmt.Sprintf("    ✗ [%3.0f%% %s] ", m.Rate*100, text(o.Lang, "fail")), m.Text, 7)
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
