// Package content loads the articles: Markdown files with YAML front matter,
// content/<slug>.md in English and content/<slug>.zh.md in Chinese. It checks
// the front matter and pairs translations; rendering the Markdown is left to
// the markdown package.
package content

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Languages the site is written in; the first is the fallback.
var Languages = []string{"en", "zh"}

// Article is one article in one language.
type Article struct {
	Slug     string    // file name without language and extension; the URL segment
	Lang     string    // en or zh
	Title    string    // <h1>
	Date     time.Time // front matter date
	Summary  string    // one or two sentences for lists and <meta name=description>
	Tags     []string  //
	Body     []byte    // Markdown after the front matter
	File     string    // path for messages, content/<slug>.md
	BodyLine int       // line of the file where Body starts, for messages

	// Verification says how far the article was checked, in the words of
	// the entries' verification_tier (front matter "verification"); the
	// page shows it as an entry's page does.
	Verification string

	// Entries are the ids of the KB entries the article explains (front
	// matter "entries"): their pages link to it and it lists them. The
	// English article's list serves every language.
	Entries    []string
	EntryLines []int // line of each of Entries in the file, for messages
}

// frontMatter is the YAML block at the top of an article.
type frontMatter struct {
	Title   string   `yaml:"title"`
	Date    string   `yaml:"date"`
	Summary string   `yaml:"summary"`
	Tags    []string `yaml:"tags"`
	Entries []string `yaml:"entries"`
	// Verification is one of Verifications.
	Verification string `yaml:"verification"`
}

// Verifications are the labels an article's front matter may give: those
// of the KB's entries (kb/schema.json's verification_tier).
var Verifications = []string{"ai_generated", "community", "reproduced", "vendor_confirmed"}

// Set is every article, by slug and then language.
type Set struct {
	Slugs    []string                       // sorted
	Articles map[string]map[string]*Article // slug -> lang -> article
}

var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Load reads every *.md file at the root of fsys. name is how the root is
// written in messages ("content").
func Load(fsys fs.FS, name string) (*Set, error) {
	matches, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	set := &Set{Articles: map[string]map[string]*Article{}}
	var errs []error
	for _, p := range matches {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", name, p, err)
		}
		a, err := parse(name+"/"+p, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if set.Articles[a.Slug] == nil {
			set.Articles[a.Slug] = map[string]*Article{}
			set.Slugs = append(set.Slugs, a.Slug)
		}
		set.Articles[a.Slug][a.Lang] = a
	}
	for _, slug := range set.Slugs {
		if set.Articles[slug]["en"] == nil {
			errs = append(errs, fmt.Errorf("%s/%s.zh.md: no English original %s/%s.md", name, slug, name, slug))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Strings(set.Slugs)
	return set, nil
}

// parse reads one article file; file is its path for messages.
func parse(file string, data []byte) (*Article, error) {
	base := path.Base(file)
	slug, lang := strings.TrimSuffix(base, ".md"), "en"
	if s, ok := strings.CutSuffix(slug, ".zh"); ok {
		slug, lang = s, "zh"
	}
	if !slugRE.MatchString(slug) {
		return nil, fmt.Errorf("%s: file name %q is not a slug (lower-case letters, digits and dashes), optionally followed by .zh", file, slug)
	}

	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil, fmt.Errorf("%s:1: no front matter: the file must start with a line '---', then title, date, summary and tags, then '---'", file)
	}
	end := bytes.Index(data[4:], []byte("\n---\n"))
	if end < 0 {
		return nil, fmt.Errorf("%s:1: front matter is not closed by a line '---'", file)
	}
	head, body := data[4:4+end+1], data[4+end+5:]

	// The front matter is read as nodes first: aliases are counted as they
	// would expand, so that a few lines of anchors cannot decode to
	// gigabytes.
	var doc yaml.Node
	if err := yaml.Unmarshal(head, &doc); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", file, shiftYAMLLines(err, 1))
	}
	if n := expanded(&doc, map[*yaml.Node]int{}); n > MaxFrontMatter {
		return nil, fmt.Errorf("%s: front matter: its aliases expand it to more than %d KB; write the values out", file, MaxFrontMatter>>10)
	}
	var fm frontMatter
	dec := yaml.NewDecoder(bytes.NewReader(head))
	dec.KnownFields(true)
	if err := dec.Decode(&fm); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", file, shiftYAMLLines(err, 1))
	}
	if err := fm.check(); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", file, err)
	}
	a := &Article{Slug: slug, Lang: lang, Title: fm.Title, Summary: fm.Summary, Tags: fm.Tags, Body: body, File: file,
		BodyLine: bytes.Count(data[:4+end+5], []byte("\n")) + 1, Entries: fm.Entries, EntryLines: entryLines(head, fm.Entries),
		Verification: fm.Verification}
	var missing []string
	for _, f := range []struct{ name, value string }{{"title", fm.Title}, {"date", fm.Date}, {"summary", fm.Summary}} {
		if strings.TrimSpace(f.value) == "" {
			missing = append(missing, f.name)
		}
	}
	if fm.Tags == nil {
		missing = append(missing, "tags")
	}
	if fm.Verification == "" {
		missing = append(missing, "verification (how far the article was checked: "+strings.Join(Verifications, ", ")+")")
	} else if !slices.Contains(Verifications, fm.Verification) {
		return nil, fmt.Errorf("%s: front matter: verification: %q is not one of %s", file, fm.Verification, strings.Join(Verifications, ", "))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: front matter: missing %s", file, strings.Join(missing, ", "))
	}
	d, err := time.Parse(time.DateOnly, fm.Date)
	if err != nil {
		return nil, fmt.Errorf("%s: front matter: date: %q is not an ISO date (YYYY-MM-DD)", file, fm.Date)
	}
	a.Date = d
	return a, nil
}

