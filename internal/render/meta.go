package render

import (
	"html"
	"net/url"
	"regexp"
	"strings"

	"github.com/p2pkb/p2pkb/internal/site"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// Plain is inline Markdown from the KB as plain text, for the places that
// take no markup: meta descriptions, link previews, structured data, feeds.
func (v *view) Plain(s string) (string, error) {
	h, err := v.MD(s)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(html.UnescapeString(tags.ReplaceAllString(string(h), ""))), nil
}

// summaryWidth bounds a summary: about what a search engine shows of a
// description, a Chinese character counting twice.
const summaryWidth = 200

// Summary is the start of inline Markdown as plain text, for a page's
// description, its link preview and its structured data: the first sentence
// where it fits, else as many words as fit, followed by an ellipsis. The
// whole text is on the page; repeating it three times in the head was most
// of the weight of a long entry's page.
func (v *view) Summary(s string) (string, error) {
	p, err := v.Plain(s)
	if err != nil {
		return "", err
	}
	return summary(p), nil
}

func summary(p string) string {
	width, cut, space := 0, -1, -1 // columns so far; where to cut; the last space
	for i, r := range p {
		if r >= 0x2E80 { // CJK and full-width forms take two columns
			width += 2
		} else {
			width++
		}
		if width > summaryWidth {
			cut = i
			break
		}
		switch {
		case width < summaryWidth/4: // "e.g." is no sentence
		case r == '。' || r == '！' || r == '？':
			if i+len(string(r)) < len(p) {
				return p[:i+len(string(r))]
			}
		case (r == '.' || r == '!' || r == '?') && i+1 < len(p) && p[i+1] == ' ' && i > 0 && p[i-1] != '.':
			return p[:i+1]
		case r == ' ':
			space = i
		}
	}
	if cut < 0 {
		return p
	}
	if space > cut/2 {
		cut = space
	}
	return strings.TrimRight(p[:cut], " ,;:，；：") + "…"
}

// OGLocale is the page's language as Open Graph writes it: language and
// territory.
func (v *view) OGLocale() string {
	if v.code() == "zh" {
		return "zh_CN"
	}
	return "en_US"
}

// EntryLD is the schema.org description of an entry page (JSON-LD): a
// TechArticle whose headline is the message and whose subject is the error,
// with its dates and the sources it is based on. html/template writes it as
// JSON inside its script element.
func (v *view) EntryLD() (map[string]any, error) {
	e := v.Entry
	k := e.Entry
	desc, err := v.Summary(e.RootCause.Text)
	if err != nil {
		return nil, err
	}
	name := v.r.strings[v.code()]["site_name"]
	about := map[string]any{"@type": "Thing", "name": k.ErrorCode, "description": k.Signature}
	if len(k.Aliases) > 0 {
		about["alternateName"] = k.Aliases
	}
	ld := map[string]any{
		"@context":    "https://schema.org",
		"@type":       "TechArticle",
		"headline":    e.Signature,
		"name":        e.Signature,
		"about":       about,
		"description": desc,
		"inLanguage":  v.LangTag(),
		"publisher":   map[string]any{"@type": "Organization", "name": name},
	}
	if k.FirstSeen != "" {
		ld["datePublished"] = k.FirstSeen
	}
	if k.LastUpdated != "" {
		ld["dateModified"] = k.LastUpdated
	}
	if len(k.Tags) > 0 {
		ld["keywords"] = strings.Join(k.Tags, ", ")
	}
	if u := v.Site.URL(v.Page.Path); u != "" {
		ld["url"] = u
		ld["mainEntityOfPage"] = u
	}
	src := ""
	if k.SignatureSource != nil {
		src = k.SignatureSource.URL
	}
	if based := entrySources(src, k.OfficialDocURL, e); len(based) > 0 {
		ld["isBasedOn"] = based
	}
	return ld, nil
}

// entrySources are the public pages an entry rests on, each once.
func entrySources(src, doc string, e *site.EntryView) []string {
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		if u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	add(src)
	add(doc)
	for _, w := range e.Workarounds {
		for _, s := range w.Sources {
			add(s)
		}
	}
	for _, d := range e.DeadEnds {
		for _, s := range d.Sources {
			add(s)
		}
	}
	return out
}

// EditURL opens the entry's file for editing in the project's repository
// (GitHub's layout: <repo>/edit/main/kb/<id>.json).
func (v *view) EditURL() string {
	return v.Site.RepoURL + "/edit/main/kb/" + v.Entry.ID + ".json"
}

// ReportEntryURL opens a new issue about the entry, its title and body
// filled in with the entry and the page; nothing is sent until the reader
// submits it there.
func (v *view) ReportEntryURL() string {
	page := v.Site.URL(v.Page.Path)
	if page == "" {
		page = v.Page.Path
	}
	body := "Entry: " + v.Entry.ID + "\nPage: " + page + "\n\nWhat is wrong or missing:\n"
	return v.Site.RepoURL + "/issues/new?title=" + url.QueryEscape("Entry "+v.Entry.ID+": ") + "&body=" + url.QueryEscape(body)
}
