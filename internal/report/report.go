// Package report answers in a terminal: ranked search results, and the
// explanation of every known error found in a log, as text for people or as
// JSON for tools. It formats what the search index and the site model hold;
// it finds nothing itself.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Options shape the output.
type Options struct {
	Lang    string // en or zh
	JSON    bool   // machine-readable output
	Limit   int    // results to show
	BaseURL string // prefix of links; "" gives site-root paths (/en/kb/<id>/)
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
}

// Search prints the ranked results of q.
func Search(w io.Writer, ix *search.Index, q string, o Options) (int, error) {
	res, err := ix.Search(q, o.Lang, max(1, o.Limit))
	if err != nil {
		return 0, err
	}
	hits := make([]Hit, 0, len(res))
	for _, r := range res {
		hits = append(hits, Hit{ID: r.ID, Kind: r.Kind, Title: r.Title, URL: link(o.BaseURL, r.Path), Score: r.Score})
	}
	if o.JSON {
		return len(hits), writeJSON(w, hits)
	}
	for i, h := range hits {
		fmt.Fprintf(w, "%d. %s\n   %s · %s\n", i+1, h.Title, h.Kind, h.URL)
	}
	if len(hits) == 0 {
		fmt.Fprintln(w, text(o.Lang, "nothing"))
	}
	return len(hits), nil
}

// Explanation is one known error found in a log.
type Explanation struct {
	ID          string       `json:"id"`
	Code        string       `json:"error_code"`
	Signature   string       `json:"signature"`
	Match       string       `json:"match"` // the text of the log the pattern matched
	RootCause   string       `json:"root_cause"`
	Workarounds []Workaround `json:"workarounds"` // by success rate, highest first
	DeadEnds    []DeadEnd    `json:"dead_ends"`
	Tier        string       `json:"verification_tier"`
	URL         string       `json:"url"`
}

// Workaround is a fix with its success rate.
type Workaround struct {
	Text        string  `json:"text"`
	SuccessRate float64 `json:"success_rate"`
	Condition   string  `json:"condition,omitempty"`
}

// DeadEnd is something not to try.
type DeadEnd struct {
	Text     string  `json:"text"`
	FailRate float64 `json:"fail_rate"`
}

// Explain finds every known signature in log and explains each. It returns
// how many it found.
func Explain(w io.Writer, ix *search.Index, s *site.Site, log string, o Options) (int, error) {
	var out []Explanation
	for _, d := range ix.Matches(log, o.Lang) {
		e := s.KB.ByID[d.ID]
		v := site.View(e, o.Lang, s.KB)
		x := Explanation{ID: e.ID, Code: e.ErrorCode, Signature: v.Signature, Match: d.Regex.FindString(firstMatchingLine(d.Regex, log)),
			RootCause: plain(v.RootCause.Text), Tier: e.VerificationTier, URL: link(o.BaseURL, d.Path),
			Workarounds: []Workaround{}, DeadEnds: []DeadEnd{}}
		for _, wk := range v.Workarounds {
			x.Workarounds = append(x.Workarounds, Workaround{Text: plain(wk.Text.Text), SuccessRate: wk.SuccessRate, Condition: wk.Condition})
		}
		for _, de := range v.DeadEnds {
			t := plain(de.WhyFails.Text)
			if de.Action.Text != "" {
				t = plain(de.Action.Text) + " — " + t
			}
			x.DeadEnds = append(x.DeadEnds, DeadEnd{Text: t, FailRate: de.FailRate})
		}
		out = append(out, x)
	}
	if o.JSON {
		if out == nil {
			out = []Explanation{}
		}
		return len(out), writeJSON(w, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(w, text(o.Lang, "no_match"))
	}
	for i, x := range out {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "● %s  [%s]\n", x.Signature, x.Code)
		if x.Tier == "ai_generated" {
			fmt.Fprintf(w, "  %s\n", text(o.Lang, "unverified"))
		}
		fmt.Fprintf(w, "  %s: %s\n", text(o.Lang, "matched"), x.Match)
		fmt.Fprintf(w, "\n  %s\n    %s\n", text(o.Lang, "cause"), x.RootCause)
		if len(x.Workarounds) > 0 {
			fmt.Fprintf(w, "\n  %s\n", text(o.Lang, "works"))
			for j, wk := range x.Workarounds {
				fmt.Fprintf(w, "    %d. [%3.0f%%] %s\n", j+1, wk.SuccessRate*100, wk.Text)
			}
		}
		if len(x.DeadEnds) > 0 {
			fmt.Fprintf(w, "\n  %s\n", text(o.Lang, "avoid"))
			for _, de := range x.DeadEnds {
				fmt.Fprintf(w, "    ✗ [%3.0f%% %s] %s\n", de.FailRate*100, text(o.Lang, "fail"), de.Text)
			}
		}
		fmt.Fprintf(w, "\n  %s %s\n", text(o.Lang, "more"), x.URL)
	}
	return len(out), nil
}

func firstMatchingLine(re *regexp.Regexp, log string) string {
	if re.MatchString(log) {
		return log
	}
	for _, l := range strings.Split(log, "\n") {
		if re.MatchString(l) {
			return l
		}
	}
	return ""
}

var mdLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)]+)\)`)

// plain turns inline Markdown into terminal text.
func plain(s string) string {
	s = mdLink.ReplaceAllString(s, "$1 <$2>")
	return strings.NewReplacer("`", "", "**", "", "__", "").Replace(s)
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
		"more": "More:"},
	"zh": {"nothing": "没有结果。请粘贴完整的错误信息，或把整段日志通过管道交给 'p2pkb explain'。",
		"no_match": "输入中没有找到已知的错误信息。", "unverified": "（AI 生成的条目，未在硬件上验证）",
		"matched": "匹配", "cause": "根本原因", "works": "有效的办法", "avoid": "无效的做法", "fail": "失败",
		"more": "详情："},
}

func text(lang, key string) string {
	if t, ok := texts[lang][key]; ok {
		return t
	}
	return texts["en"][key]
}
