package diagnose

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/p2pkb/p2pkb/internal/issue"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Diagnosis is what `explain --json` and `match --json` print for an input.
type Diagnosis struct {
	Facts     []paste.Fact     `json:"facts"`                  // facts found in the input, with their lines
	Conflicts []paste.Conflict `json:"conflicts"`              // where the probe report disagrees with the input; the probe's facts are used
	Test      *TestResult      `json:"test,omitempty"`         // what p2p-probe --test measured, with match --probe
	Messages  []Message        `json:"messages"`               // errors first, then notes, each in the order of the input
	ReportURL string           `json:"report_url,omitempty"`   // with Options.RepoURL and no message known: a new issue with the input's error lines
	Collect   []string         `json:"collect_next,omitempty"` // no message recognized: what to paste or run next
	Summary
}

// Explain reads a log line by line and explains every known message in it:
// the causes of each, ranked by the facts (f, the machine's, possibly
// empty, with those o.PasteFacts gathers from the input below them), errors
// apart from notes. It returns how many of each it found.
func Explain(w io.Writer, s *site.Site, in io.Reader, f rules.Facts, o Options) (Summary, error) {
	return answer(w, s, in, f, o, len(f) > 0)
}

func answer(w io.Writer, s *site.Site, in io.Reader, f rules.Facts, o Options, judge bool) (Summary, error) {
	if !o.JSON {
		w = escaping(w) // text is text on a terminal too: see esc
	}
	if x := o.Paste; x != nil {
		o.PasteFacts = func() rules.Facts { return paste.Facts(x.Facts()) }
	}
	var unknown *issue.Collector
	if o.RepoURL != "" {
		// What a report of an input with no known message needs, gathered as it streams.
		unknown = &issue.Collector{}
		observe := o.Observe
		o.Observe = func(n int, line []byte) {
			if observe != nil {
				observe(n, line)
			}
			unknown.Add(string(line))
		}
	}
	msgs, sum, err := diagnose(w, s, in, f, o, judge)
	if err != nil {
		return sum, err
	}
	reportURL := ""
	if unknown != nil && sum.Errors+sum.Notes == 0 {
		reportURL = unknown.URL(o.RepoURL, nil)
	}
	fd := found(o, f)
	if o.JSON {
		if o.Follow {
			return sum, writeJSONLine(w, struct {
				Found
				Summary
			}{fd, sum})
		}
		if msgs == nil {
			msgs = []Message{}
		}
		d := Diagnosis{Facts: fd.Facts, Conflicts: fd.Conflicts, Messages: msgs, Summary: sum, ReportURL: reportURL}
		if sum.Errors+sum.Notes == 0 {
			d.Collect = unrecognized(f, o.Lang)
		}
		if judge && o.Test != nil {
			d.Test = testResult(o.Test, f)
		}
		return sum, writeJSON(w, d)
	}
	WriteFacts(w, fd, o.Lang)
	if judge && !o.Follow {
		writeTest(w, o.Test, f, o.Lang)
	}
	var closest *Message // the entries closest to the input's words, when nothing was recognized
	if !o.Follow {
		notesShown := false
		for i, m := range msgs {
			if m.ByWords && !m.Beside {
				closest = &msgs[i]
				continue
			}
			if m.Severity == "note" && !notesShown {
				notesShown = true
				fmt.Fprintf(w, "%s\n\n", text(o.Lang, "notes_head"))
			} else if i > 0 {
				fmt.Fprintln(w)
			}
			if err := writeMessage(w, m, o, judge); err != nil {
				return sum, err
			}
		}
	}
	if sum.Errors+sum.Notes == 0 {
		fmt.Fprintln(w, text(o.Lang, "no_match"))
		if closest != nil {
			fmt.Fprintln(w)
			if err := writeMessage(w, *closest, o, judge); err != nil {
				return sum, err
			}
		}
		fmt.Fprintf(w, "\n%s\n", text(o.Lang, "collect"))
		for i, c := range unrecognized(f, o.Lang) {
			fmt.Fprintf(w, "%s\n", o.after(fmt.Sprintf("  %d. ", i+1), c, 5))
		}
		if reportURL != "" {
			fmt.Fprintf(w, "\n%s\n  %s\n", o.wrap(text(o.Lang, "report"), 0, 0), o.href(reportURL))
		}
		return sum, nil
	}
	fmt.Fprintf(w, "\n%s\n", fmt.Sprintf(text(o.Lang, "summary"), sum.Errors, sum.Notes))
	return sum, nil
}

