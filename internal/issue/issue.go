// Package issue makes the link that opens a new issue in the project's
// tracker for an error the knowledge base does not know: the pasted text
// trimmed to the lines that look like errors, within the length a tracker
// accepts in a URL. It sends nothing; the person follows the link or not.
// assets/search.js builds the same link on the search page, and
// testdata/cases.json holds the cases both must pass.
package issue

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Limits of what the link carries.
const (
	MaxURL    = 8000 // GitHub answers longer new-issue links with an error
	maxLines  = 40
	lineRunes = 300
	titleRuns = 100
)

// errorish matches a line that looks like an error or a warning. The same
// expression is in assets/search.js.
var errorish = regexp.MustCompile(`(?i)\b(error|errors|err|fail|failed|failure|fatal|exception|abort|aborted|assert|assertion|panic|segmentation fault|core dumped|traceback|warn|warning|denied|refused|invalid|unsupported|not supported|cannot|can't|unable|timeout|timed out|mismatch|xid|illegal|unhandled|killed)\b|错误|失败|异常`)

// Lines is text trimmed to the lines that look like errors, each at most
// lineRunes long, repeats dropped; the first lines when none does. The
// second result counts the lines that looked like errors and were left out.
func Lines(text string) ([]string, int) {
	var all, errs []string
	seen := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		all = append(all, l)
		if errorish.MatchString(l) {
			errs = append(errs, l)
		}
	}
	if len(errs) == 0 {
		errs = all
	}
	out := errs[:min(len(errs), maxLines)]
	for i, l := range out {
		out[i] = clip(l, lineRunes)
	}
	return out, len(errs) - len(out)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// URL is the new-issue link (GitHub's layout: <repo>/issues/new?title=&body=)
// for text, with facts ("name: value" lines, from a probe report the person
// agreed to add) when there are any. Lines that do not fit in MaxURL are
// left out from the end, and the body says how many.
func URL(repo, text string, facts []string) string {
	lines, more := Lines(text)
	title := "Unknown error"
	if len(lines) > 0 {
		title += ": " + clip(lines[0], titleRuns)
	}
	for {
		u := strings.TrimRight(repo, "/") + "/issues/new?title=" + url.QueryEscape(title) + "&body=" + url.QueryEscape(Body(lines, more, facts))
		if len(u) <= MaxURL || len(lines) <= 1 {
			return u
		}
		lines, more = lines[:len(lines)-1], more+1
	}
}

// Body is the issue's text: the lines, how many were left out, the facts.
func Body(lines []string, more int, facts []string) string {
	var b strings.Builder
	b.WriteString("The knowledge base has no entry for this message.\n\nError lines:\n```text\n")
	for _, l := range lines {
		b.WriteString(strings.ReplaceAll(l, "```", "'''") + "\n")
	}
	b.WriteString("```\n")
	if more > 0 {
		fmt.Fprintf(&b, "(%d more lines left out)\n", more)
	}
	if len(facts) > 0 {
		b.WriteString("\nFacts of my p2p-probe report:\n")
		for _, f := range facts {
			b.WriteString("- " + f + "\n")
		}
	}
	return b.String()
}
