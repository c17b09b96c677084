// Package render turns the site model into files: pages through html/template
// (entry, redirect and domain catalogue pages through compiled Go code that writes the same
// bytes, see compiled.go), the generated highlighting stylesheets, the
// static assets, sitemap.xml and robots.txt. Templates are parsed once;
// every string from the KB reaches a page as escaped text except the output
// of our own Markdown renderer.
package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/highlight"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/markdown"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/templates"
)

// Emit receives one output file: its path from the site root and its bytes.
// It may be called from several goroutines at once.
type Emit func(name string, data []byte) error

// Renderer holds the parsed templates and per-language Markdown renderers.
type Renderer struct {
	pages     map[site.Kind]map[string]*template.Template // kind -> language code -> templates with T in that language
	strings   map[string]map[string]string                // lang -> key -> text
	markdown  map[string]*markdown.Renderer
	highlight *highlight.Config
	assets    fs.FS
	partials  sync.Map // partialCached's results by template, language and values

	compiled         bool                         // the templates are those compiled.go writes: entry, redirect and domain catalogue pages are written by it
	lit              map[string]map[string]string // lang -> key -> UI string as a literal {{T "key"}} writes it
	compiledPartials sync.Map                     // partialKey -> the partial's HTML

	ui map[string]*templates.UI // language code -> what its pages share
}

// New parses the templates (base.html plus one file per page kind, and
// i18n.json) and prepares rendering with the given static assets.
func New(tpl, assets fs.FS) (*Renderer, error) {
	r := &Renderer{
		pages:     map[site.Kind]map[string]*template.Template{},
		markdown:  map[string]*markdown.Renderer{},
		highlight: highlight.Default(),
		assets:    assets,
		ui:        map[string]*templates.UI{},
	}
	data, err := fs.ReadFile(tpl, "i18n.json")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	if err := json.Unmarshal(data, &r.strings); err != nil {
		return nil, fmt.Errorf("templates/i18n.json: %w", err)
	}
	for _, l := range site.Langs {
		if r.strings[l.Code] == nil {
			return nil, fmt.Errorf("templates/i18n.json: no strings for language %q", l.Code)
		}
		r.markdown[l.Code] = markdown.New(markdown.WithHighlight(r.highlight),
			markdown.WithLabels(r.strings[l.Code]["copy"], r.strings[l.Code]["section_link"]))
		r.ui[l.Code] = &templates.UI{Code: l.Code, Strings: r.strings[l.Code], All: r.strings, Markdown: r.markdown[l.Code]}
	}
	text := r.text
	sources := map[string]string{}
	for _, k := range append([]site.Kind{"base"}, kinds...) {
		name := string(k) + ".html"
		b, err := fs.ReadFile(tpl, name)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		sources[name] = string(b)
	}
	// Each language has its own templates: T is a function bound to the
	// language, and a UI string asked for by a literal key is put into the
	// template's text, escaped, before parsing. Both are the same on every
	// page of the language; as calls they cost text/template reflection at
	// every use, dozens of times a page. TL with literal arguments is put in
	// the same way.
	for _, k := range kinds {
		r.pages[k] = map[string]*template.Template{}
		for _, l := range site.Langs {
			t := template.New("base.html").Funcs(funcs).Funcs(template.FuncMap{
				"TL": text,                                                          // TL "lang" "key": a UI string in a named language
				"T":  func(key string) (string, error) { return text(l.Code, key) }, // T "key": in the page's language
			})
			for i, name := range []string{"base.html", string(k) + ".html"} {
				src, err := localize(sources[name], r.strings, l.Code)
				if err != nil {
					return nil, fmt.Errorf("templates/%s: %w", name, err)
				}
				into := t // base.html is t itself: New with its name would replace t by an empty template
				if i > 0 {
					into = t.New(name)
				}
				if _, err := into.Parse(src); err != nil {
					return nil, fmt.Errorf("templates: %w", err)
				}
			}
			r.pages[k][l.Code] = t
		}
	}
	if h, err := templatesHash(tpl); err == nil && h == compiledFor {
		r.compiled = true
		r.literals()
	}
	return r, nil
}

// text is a UI string of a language, T and TL in the templates.
func (r *Renderer) text(lang, key string) (string, error) {
	s, ok := r.strings[lang][key]
	if !ok {
		return "", fmt.Errorf("templates/i18n.json: no %q string for %q", lang, key)
	}
	return s, nil
}

// kinds are the page kinds, each with its template file.
var kinds = []site.Kind{site.KindHome, site.KindSearch, site.KindCatalog, site.KindEntry, site.KindArticle, site.KindRedirect, site.KindCodeList, site.KindNotFound}

// literalT is a UI string asked for by literal keys: {{T "key"}}, or
// {{TL "lang" "key"}} in a named language.
var literalT = regexp.MustCompile(`\{\{(?:T|TL "([a-z]+)") "([A-Za-z0-9_]+)"\}\}`)

