// Package templates holds the site's pages as typed templ components: one
// component per page kind (home, catalogue, domain catalogue, entry,
// article, search, fleet, code list, redirect, 404) inside one shared frame, and
// the View they receive. The .templ files are the source; `go tool templ
// generate` writes the *_templ.go beside them, and a test fails when those
// differ from what the pinned generator writes. Every value reaches a page
// escaped by templ except the output of our own Markdown renderer.
package templates

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/a-h/templ"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/markdown"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/site"
)

// UI is what every page of one language shares: its words (i18n.json) and
// its Markdown renderer.
type UI struct {
	Code     string                       // language code
	Strings  map[string]string            // key -> text in this language
	All      map[string]map[string]string // every language's words, for the pages that show both
	Markdown *markdown.Renderer

	shared sync.Map // name -> the bytes of a part every page of the language has (Shared)
}

// View is what a page's component receives: the page, its language's UI,
// and for an entry page the entry localized.
type View struct {
	*site.Page
	UI    *UI
	Entry *site.EntryView // KindEntry only
}

// NewView prepares page p for rendering with ui, the UI of its language
// (English on language-neutral pages).
func NewView(p *site.Page, ui *UI) *View {
	v := &View{Page: p, UI: ui}
	if p.Kind == site.KindEntry {
		v.Entry = p.View()
	}
	return v
}

// Page is the component that writes p's page.
func Page(v *View) (templ.Component, error) {
	switch v.Kind {
	case site.KindHome:
		return Home(v), nil
	case site.KindSearch:
		return Search(v), nil
	case site.KindFleet:
		return Fleet(v), nil
	case site.KindCatalog:
		if v.Domain != nil {
			return DomainCatalog(v), nil
		}
		return Catalog(v), nil
	case site.KindEntry:
		return Entry(v), nil
	case site.KindArticle:
		return Article(v), nil
	case site.KindRedirect:
		return Redirect(v), nil
	case site.KindCodeList:
		return CodeList(v), nil
	case site.KindNotFound:
		return NotFound(v), nil
	}
	return nil, fmt.Errorf("no component for %s pages", v.Kind)
}

// T is a UI string in the page's language; a key i18n.json lacks fails the page.
func (v *View) T(key string) (string, error) { return v.UI.T(key) }

// T is a UI string in the UI's language.
func (u *UI) T(key string) (string, error) { return u.text(u.Code, key) }

// Shared writes c, a part of the page written from the UI alone, so the
// same on every page of its language: rendered for the first page that
// has it and copied on the others, as tens of thousands of pages have it.
func (u *UI) Shared(name string, c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		b, ok := u.shared.Load(name)
		if !ok {
			var buf bytes.Buffer
			if err := c.Render(ctx, &buf); err != nil {
				return err
			}
			b, _ = u.shared.LoadOrStore(name, buf.Bytes())
		}
		_, err := w.Write(b.([]byte))
		return err
	})
}

// Text is a string a page shows as text: @text(s) writes what { s } writes,
// s escaped as html.EscapeString escapes it, but straight into the page.
// templ copies every { } value through fmt.Sprint before escaping it, and
// an entry page has about a hundred: the pages written most (entries,
// redirects, the frame) use @text and @v.Text instead.
type Text struct {
	s   string
	err error // from the lookup that gave s: it fails the page
}

// text is s as a page's text.
func text(s string) Text { return Text{s: s} }

// Text is the UI string key in the page's language as a page's text (T).
func (v *View) Text(key string) Text {
	s, err := v.T(key)
	return Text{s, err}
}

// Render writes the text escaped.
func (t Text) Render(_ context.Context, w io.Writer) error {
	if t.err != nil {
		return t.err
	}
	_, err := io.WriteString(w, html.EscapeString(t.s))
	return err
}

// The parts an entry page may have once per workaround or dead end are
// called with what they show, and give nothing where that is nothing:
// rendering a component that writes nothing costs as much as one that
// writes, and an entry page asks for a dozen of them.

// fallback marks a KB text shown in English for want of a translation,
// when shown.
func fallback(v *View, shown bool) templ.Component {
	if !shown {
		return templ.NopComponent
	}
	return fallbackNote(v)
}

