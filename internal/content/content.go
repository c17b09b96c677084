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

	var fm frontMatter
	dec := yaml.NewDecoder(bytes.NewReader(head))
	dec.KnownFields(true)
	if err := dec.Decode(&fm); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", file, shiftYAMLLines(err, 1))
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