// localize puts the UI strings asked for by literal keys into the template
// text of language lang, escaped as HTML. The strings are the project's own
// (i18n.json) and templates use them in text and in quoted attributes,
// where HTML escaping is html/template's too.
func localize(src string, strs map[string]map[string]string, lang string) (string, error) {
	var missing error
	out := literalT.ReplaceAllStringFunc(src, func(m string) string {
		sub := literalT.FindStringSubmatch(m)
		in, key := lang, sub[2]
		if sub[1] != "" {
			in = sub[1]
		}
		v, ok := strs[in][key]
		if !ok && missing == nil {
			missing = fmt.Errorf("no %q string for %q in i18n.json", key, in)
		}
		return html.EscapeString(v)
	})
	return out, missing
}

var funcs = template.FuncMap{
	// json writes a value as JSON, for data attributes scripts read.
	"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	},
	"pct": func(f float64) string { return fmt.Sprintf("%.0f%%", f*100) },
	// partialCached renders the named template for the page once per
	// language and values, which must be all it depends on: the header and
	// panel every page repeats cost most of a page's time.
	"partialCached": func(name string, v *view, values ...any) (template.HTML, error) {
		return v.partialCached(name, values)
	},
	"join": strings.Join,
}

// Site renders every page and support file of s.
func (r *Renderer) Site(s *site.Site, emit Emit) error {
	// Two workers per core, each taking the next page: a page's file is
	// written while another worker renders. One goroutine per page would
	// grow a fresh stack for every page, deep as template execution goes.
	// Four per core made a 10k build about a tenth slower on two cores:
	// more files made at once cost the kernel more, and the pages took
	// CPU from the search indexes, which then ended last.
	//
	// The workers at work at once take pages far apart in the site's
	// order, which is by folder: the file system makes one folder's entries
	// one at a time, and pages side by side have their folders in the same
	// parent (kb/cuda/, e/).
	workers := 2 * runtime.GOMAXPROCS(0)
	n := len(s.Pages)
	stride := (n + workers - 1) / workers
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				j := int(next.Add(1)) - 1
				if j >= workers*stride {
					return
				}
				i := j%workers*stride + j/workers
				if i >= n {
					continue
				}
				p := s.Pages[i]
				buf := pageBuffers.Get().(*[]byte)
				b, err := r.page((*buf)[:0], p)
				if err == nil {
					err = emit(p.File(), b)
				}
				if cap(b) <= maxPooledPage {
					*buf = b
					pageBuffers.Put(buf)
				}
				if err != nil {
					once.Do(func() { first = err })
					next.Store(int64(workers * stride)) // the others stop at their next page
					return
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		return first
	}
	if err := r.assetFiles(emit); err != nil {
		return err
	}
	if err := r.machineTextFiles(emit); err != nil {
		return err
	}
	// Reproducers are published as they are, for readers to run.
	for name, data := range s.KB.Repro {
		if err := emit(name, data); err != nil {
			return err
		}
	}
	if err := emit("sitemap.xml", sitemap(s)); err != nil {
		return err
	}
	for _, l := range site.Langs {
		f, err := r.feed(s, l.Code)
		if err != nil {
			return fmt.Errorf("render %s: %w", FeedPath(l.Code), err)
		}
		if err := emit(FeedPath(l.Code), f); err != nil {
			return err
		}
		if s.BaseURL != "" {
			if err := emit(OpenSearchPath(l.Code), openSearch(s, l.Code, r.strings[l.Code]["site_name"])); err != nil {
				return err
			}
		}
	}
	return emit("robots.txt", robots(s))
}

// Page renders one page.
func (r *Renderer) Page(p *site.Page) ([]byte, error) { return r.page(nil, p) }

// page appends the page to b. Emit does not keep the bytes it is given, so
// Site renders every page into a buffer from a pool: a page's buffer grew
// by doubling, and its garbage was a good part of a build's collections.
func (r *Renderer) page(b []byte, p *site.Page) ([]byte, error) {
	code := p.Lang.Code
	if code == "" {
		code = site.Langs[0].Code
	}
	c, err := templates.Page(templates.NewView(p, r.ui[code]))
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", p.File(), err)
	}
	buf := bytes.NewBuffer(b)
	if err := c.Render(context.Background(), buf); err != nil {
		return nil, fmt.Errorf("render %s: %w", p.File(), err)
	}
	return buf.Bytes(), nil
}

// templatePage renders a page through its html/template.
func (r *Renderer) templatePage(b []byte, p *site.Page) ([]byte, error) {
	t := r.pages[p.Kind][(&view{Page: p}).code()]
	if t == nil {
		return nil, fmt.Errorf("render %s: no template for %s pages", p.File(), p.Kind)
	}
	buf := bytes.NewBuffer(b)
	if err := t.ExecuteTemplate(buf, "base.html", newView(p, r, t)); err != nil {
		return nil, fmt.Errorf("render %s: %w", p.File(), err)
	}
	return buf.Bytes(), nil
}