// condition names the condition c a workaround or dead end holds under,
// when it has one.
func condition(v *View, c string) templ.Component {
	if c == "" {
		return templ.NopComponent
	}
	return conditionNote(v, c)
}

// sources lists the public pages a workaround or dead end rests on, when
// it cites any.
func sources(urls []string) templ.Component {
	if len(urls) == 0 {
		return templ.NopComponent
	}
	return sourceList(urls)
}

// TL is a UI string in a named language.
func (v *View) TL(lang, key string) (string, error) { return v.UI.text(lang, key) }

// Tf is a UI string with printf verbs, filled with args.
func (v *View) Tf(key string, args ...any) (string, error) {
	s, err := v.T(key)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(s, args...), nil
}

func (u *UI) text(lang, key string) (string, error) {
	s, ok := u.All[lang][key]
	if !ok {
		return "", fmt.Errorf("i18n.json: no %q string for %q", key, lang)
	}
	return s, nil
}

// MD writes inline Markdown from the KB, rendered by our own renderer
// without raw HTML: the one text that reaches a page unescaped. An entry
// page has a few dozen, written from a pooled buffer.
func (v *View) MD(s string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b := mdBuffers.Get().(*[]byte)
		defer mdBuffers.Put(b)
		h, err := v.UI.Markdown.AppendInline((*b)[:0], s)
		*b = h[:0]
		if err != nil {
			return err
		}
		_, err = w.Write(h)
		return err
	})
}

var mdBuffers = sync.Pool{New: func() any { return new([]byte) }}

// Doc renders the page's article.
func (v *View) Doc() (markdown.Document, error) { return v.UI.Markdown.Document(v.Article.Body) }

// Link is the href for a path from the site root: absolute when the site has
// a base URL and the link leaves the page for a crawler (hreflang), else relative.
func (v *View) Link(p string) string {
	if u := v.Site.URL(p); u != "" {
		return u
	}
	return v.Rel(p)
}

// BasePath is the path of the site's base URL ("/p2pkb/"), or "/" when the
// site has none.
func (v *View) BasePath() string {
	if u, err := url.Parse(v.Site.BaseURL); err == nil && u.Path != "" {
		return u.Path
	}
	return "/"
}

// LangCode is the page's language code, en on language-neutral pages.
func (v *View) LangCode() string { return v.UI.Code }

// LangTag is the page's BCP 47 tag.
func (v *View) LangTag() string {
	l, _ := site.LangByCode(v.UI.Code)
	return l.Tag
}

// LangCodes lists the site's language codes, the default first.
func (v *View) LangCodes() []string {
	var out []string
	for _, l := range site.Langs {
		out = append(out, l.Code)
	}
	return out
}

// Home links to the home page in the page's language.
func (v *View) Home() string { return v.Rel(v.UI.Code + "/") }

// EntryLink links to an entry's page in the page's language.
func (v *View) EntryLink(id string) string { return v.Rel(site.EntryPath(v.UI.Code, id)) }

// ArticleLink links to an article's page in the page's language.
func (v *View) ArticleLink(slug string) string { return v.Rel(site.ArticlePath(v.UI.Code, slug)) }

// CatalogLink links to a domain's first catalogue page in the page's
// language, or to the catalogue's first page when domain is "".
func (v *View) CatalogLink(domain string) string {
	return v.Rel(site.CatalogPath(v.UI.Code, domain, 1))
}

// VersionsJSON lists an entry's versions as JSON, for the rules in the browser.
func VersionsJSON(e *kb.Entry) string {
	out := []string{}
	for _, ver := range e.Versions {
		out = append(out, ver.Version)
	}
	b, _ := json.Marshal(out) // strings always marshal
	return string(b)
}

// Label is a KB value that names one of a set (a category, a root cause
// type, a version's status) in the page's language: i18n.json's kind_value,
// or the value itself where it has none.
func (v *View) Label(kind, value string) string {
	if s, ok := v.UI.Strings[kind+"_"+value]; ok {
		return s
	}
	return value
}