// entryLines finds the line of each entry id in the front matter, which
// starts on the file's second line; the first line naming it wins.
func entryLines(head []byte, ids []string) []int {
	lines := strings.Split(string(head), "\n")
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = 1
		for n, l := range lines {
			if strings.Contains(l, id) {
				out[i] = n + 2
				break
			}
		}
	}
	return out
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// shiftYAMLLines makes yaml's line numbers, counted from the front matter,
// count from the top of the file instead.
func shiftYAMLLines(err error, by int) error {
	msg := yamlLine.ReplaceAllStringFunc(err.Error(), func(m string) string {
		var n int
		fmt.Sscanf(m, "line %d", &n)
		return fmt.Sprintf("line %d", n+by)
	})
	return errors.New(msg)
}

// Limits of an article's front matter: far above what an article needs, so
// that a hostile or broken file is refused with its field named instead of
// making a page of megabytes.
const (
	MaxFrontMatter = 64 << 10 // bytes of the front matter with its aliases expanded
	maxTitle       = 200      // characters
	maxSummary     = 1000     // characters
	maxTags        = 32       // tags, each of up to maxTag characters
	maxTag         = 64
	maxEntries     = 128 // entry ids
)

// expanded is the size of node with every alias counted as what it stands
// for; sizes saturate past MaxFrontMatter, and each node is sized once.
func expanded(node *yaml.Node, memo map[*yaml.Node]int) int {
	if n, ok := memo[node]; ok {
		return n
	}
	memo[node] = MaxFrontMatter + 1 // an alias cycle counts as too large
	n := len(node.Value) + 1
	if node.Kind == yaml.AliasNode && node.Alias != nil {
		n = expanded(node.Alias, memo)
	}
	for _, c := range node.Content {
		n += expanded(c, memo)
		if n > MaxFrontMatter {
			n = MaxFrontMatter + 1
			break
		}
	}
	memo[node] = n
	return n
}

// check holds the fields to their limits.
func (fm *frontMatter) check() error {
	long := func(field, s string, max int) error {
		if n := utf8.RuneCountInString(s); n > max {
			return fmt.Errorf("%s: %d characters, more than %d", field, n, max)
		}
		return nil
	}
	if err := long("title", fm.Title, maxTitle); err != nil {
		return err
	}
	if err := long("summary", fm.Summary, maxSummary); err != nil {
		return err
	}
	if len(fm.Tags) > maxTags {
		return fmt.Errorf("tags: %d tags, more than %d", len(fm.Tags), maxTags)
	}
	for i, t := range fm.Tags {
		if err := long(fmt.Sprintf("tags[%d]", i), t, maxTag); err != nil {
			return err
		}
	}
	if len(fm.Entries) > maxEntries {
		return fmt.Errorf("entries: %d ids, more than %d", len(fm.Entries), maxEntries)
	}
	return nil
}