// pageBuffers hold the bytes of pages being rendered; one larger than
// maxPooledPage is left to the collector.
var pageBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooledPage = 1 << 20

// assetFiles copies the static assets and writes the highlighting styles.
func (r *Renderer) assetFiles(emit Emit) error {
	err := fs.WalkDir(r.assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(r.assets, p)
		if err != nil {
			return err
		}
		return emit(path.Join("assets", p), b)
	})
	if err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	for name, style := range map[string]string{"chroma-light.css": r.highlight.Light, "chroma-dark.css": r.highlight.Dark} {
		var buf bytes.Buffer
		if err := r.highlight.CSS(&buf, style); err != nil {
			return err
		}
		if err := emit("assets/"+name, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// view is what templates receive: the page, plus the language-aware helpers.
type view struct {
	*site.Page
	r *Renderer
	t *template.Template // the page's template set, in its language

	// The page's fields templates read most, again at the top: text/template
	// looks a field up by name at every use, and one of an embedded struct
	// costs it a search of every embedded level.
	Title      string
	Lang       site.Lang
	Entry      *site.EntryView
	Alternates []site.Alternate
	Target     string
	Targets    []*kb.Entry
}

func newView(p *site.Page, r *Renderer, t *template.Template) *view {
	v := &view{Page: p, r: r, t: t, Title: p.Title, Lang: p.Lang, Alternates: p.Alternates,
		Target: p.Target, Targets: p.Targets}
	if p.Kind == site.KindEntry {
		v.Entry = p.View()
	}
	return v
}

func (v *view) partialCached(name string, values []any) (template.HTML, error) {
	key := fmt.Sprint(name, "\x00", v.code(), "\x00", values)
	if h, ok := v.r.partials.Load(key); ok {
		return h.(template.HTML), nil
	}
	var buf bytes.Buffer
	if err := v.t.ExecuteTemplate(&buf, name, v); err != nil {
		return "", err
	}
	// Written by html/template from a template that starts and ends in text.
	h := template.HTML(buf.String())
	v.r.partials.Store(key, h)
	return h, nil
}

func (v *view) code() string {
	if v.Page.Lang.Code == "" {
		return site.Langs[0].Code
	}
	return v.Page.Lang.Code
}

// MD renders inline Markdown from the KB.
func (v *view) MD(s string) (template.HTML, error) { return v.r.markdown[v.code()].Inline(s) }

// Doc renders the page's article.
func (v *view) Doc() (markdown.Document, error) {
	return v.r.markdown[v.code()].Document(v.Article.Body)
}

// Link is the href for a path from the site root: absolute when the site has
// a base URL and the link leaves the page for a crawler (hreflang), else relative.
func (v *view) Link(p string) string {
	if u := v.Site.URL(p); u != "" {
		return u
	}
	return v.Rel(p)
}

// Langs lists the site's languages for the switch and redirects.
func (v *view) Langs() []site.Lang { return site.Langs }

// LangCode is the page's language code, en on language-neutral pages.
func (v *view) LangCode() string { return v.code() }

// LangTag is the page's BCP 47 tag.
func (v *view) LangTag() string {
	l, _ := site.LangByCode(v.code())
	return l.Tag
}

// LangCodes lists the site's language codes, the default first.
func (v *view) LangCodes() []string {
	var out []string
	for _, l := range site.Langs {
		out = append(out, l.Code)
	}
	return out
}

// Home links to the home page in the page's language.
func (v *view) Home() string { return v.Rel(v.code() + "/") }

// EntryPath is the path of an entry's page in the page's language.
func (v *view) EntryPath(id string) string { return site.EntryPath(v.code(), id) }

// EntryPathIn is the path of an entry's page in a language.
func (v *view) EntryPathIn(lang, id string) string { return site.EntryPath(lang, id) }

// ArticlePath is the path of an article's page in the page's language.
func (v *view) ArticlePath(slug string) string { return site.ArticlePath(v.code(), slug) }

// VersionStrings lists an entry's versions, for the rules in the browser.
func (v *view) VersionStrings(e *kb.Entry) []string {
	out := []string{}
	for _, ver := range e.Versions {
		out = append(out, ver.Version)
	}
	return out
}

// Sig is an entry's signature in the page's language.
func (v *view) Sig(e *kb.Entry) string { return site.Signature(e, v.code()) }

// Articles lists the articles in the page's language, English where untranslated.
func (v *view) Articles() []*content.Article {
	var out []*content.Article
	for _, slug := range v.Site.Articles.Slugs {
		a := v.Site.Articles.Articles[slug][v.code()]
		if a == nil {
			a = v.Site.Articles.Articles[slug][site.Langs[0].Code]
		}
		out = append(out, a)
	}
	return out
}