func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeMessage prints one message with its causes: in full those that may
// apply, in a line each those ruled out, and what to find out or collect
// next when no cause is known to hold.
func writeMessage(w io.Writer, m Message, o Options, judge bool) error {
	mark := o.paint(red, "●")
	if m.Severity == "note" {
		mark = o.paint(dim, "○")
	}
	shown := m.LineText
	if o.Term != nil {
		shown = around(shown, m.Match, 200)
	}
	listed := len(m.Causes) > 1 // numbered, each with its id
	switch {
	case m.ByWords:
		// No line to show: what the entries are, and which words found them.
		fmt.Fprintf(w, "%s %s\n", o.paint(dim, "○"), o.after("", wordsNote(o.Lang, m), 2))
		if m.Words.ProgramFirst {
			fmt.Fprintf(w, "%s\n", o.after("  ", text(o.Lang, "program_first"), 2))
		}
		listed = true
	default:
		fmt.Fprintf(w, "%s %s: %s\n", mark, fmt.Sprintf(text(o.Lang, "line"), m.Line), shown)
	}
	switch {
	case m.Composed:
		fmt.Fprintf(w, "%s\n", o.after("  ", m.Note, 2))
		if len(m.Causes) == 0 {
			fmt.Fprintf(w, "\n  %s\n  %s\n", text(o.Lang, "no_part_causes"), text(o.Lang, "collect"))
			for i, c := range m.Collect {
				fmt.Fprintf(w, "%s\n", o.after(fmt.Sprintf("    %d. ", i+1), c, 7))
			}
			return nil
		}
	case m.Layered != nil && m.Inner != nil:
		where := m.Layer.Name
		if m.Where != "" {
			where += " (" + m.Where + ")"
		}
		fmt.Fprintf(w, "%s\n", o.after("  ", fmt.Sprintf(text(o.Lang, "layered"), where, innerName(m.Inner)), 2))
	}
	if len(m.Causes) > 1 && !m.ByWords {
		fmt.Fprintf(w, "  %s\n", fmt.Sprintf(text(o.Lang, "n_causes"), len(m.Causes)))
	}
	if m.Verdict == "ruled_out" {
		fmt.Fprintf(w, "\n  %s\n", fmt.Sprintf(text(o.Lang, "ruled_out"), len(m.Causes)))
		for _, c := range m.Causes {
			fmt.Fprintf(w, "    %s %s — %s%s\n      %s\n", o.paint(red, "✗"), c.ID, o.verdict(c.Verdict), because(o.Lang, c.Reasons), o.href(c.URL))
		}
		fmt.Fprintf(w, "\n  %s\n", text(o.Lang, "collect"))
		for i, c := range m.Collect {
			fmt.Fprintf(w, "    %d. %s\n", i+1, c)
		}
		return nil
	}
	for i, c := range m.Causes {
		ind := "  "
		if listed {
			fmt.Fprintf(w, "\n  %d. %s [%s]", i+1, o.paint(bold, c.ID), c.Code)
			if c.Via != "" {
				fmt.Fprintf(w, " (%s)", text(o.Lang, "via_"+c.Via))
			}
			ind = "     "
		} else {
			fmt.Fprintf(w, "  %s [%s]", o.paint(bold, c.Signature), c.Code)
			if c.Via != "" {
				fmt.Fprintf(w, " (%s)", text(o.Lang, "via_"+c.Via))
			}
		}
		if m.judged && (c.Verdict != rules.True.String() || c.Condition != "" || len(c.Reasons) > 0) {
			fmt.Fprintf(w, " — %s%s", o.verdict(c.Verdict), because(o.Lang, c.Reasons))
		}
		fmt.Fprintln(w)
		// Ruled out, or only close to the words of a description told beside
		// recognized lines: a line each, after the causes in full.
		if c.Verdict == rules.False.String() && listed || m.Beside {
			if m.Beside {
				fmt.Fprintf(w, "%s\n", o.after(ind, c.Signature, len(ind)))
			}
			fmt.Fprintf(w, "%s%s %s\n", ind, text(o.Lang, "more"), o.href(c.URL))
			continue
		}
		if c.Tier == "ai_generated" {
			fmt.Fprintf(w, "%s%s\n", ind, text(o.Lang, "unverified"))
		}
		fmt.Fprintf(w, "\n%s%s\n%s\n", ind, o.paint(bold, text(o.Lang, "cause")), o.after(ind+"  ", c.RootCause, len(ind)+2))
		if m.Severity != "note" {
			writeMarked(w, ind, c, o, judge)
		}
		fmt.Fprintf(w, "\n%s%s %s\n", ind, text(o.Lang, "more"), o.href(c.URL))
	}
	if t := m.TellApart; t != nil && len(m.Causes) > 1 {
		paste := ""
		if len(t.Paste) > 0 {
			paste = fmt.Sprintf(text(o.Lang, "paste"), strings.Join(backquoted(t.Paste), ", "))
		}
		fmt.Fprintf(w, "\n%s\n", o.after("  ", fmt.Sprintf(text(o.Lang, "tell_apart"), strings.Join(t.Names, ", "), t.Run, paste), 2))
	}
	return nil
}