// CauseGist is the first sentence of an entry page's root cause as inline
// Markdown, and whether that is all of it: a long cause is summed up at the
// top of the page, before what works, and given whole further down. It stays
// Markdown so that a function or a variable keeps its code span.
func (v *View) CauseGist() (string, bool) {
	s := gist(v.Entry.RootCause.Text)
	return s, s == v.Entry.RootCause.Text
}

// Gist is the start of an entry's root cause in the page's language, as
// inline Markdown: what tells apart entries that share a message.
func (v *View) Gist(e *kb.Entry) string {
	cause := e.RootCause
	if v.UI.Code == "zh" && e.RootCauseZH != "" {
		cause = e.RootCauseZH
	}
	return gist(cause)
}

// gist is summary applied to Markdown source: where the cut falls inside a
// code span or a link, it moves before it, so that no backtick or bracket
// is left open.
func gist(md string) string {
	s := summary(md)
	if s == md {
		return s
	}
	cut := strings.TrimSuffix(s, "…")
	open := len(cut) // where the first construct left open starts
	if strings.Count(cut, "`")%2 == 1 {
		open = strings.LastIndex(cut, "`")
	}
	if strings.Count(cut, "[") > strings.Count(cut, "]") || strings.LastIndex(cut, "](") > strings.LastIndex(cut, ")") {
		open = min(open, strings.LastIndex(cut, "["))
	}
	if open == len(cut) {
		return s
	}
	return strings.TrimRight(cut[:open], " ,;:，；：（(") + "…"
}

// TextPart is a piece of a plain text: words, or the software's own words
// (Code) to be shown as code.
type TextPart struct {
	Text string
	Code bool
}

// literal finds the software's own words in a plain text: what stands in
// straight or curly quotes when it is all ASCII, a run of a path's or an
// identifier's characters holding an underscore or a slash (a file, a path,
// a function, a variable), and a file's name with a line number.
var literal = regexp.MustCompile(`“([ -~]+?)”|"([ -~]+?)"|([A-Za-z0-9_./:+=~-]*[_/][A-Za-z0-9_./:+=~-]*|[A-Za-z0-9_-]+\.[A-Za-z]{1,4}:[0-9]+)`)

// LiteralParts splits a plain text into words and the literals in it.
func LiteralParts(s string) []TextPart {
	var out []TextPart
	last := 0
	for _, m := range literal.FindAllStringSubmatchIndex(s, -1) {
		var a, b int
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				a, b = m[2*g], m[2*g+1]
			}
		}
		for b > a && strings.ContainsRune(".:", rune(s[b-1])) && m[6] >= 0 { // the sentence's stop, not the path's
			b--
		}
		if !strings.ContainsFunc(s[a:b], func(r rune) bool { return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }) {
			continue
		}
		if a > last {
			out = append(out, TextPart{Text: s[last:a]})
		}
		out = append(out, TextPart{Text: s[a:b], Code: true})
		last = b
	}
	if last < len(s) {
		out = append(out, TextPart{Text: s[last:]})
	}
	return out
}

// Sig is an entry's signature in the page's language.
func (v *View) Sig(e *kb.Entry) string { return site.Signature(e, v.UI.Code) }

// Tier is the label of an entry's verification tier.
func (v *View) Tier(e *kb.Entry) (string, error) { return v.T("tier_" + e.VerificationTier) }

// Articles lists the articles in the page's language, English where untranslated.
func (v *View) Articles() []*content.Article {
	var out []*content.Article
	for _, slug := range v.Site.Articles.Slugs {
		a := v.Site.Articles.Articles[slug][v.UI.Code]
		if a == nil {
			a = v.Site.Articles.Articles[slug][site.Langs[0].Code]
		}
		out = append(out, a)
	}
	return out
}

// homeArticles is how many articles the home page shows; the catalogue's
// first page lists them all.
const homeArticles = 8

// HomeArticles are the newest articles, at most homeArticles of them; the
// rest are on the catalogue's first page.
func (v *View) HomeArticles() []*content.Article {
	as := v.Articles()
	sort.SliceStable(as, func(i, j int) bool { return as[i].Date.After(as[j].Date) })
	return as[:min(len(as), homeArticles)]
}

