// Package issue makes the link that opens a new issue in the project's
// tracker for an error the knowledge base does not know: the pasted text
// trimmed to the lines that look like errors, within the length a tracker
// accepts in a URL. It sends nothing; the person follows the link or not.
// assets/search.js builds the same link on the search page, with the
// expression, limits and words of Table, and testdata/cases.json holds the cases
// both must pass.
package issue

import (
	"fmt"
	"hash/fnv"
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

// errorishSource matches, ignoring case, a line that looks like an error or
// a warning, inside a word too (RuntimeError, cudaErrorInvalidValue). It
// means the same in RE2 and in JavaScript, which reads it from Table.
const errorishSource = `error|fail|fatal|exception|abort|assert|panic|segmentation fault|core dumped|traceback|warn|denied|refused|invalid|unsupported|not supported|cannot|can't|unable|timeout|timed out|mismatch|illegal|unhandled|killed|\b(err|xid)\b|错误|失败|异常`

var errorish = regexp.MustCompile("(?i)" + errorishSource)

// Rules are what assets/search.js needs to make the same link: the
// expression of error lines (matched ignoring case), the limits and the
// issue's words.
type Rules struct {
	Errorish   string `json:"errorish"`
	MaxURL     int    `json:"maxURL"`
	MaxLines   int    `json:"maxLines"`
	LineRunes  int    `json:"lineRunes"`
	TitleRunes int    `json:"titleRunes"`
	Words      Words  `json:"words"`
}

// Words are the fixed text of the issue's title and body, in the order
// Body writes them.
type Words struct {
	Title    string `json:"title"`    // the title, before ": " and the first line
	Lines    string `json:"lines"`    // the body up to the error lines
	LinesEnd string `json:"linesEnd"` // after them
	More     string `json:"more"`     // how many lines were left out, %d being the count
	Facts    string `json:"facts"`    // before the facts, each on a line of its own after Fact
	Fact     string `json:"fact"`
}

var words = Words{
	Title:    "Unknown error",
	Lines:    "The knowledge base has no entry for this message.\n\nError lines:\n```text\n",
	LinesEnd: "```\n",
	More:     "(%d more lines left out)\n",
	Facts:    "\nFacts of my p2p-probe report:\n",
	Fact:     "- ",
}

// Table is Rules as this package applies them.
func Table() Rules {
	return Rules{Errorish: errorishSource, MaxURL: MaxURL, MaxLines: maxLines, LineRunes: lineRunes, TitleRunes: titleRuns, Words: words}
}

// Collector keeps what a report needs of a text read a line at a time, in
// memory that does not grow with the text: the first lines that look like
// errors, the first lines of all, and how many error lines it left out.
type Collector struct {
	errs, first []string
	seen        map[string]bool // the lines kept
	left, rest  map[uint64]bool // the error lines and other lines left out, by hash, up to maxLeft each
	more, moreR int             // those left out beyond maxLeft
}

// maxLeft bounds the distinct error lines left out that are told apart.
const maxLeft = 1 << 16

// Add reads one line.
func (c *Collector) Add(line string) {
	full := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	l := clip(full, lineRunes)
	if l == "" || c.seen[l] {
		return
	}
	if c.seen == nil {
		c.seen, c.left, c.rest = map[string]bool{}, map[uint64]bool{}, map[uint64]bool{}
	}
	isErr := errorish.MatchString(full)
	if !isErr && len(c.first) >= maxLines {
		leftOut(c.rest, &c.moreR, l)
		return
	}
	if isErr && len(c.errs) >= maxLines {
		leftOut(c.left, &c.more, l)
		return
	}
	c.seen[l] = true
	if len(c.first) < maxLines {
		c.first = append(c.first, l)
	}
	if isErr {
		c.errs = append(c.errs, l)
	}
}

// leftOut counts a line left out once, by its hash, past maxLeft always.
func leftOut(set map[uint64]bool, more *int, l string) {
	h := fnv.New64a()
	h.Write([]byte(l))
	if len(set) < maxLeft {
		set[h.Sum64()] = true
	} else if !set[h.Sum64()] {
		*more++
	}
}

// Lines are the lines that look like errors, each at most lineRunes long,
// repeats dropped; the first lines when none does. The second result counts
// the error lines left out.
func (c *Collector) Lines() ([]string, int) {
	if len(c.errs) == 0 {
		return c.first, len(c.rest) + c.moreR
	}
	return c.errs, len(c.left) + c.more
}

// URL is the new-issue link for what c read (see URL).
func (c *Collector) URL(repo string, facts []string) string {
	lines, more := c.Lines()
	return linesURL(repo, lines, more, facts)
}

// Lines is text trimmed as a Collector trims it.
func Lines(text string) ([]string, int) {
	var c Collector
	for _, l := range strings.Split(text, "\n") {
		c.Add(l)
	}
	return c.Lines()
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
	return linesURL(repo, lines, more, facts)
}

func linesURL(repo string, lines []string, more int, facts []string) string {
	lines = lines[:len(lines):len(lines)]
	title := words.Title
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
	b.WriteString(words.Lines)
	for _, l := range lines {
		b.WriteString(strings.ReplaceAll(l, "```", "'''") + "\n")
	}
	b.WriteString(words.LinesEnd)
	if more > 0 {
		fmt.Fprintf(&b, words.More, more)
	}
	if len(facts) > 0 {
		b.WriteString(words.Facts)
		for _, f := range facts {
			b.WriteString(words.Fact + f + "\n")
		}
	}
	return b.String()
}