func writeMarked(w io.Writer, ind string, c Cause, o Options, judge bool) {
	verdict := func(m Marked) string {
		if !judge {
			return ""
		}
		return fmt.Sprintf("\n%s     %s%s", ind, o.verdict(m.Verdict), because(o.Lang, m.Reasons))
	}
	if len(c.Workarounds) > 0 {
		fmt.Fprintf(w, "\n%s%s\n", ind, o.paint(bold, text(o.Lang, "works")))
		for j, m := range c.Workarounds {
			fmt.Fprintf(w, "%s%s\n", o.after(fmt.Sprintf("%s  %d. %s", ind, j+1, rateMark(m.Rate, "")), m.Text, len(ind)+5), verdict(m))
		}
	}
	if len(c.DeadEnds) > 0 {
		fmt.Fprintf(w, "\n%s%s\n", ind, o.paint(bold, text(o.Lang, "avoid")))
		for _, m := range c.DeadEnds {
			line := o.after(fmt.Sprintf("%s  ✗ %s", ind, rateMark(m.Rate, text(o.Lang, "fail"))), m.Text, len(ind)+4)
			fmt.Fprintf(w, "%s%s\n", strings.Replace(line, "✗", o.paint(red, "✗"), 1), verdict(m))
		}
	}
}

// rateMark is a rate in brackets, with word after the figure, and a space;
// nothing where the entry gives no rate (0: a rate needs a basis, so 0 is
// none given, and "[0%]" would read as a measured one).
func rateMark(rate float64, word string) string {
	if rate <= 0 {
		return ""
	}
	if word != "" {
		return fmt.Sprintf("[%3.0f%% %s] ", rate*100, word)
	}
	return fmt.Sprintf("[%3.0f%%] ", rate*100)
}

func backquoted(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return out
}

func init() {
	for lang, m := range map[string]map[string]string{
		"en": {"line": "line %d", "n_causes": "%d known causes, the most likely first:",
			"ruled_out":            "None of the %d known causes of this message fits the facts:",
			"collect":              "What to collect next:",
			"tell_apart":           "To tell them apart, find out: %s. Run `%s`%s.",
			"paste":                ", or paste the output of %s with the log",
			"notes_head":           "Notes: lines a healthy run prints too",
			"summary":              "Recognized: %d error message(s), %d note(s).",
			"collect_same_machine": "Check that the facts come from the machine, the container and the CUDA_VISIBLE_DEVICES of the failing job.",
			"collect_test":         "Run `p2p-probe --test` there: it moves data between every pair of GPUs and names the pairs and calls that fail.",
			"collect_log":          "Rerun with `NCCL_DEBUG=INFO` (and `CUDA_LAUNCH_BLOCKING=1` for a CUDA error) and pass the whole log, so that the lines around the message are read too.",
			"collect_new":          "If nothing fits then, this is a cause the knowledge base does not have yet: report it with the probe report and the log."},
		"zh": {"line": "第 %d 行", "n_causes": "已知 %d 个原因，最可能的在前：",
			"ruled_out":            "这条信息的 %d 个已知原因都与事实不符：",
			"collect":              "接下来请收集：",
			"tell_apart":           "要区分它们，需要知道：%s。运行 `%s`%s。",
			"paste":                "，或把 %s 的输出与日志一起粘贴",
			"notes_head":           "提示：健康的运行也会打印的行",
			"summary":              "识别出 %d 条错误信息、%d 条提示。",
			"collect_same_machine": "确认这些事实来自出错作业所在的机器、容器和 CUDA_VISIBLE_DEVICES。",
			"collect_test":         "在那里运行 `p2p-probe --test`：它在每对 GPU 之间传输数据，并指出失败的 GPU 对和调用。",
			"collect_log":          "用 `NCCL_DEBUG=INFO`（CUDA 错误再加 `CUDA_LAUNCH_BLOCKING=1`）重新运行，并提供完整日志，以便读取这条信息前后的行。",
			"collect_new":          "如果仍然没有符合的原因，说明知识库还没有这个原因：请附上探测报告和日志报告它。"},
	} {
		for k, v := range m {
			texts[lang][k] = v
		}
	}
}