// PagerLink is one page of a domain's catalogue in the pager.
type PagerLink struct {
	N       int    // page number, from 1; 0 for a gap of pages left out
	Path    string // from the site root
	Current bool   // this page
}

// pagerReach is how many pages on each side of the current one the pager
// names, besides the first and the last: a domain of thousands of entries
// has a hundred pages, and links to all of them would outweigh the list.
const pagerReach = 2

// Pager lists the pages of this page's domain in the catalogue: the first,
// the last, and those near this one; nothing when the domain has one page.
func (v *View) Pager() []PagerLink {
	n, cur := v.PageCount, v.PageN
	if v.Domain == nil || n < 2 {
		return nil
	}
	var out []PagerLink
	for i := 1; i <= n; i++ {
		if i != 1 && i != n && (i < cur-pagerReach || i > cur+pagerReach) {
			if out[len(out)-1].N != 0 {
				out = append(out, PagerLink{})
			}
			continue
		}
		out = append(out, PagerLink{N: i, Path: site.CatalogPath(v.UI.Code, v.Domain.Name, i), Current: i == cur})
	}
	return out
}

// pct writes a rate as a whole percentage.
func pct(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

// sortedKeys are a map's keys in order, as a page lists them.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Plain is inline Markdown from the KB as plain text, for the places that
// take no markup: meta descriptions, link previews, structured data, feeds.
func (u *UI) Plain(s string) (string, error) {
	h, err := u.Markdown.Inline(s)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(html.UnescapeString(stripTags(string(h)))), nil
}

// stripTags removes what the pattern <[^>]*> matches: from each < to the
// next >, a < without a > after it staying.
func stripTags(s string) string {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
		i = strings.IndexByte(s, '<')
	}
	b.WriteString(s)
	return b.String()
}

// summaryWidth bounds a summary: about what a search engine shows of a
// description, a Chinese character counting twice.
const summaryWidth = 200

// Summary is the start of inline Markdown as plain text, for a page's
// description, its link preview and its structured data: the first sentence
// where it fits, else as many words as fit, followed by an ellipsis. The
// whole text is on the page; repeating it three times in the head was most
// of the weight of a long entry's page.
func (v *View) Summary(s string) (string, error) {
	p, err := v.UI.Plain(s)
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
func (v *View) OGLocale() string {
	if v.UI.Code == "zh" {
		return "zh_CN"
	}
	return "en_US"
}

// EntryLD is the schema.org description of an entry page (JSON-LD): a
// TechArticle whose headline is the message and whose subject is the error,
// with its dates and the sources it is based on. desc is the page's
// description. Its fields are in the order of their names, as a map's keys
// would be, and it costs a build less than a map to write.
func (v *View) EntryLD(desc string) *TechArticle {
	e := v.Entry
	k := e.Entry
	ld := &TechArticle{
		Context:     "https://schema.org",
		Type:        "TechArticle",
		Headline:    e.Signature,
		Name:        e.Signature,
		About:       ldThing{Type: "Thing", Name: k.ErrorCode, Description: k.Signature, AlternateName: k.Aliases},
		Description: desc,
		InLanguage:  v.LangTag(),
		Publisher:   ldOrganization{Type: "Organization", Name: v.UI.Strings["site_name"]},
		Published:   k.FirstSeen,
		Modified:    k.LastUpdated,
		Keywords:    strings.Join(k.Tags, ", "),
	}
	if u := v.Site.URL(v.Path); u != "" {
		ld.URL, ld.MainEntityOfPage = u, u
	}
	src := ""
	if k.SignatureSource != nil {
		src = k.SignatureSource.URL
	}
	ld.IsBasedOn = entrySources(src, k.OfficialDocURL, e)
	return ld
}

// TechArticle is schema.org's TechArticle as an entry page describes itself.
type TechArticle struct {
	Context          string         `json:"@context"`
	Type             string         `json:"@type"`
	About            ldThing        `json:"about"`
	Modified         string         `json:"dateModified,omitempty"`
	Published        string         `json:"datePublished,omitempty"`
	Description      string         `json:"description"`
	Headline         string         `json:"headline"`
	InLanguage       string         `json:"inLanguage"`
	IsBasedOn        []string       `json:"isBasedOn,omitempty"`
	Keywords         string         `json:"keywords,omitempty"`
	MainEntityOfPage string         `json:"mainEntityOfPage,omitempty"`
	Name             string         `json:"name"`
	Publisher        ldOrganization `json:"publisher"`
	URL              string         `json:"url,omitempty"`
}

type ldThing struct {
	Type          string   `json:"@type"`
	AlternateName []string `json:"alternateName,omitempty"`
	Description   string   `json:"description"`
	Name          string   `json:"name"`
}

type ldOrganization struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// jsonLD writes a script element of structured data. JSON's encoder
// escapes <, > and & inside strings, so no text can end the element.
func jsonLD(v any) templ.Component {
	return jsonElement(`<script type="application/ld+json">`, v)
}

// jsonElement writes open, v as JSON and the script's end tag: the bytes of
// open + templ.JSONString(v) + "</script>", encoded into a pooled buffer and
// written from there, as every entry page has one.
func jsonElement(open string, v any) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b := jsonBuffers.Get().(*bytes.Buffer)
		defer func() {
			if b.Cap() <= maxPooledJSON { // the fleet page's megabytes are not kept
				jsonBuffers.Put(b)
			}
		}()
		b.Reset()
		b.WriteString(open)
		if err := json.NewEncoder(b).Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's newline, which Marshal does not write
		b.WriteString("</script>")
		_, err := w.Write(b.Bytes())
		return err
	})
}

