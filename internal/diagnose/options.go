package diagnose

import (
	"encoding/json"
	"io"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
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
