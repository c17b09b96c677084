package render

import (
	"bytes"
	"encoding/xml"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/site"
)

// feedSize is how many entries a feed lists: the newest changes are what a
// reader of a feed wants, and a feed of a large KB would be megabytes.
const feedSize = 50

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomPerson  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	ID        string   `xml:"id"`
	Title     string   `xml:"title"`
	Updated   string   `xml:"updated"`
	Published string   `xml:"published,omitempty"`
	Link      atomLink `xml:"link"`
	Summary   string   `xml:"summary"`
	Category  []struct {
		Term string `xml:"term,attr"`
	} `xml:"category"`
}

// FeedPath is where a language's Atom feed is written.
func FeedPath(lang string) string { return lang + "/feed.xml" }

// feed writes the Atom feed of a language: the entries changed last, newest
// first, by last_updated. Links are absolute with a base URL and relative to
// the feed without one, which Atom allows; ids are tag URIs that stay the
// same wherever the site is served.
func (r *Renderer) feed(s *site.Site, lang string) ([]byte, error) {
	entries := append(s.KB.Entries[:0:0], s.KB.Entries...)
	sort.SliceStable(entries, func(i, j int) bool {
		return updated(entries[i].LastUpdated, entries[i].FirstSeen) > updated(entries[j].LastUpdated, entries[j].FirstSeen)
	})
	if len(entries) > feedSize {
		entries = entries[:feedSize]
	}
	strs := r.strings[lang]
	f := atomFeed{Lang: lang, ID: "tag:p2pkb.invalid,2025:feed:" + lang, Title: strs["site_name"], Author: atomPerson{Name: strs["site_name"]}}
	link := func(p string) string {
		if u := s.URL(p); u != "" {
			return u
		}
		// Relative to <lang>/feed.xml, and to a file, so that file:// opens it.
		p = strings.TrimPrefix(p, lang+"/")
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		return p
	}
	f.Links = []atomLink{{Rel: "self", Type: "application/atom+xml", Href: link(FeedPath(lang))}, {Rel: "alternate", Type: "text/html", Href: link(lang + "/")}}
	ui := r.ui[lang]
	for _, e := range entries {
		ev := site.View(e, lang, s.KB)
		sum, err := ui.Plain(ev.RootCause.Text)
		if err != nil {
			return nil, err
		}
		ae := atomEntry{ID: "tag:p2pkb.invalid,2025:" + e.ID, Title: ev.Signature, Updated: atomDate(updated(e.LastUpdated, e.FirstSeen)),
			Link: atomLink{Rel: "alternate", Type: "text/html", Href: link(site.EntryPath(lang, e.ID))}, Summary: sum}
		if e.FirstSeen != "" {
			ae.Published = atomDate(e.FirstSeen)
		}
		for _, t := range append([]string{e.Domain}, e.Tags...) {
			ae.Category = append(ae.Category, struct {
				Term string `xml:"term,attr"`
			}{t})
		}
		f.Entries = append(f.Entries, ae)
		if ae.Updated > f.Updated {
			f.Updated = ae.Updated
		}
	}
	if f.Updated == "" {
		f.Updated = atomDate("2025-01-01")
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	b.WriteString("\n")
	return b.Bytes(), nil
}

// updated is the date an entry last changed: last_updated, else first_seen.
func updated(last, first string) string {
	if last != "" {
		return last
	}
	return first
}

func atomDate(d string) string {
	if d == "" {
		return "2025-01-01T00:00:00Z"
	}
	return d + "T00:00:00Z"
}

func langOf(code string) site.Lang {
	l, _ := site.LangByCode(code)
	return l
}

// openSearch describes the site's search for browsers' address bars. The
// format needs an absolute template, so it is written only with a base URL.
func openSearch(s *site.Site, lang, name string) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/" xmlns:moz="http://www.mozilla.org/2006/browser/search/">` + "\n")
	b.WriteString("  <ShortName>" + esc(name) + "</ShortName>\n")
	b.WriteString("  <Description>" + esc(name) + "</Description>\n")
	b.WriteString("  <InputEncoding>UTF-8</InputEncoding>\n")
	b.WriteString("  <Language>" + esc(langOf(lang).Tag) + "</Language>\n")
	b.WriteString(`  <Url type="text/html" method="get" template="` + esc(s.URL(lang+"/search/")) + `?q={searchTerms}"/>` + "\n")
	b.WriteString(`  <Url type="application/opensearchdescription+xml" rel="self" template="` + esc(s.URL(OpenSearchPath(lang))) + `"/>` + "\n")
	b.WriteString("  <moz:SearchForm>" + esc(s.URL(lang+"/search/")) + "</moz:SearchForm>\n")
	b.WriteString("</OpenSearchDescription>\n")
	return b.Bytes()
}

// OpenSearchPath is where a language's OpenSearch description is written.
func OpenSearchPath(lang string) string { return lang + "/opensearch.xml" }