var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledJSON is the largest buffer jsonElement keeps for the next page.
const maxPooledJSON = 64 << 10

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
func (v *View) EditURL() string {
	return v.Site.RepoURL + "/edit/main/kb/" + v.Entry.ID + ".json"
}

// ReportEntryURL opens a new issue about the entry, its title and body
// filled in with the entry and the page; nothing is sent until the reader
// submits it there.
func (v *View) ReportEntryURL() string {
	page := v.Site.URL(v.Path)
	if page == "" {
		page = v.Path
	}
	body := "Entry: " + v.Entry.ID + "\nPage: " + page + "\n\nWhat is wrong or missing:\n"
	return v.Site.RepoURL + "/issues/new?title=" + url.QueryEscape("Entry "+v.Entry.ID+": ") + "&body=" + url.QueryEscape(body)
}

// fail is a component that fails the page with err, for values a component
// computes before it writes.
func fail(err error) templ.Component {
	return templ.ComponentFunc(func(context.Context, io.Writer) error { return err })
}

// jsonScript writes a script element of JSON data with an id, for a page's
// script to read. JSON's encoder escapes <, > and & inside strings, so no
// text can end the element.
func jsonScript(id string, v any) templ.Component {
	return jsonElement(`<script type="application/json" id="`+html.EscapeString(id)+`">`, v)
}

// FleetEntry is an entry as the fleet page judges it against each node.
type FleetEntry struct {
	ID        string   `json:"id"`
	Signature string   `json:"signature"`
	Versions  []string `json:"versions"`
	When      string   `json:"when,omitempty"`
	URL       string   `json:"url"` // relative to the fleet page
}

// FleetEntries lists the entries that have conditions, in the KB's order,
// as `p2pkb fleet` judges them: an entry without any says nothing about a
// machine.
func (v *View) FleetEntries() []FleetEntry {
	out := []FleetEntry{}
	for _, e := range v.Site.KB.Entries {
		versions := []string{}
		for _, ver := range e.Versions {
			versions = append(versions, ver.Version)
		}
		if x, err := rules.Compile(versions, e.AppliesWhen); err != nil || x == nil {
			continue
		}
		out = append(out, FleetEntry{ID: e.ID, Signature: v.Sig(e), Versions: versions, When: e.AppliesWhen, URL: v.Rel(site.EntryPath(v.LangCode(), e.ID))})
	}
	return out
}
