// Package site is the model of the generated site: which pages exist, where
// each one lives, what it shows in which language, and how pages link to one
// another. It decides paths and languages; it writes no HTML.
//
// Every link between pages is relative and names index.html, so the same
// output works on a web server, under any sub-path, and opened from disk
// with file://.
package site

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
)

// Lang is one language of the site.
type Lang struct {
	Code string // path prefix and data key: en, zh
	Tag  string // BCP 47 for lang= and hreflang: en, zh-Hans
	Name string // in its own language, for the switch
}

// Langs are the site's languages; the first is the default and the fallback.
var Langs = []Lang{
	{Code: "en", Tag: "en", Name: "English"},
	{Code: "zh", Tag: "zh-Hans", Name: "中文"},
}

// LangByCode returns the language with the code, and whether there is one.
func LangByCode(code string) (Lang, bool) {
	for _, l := range Langs {
		if l.Code == code {
			return l, true
		}
	}
	return Lang{}, false
}

// Kind says which template renders a page.
type Kind string

const (
	KindHome     Kind = "home"     // /<lang>/
	KindEntry    Kind = "entry"    // /<lang>/kb/<id>/
	KindArticle  Kind = "article"  // /<lang>/articles/<slug>/
	KindSearch   Kind = "search"   // /<lang>/search/
	KindFleet    Kind = "fleet"    // /<lang>/fleet/: many nodes' probe reports side by side
	KindRedirect Kind = "redirect" // language-neutral: /, /kb/<id>/, /e/<code>/ with one entry
	KindCodeList Kind = "codelist" // /e/<code>/ shared by several entries
	KindCatalog  Kind = "catalog"  // /<lang>/kb/ (the domains), /<lang>/kb/<domain>/[page/<n>/] (a domain's entries)
	KindNotFound Kind = "404"      // /404.html
)

// Site is everything the generator renders.
type Site struct {
	BaseURL  string // absolute URL of the site root with a trailing slash, or "" when unknown
	KB       *kb.KB
	Articles *content.Set
	Pages    []*Page
	Domains  []Domain    // entries grouped for the catalogue
	Recent   []*kb.Entry // the entries updated last, for the home page
	RepoURL  string      // the project's repository (--repo-url), for edit and report links; "" leaves them out

	causes map[string]int // entry id -> how many entries are causes of its message
}

// Domain groups entries of one domain by category.
type Domain struct {
	Name       string
	Categories []Category
	Count      int // entries in all its categories
}

// Category is the entries of one category within a domain.
type Category struct {
	Name    string
	Entries []*kb.Entry
}

// Page is one HTML page of the site. Templates receive it as their data: its
// fields are what a template may show, and its methods give relative links.
type Page struct {
	Kind  Kind
	Lang  Lang   // zero for language-neutral pages
	Path  string // directory path from the site root with a trailing slash ("en/kb/cuda/x/"), or a file path ("404.html"); "" is the root
	Title string // <title> and <h1>
	Site  *Site

	Entry    *kb.Entry          // KindEntry: the entry, localized by View when the page is written
	Article  *content.Article   // KindArticle: in Lang, or English when Fallback
	Fallback bool               // the article has no translation into Lang
	Targets  []*kb.Entry        // KindRedirect, KindCodeList: the entries the page leads to
	Target   string             // KindRedirect: path of the page to go to, within a language folder ("kb/<id>/"), or "" for the home page
	Code     string             // KindCodeList and /e/ redirects: the error code
	Guides   []*content.Article // KindEntry: the articles that explain the entry, in Lang where translated
	Explains []*kb.Entry        // KindArticle: the entries the article explains

	Domain           *Domain    // KindCatalog of a domain; nil on the catalogue's first page
	Listing          []Category // KindCatalog of a domain: this page's entries by category
	PageN, PageCount int        // KindCatalog of a domain: this page's number (from 1) and how many

	Alternates []Alternate // the same page in every language, this one included
}

// Alternate is the same page in one language.
type Alternate struct {
	Lang Lang
	Path string
}

// File is where the page is written, relative to the output root.
func (p *Page) File() string {
	if p.Path == "" || strings.HasSuffix(p.Path, "/") {
		return p.Path + "index.html"
	}
	return p.Path
}

// Rel returns a relative link from this page to target, a path from the site
// root. Directory targets get index.html so that file:// opens the page. The
// link climbs only above the folders the two share: an entry's links to its
// neighbours were most of the bytes of its related list. Every page asks
// for a few dozen links, so it walks the paths in place.
func (p *Page) Rel(target string) string {
	if target == "" || strings.HasSuffix(target, "/") {
		target += "index.html"
	}
	dir := p.dir()
	shared := 0 // bytes of whole folders the two paths share
	for {
		i := strings.IndexByte(dir[shared:], '/')
		if i < 0 || !strings.HasPrefix(target[shared:], dir[shared:shared+i+1]) {
			break
		}
		shared += i + 1
	}
	up := strings.Count(dir[shared:], "/")
	if up == 0 {
		return target[shared:]
	}
	var b strings.Builder
	b.Grow(3*up + len(target) - shared)
	for range up {
		b.WriteString("../")
	}
	b.WriteString(target[shared:])
	return b.String()
}

// dir is the page's folder from the site root with a trailing slash, "" at
// the root.
func (p *Page) dir() string { return p.Path[:strings.LastIndexByte(p.Path, '/')+1] }

// Root is the relative path from this page to the site root ("" or "../../").
func (p *Page) Root() string { return strings.Repeat("../", strings.Count(p.dir(), "/")) }

// URL is the page's absolute URL, or "" when the site has no base URL.
func (p *Page) URL() string { return p.Site.URL(p.Path) }

// URL returns the absolute URL of a path from the site root, or "".
func (s *Site) URL(p string) string {
	if s.BaseURL == "" {
		return ""
	}
	return s.BaseURL + p
}

// EntryPath is the path of an entry's page in a language.
func EntryPath(lang, id string) string { return lang + "/kb/" + id + "/" }

// FleetPath is the path of the fleet page in a language.
func FleetPath(lang string) string { return lang + "/fleet/" }

// ArticlePath is the path of an article's page in a language.
func ArticlePath(lang, slug string) string { return lang + "/articles/" + slug + "/" }

// CatalogPageSize is how many entries a page of a domain's catalogue
// lists: at a few hundred bytes an entry, a page weighs no more than a long
// entry's page, however large the KB.
const CatalogPageSize = 25

// CatalogPath is the path of page n (from 1) of a domain's entries in the
// catalogue, or of the catalogue's first page, which lists the domains,
// when domain is "". Entry ids have at least two parts, so none of these
// is an entry's path.
func CatalogPath(lang, domain string, n int) string {
	p := lang + "/kb/"
	if domain != "" {
		p += domain + "/"
	}
	if n > 1 {
		p += "page/" + strconv.Itoa(n) + "/"
	}
	return p
}

// RecentCount is how many recently updated entries the home page shows.
const RecentCount = 8

// CodePath is the stable path of an error code, /e/<code>/.
func CodePath(code string) string { return "e/" + url.PathEscape(code) + "/" }

// New builds the model. baseURL may be empty.
// Catalog is the model without its pages: the KB and the articles, for
// the commands that read them (explain, match). The pages' views were
// most of the time and memory of modelling a large KB.
func Catalog(k *kb.KB, articles *content.Set) *Site {
	return &Site{KB: k, Articles: articles, Domains: group(k.Entries), Recent: recent(k.Entries), causes: sharedCauses(k)}
}

func New(k *kb.KB, articles *content.Set, baseURL string) *Site {
	if baseURL != "" && !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	s := &Site{BaseURL: baseURL, KB: k, Articles: articles}
	s.Domains = group(k.Entries)
	s.Recent = recent(k.Entries)
	s.causes = sharedCauses(k)

	// Language-neutral pages.
	s.add(&Page{Kind: KindRedirect, Path: "", Title: "p2pkb"})
	s.add(&Page{Kind: KindNotFound, Path: "404.html", Title: "404"})
	for _, e := range k.Entries {
		s.add(&Page{Kind: KindRedirect, Path: "kb/" + e.ID + "/", Title: e.ErrorCode, Targets: []*kb.Entry{e}, Target: "kb/" + e.ID + "/"})
	}
	codes := byCode(k.Entries)
	for _, code := range sortedCodes(k.Entries) {
		es := codes[code]
		if len(es) == 1 {
			s.add(&Page{Kind: KindRedirect, Path: CodePath(code), Title: code, Code: code, Targets: es, Target: "kb/" + es[0].ID + "/"})
			continue
		}
		s.add(&Page{Kind: KindCodeList, Path: CodePath(code), Title: code, Code: code, Targets: es})
	}

	guides := map[string][]string{} // entry id -> slugs of the articles explaining it
	for _, slug := range articles.Slugs {
		for _, id := range articles.Articles[slug][Langs[0].Code].Entries {
			guides[id] = append(guides[id], slug)
		}
	}
	for _, l := range Langs {
		s.localized(l, KindHome, l.Code+"/", func(p *Page) { p.Title = "p2pkb" })
		s.localized(l, KindSearch, l.Code+"/search/", func(p *Page) {})
		s.localized(l, KindFleet, FleetPath(l.Code), func(p *Page) {})
		s.localized(l, KindCatalog, CatalogPath(l.Code, "", 1), func(p *Page) {})
		for i := range s.Domains {
			d := &s.Domains[i]
			pages := paginate(d.Categories, CatalogPageSize)
			for n, listing := range pages {
				s.localized(l, KindCatalog, CatalogPath(l.Code, d.Name, n+1), func(p *Page) {
					p.Title, p.Domain, p.Listing, p.PageN, p.PageCount = d.Name, d, listing, n+1, len(pages)
				})
			}
		}
		for _, e := range k.Entries {
			s.localized(l, KindEntry, EntryPath(l.Code, e.ID), func(p *Page) {
				p.Entry = e
				p.Title, _ = localSignature(e, l.Code)
				for _, slug := range guides[e.ID] {
					a := articles.Articles[slug][l.Code]
					if a == nil {
						a = articles.Articles[slug][Langs[0].Code]
					}
					p.Guides = append(p.Guides, a)
				}
			})
		}
		for _, slug := range articles.Slugs {
			a, fallback := articles.Articles[slug][l.Code], false
			if a == nil {
				a, fallback = articles.Articles[slug][Langs[0].Code], true
			}
			s.localized(l, KindArticle, ArticlePath(l.Code, slug), func(p *Page) {
				p.Article, p.Fallback, p.Title = a, fallback, a.Title
				for _, id := range articles.Articles[slug][Langs[0].Code].Entries {
					if e := k.ByID[id]; e != nil {
						p.Explains = append(p.Explains, e)
					}
				}
			})
		}
	}
	return s
}

// CheckArticleEntries reports every entry id an article's front matter names
// that the KB does not have, with the file and line, so that a renamed entry
// does not silently drop a guide from its page.
func CheckArticleEntries(k *kb.KB, articles *content.Set) error {
	var errs []error
	for _, slug := range articles.Slugs {
		for _, code := range content.Languages {
			a := articles.Articles[slug][code]
			if a == nil {
				continue
			}
			for i, id := range a.Entries {
				if k.ByID[id] == nil {
					errs = append(errs, fmt.Errorf("%s:%d: front matter: entries[%d]: no entry has id %q", a.File, a.EntryLines[i], i, id))
				}
			}
		}
	}
	return errors.Join(errs...)
}

func (s *Site) add(p *Page) { p.Site = s; s.Pages = append(s.Pages, p) }

// localized adds a page of one language with its alternates in all languages.
func (s *Site) localized(l Lang, k Kind, p string, fill func(*Page)) {
	page := &Page{Kind: k, Lang: l, Path: p}
	rest := strings.TrimPrefix(p, l.Code+"/")
	for _, alt := range Langs {
		page.Alternates = append(page.Alternates, Alternate{Lang: alt, Path: alt.Code + "/" + rest})
	}
	fill(page)
	s.add(page)
}

func group(entries []*kb.Entry) []Domain {
	var ds []Domain
	idx := map[string]int{}
	for _, e := range entries {
		i, ok := idx[e.Domain]
		if !ok {
			i = len(ds)
			idx[e.Domain] = i
			ds = append(ds, Domain{Name: e.Domain})
		}
		d := &ds[i]
		found := false
		for j := range d.Categories {
			if d.Categories[j].Name == e.Category {
				d.Categories[j].Entries = append(d.Categories[j].Entries, e)
				found = true
			}
		}
		if !found {
			d.Categories = append(d.Categories, Category{Name: e.Category, Entries: []*kb.Entry{e}})
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name })
	for i := range ds {
		d := &ds[i]
		sort.Slice(d.Categories, func(i, j int) bool { return d.Categories[i].Name < d.Categories[j].Name })
		for _, c := range d.Categories {
			d.Count += len(c.Entries)
		}
	}
	return ds
}

// paginate cuts a domain's categories into pages of at most size entries,
// a category split between pages keeping its name on each.
func paginate(cats []Category, size int) [][]Category {
	var pages [][]Category
	var page []Category
	n := 0
	for _, c := range cats {
		for es := c.Entries; len(es) > 0; {
			if n == size {
				pages, page, n = append(pages, page), nil, 0
			}
			k := min(len(es), size-n)
			page = append(page, Category{Name: c.Name, Entries: es[:k]})
			es, n = es[k:], n+k
		}
	}
	if len(page) > 0 {
		pages = append(pages, page)
	}
	return pages
}

// recent returns the entries updated last, newest first; entries of one day
// by id.
func recent(entries []*kb.Entry) []*kb.Entry {
	es := append([]*kb.Entry(nil), entries...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].LastUpdated != es[j].LastUpdated {
			return es[i].LastUpdated > es[j].LastUpdated
		}
		return es[i].ID < es[j].ID
	})
	return es[:min(len(es), RecentCount)]
}

// sortedCodes lists every code with a page: each entry's error_code and
// the codes it had before, whose old links must still lead to it.
func sortedCodes(entries []*kb.Entry) []string {
	seen := map[string]bool{}
	var codes []string
	for _, e := range entries {
		for _, c := range append([]string{e.ErrorCode}, e.FormerCodes...) {
			if !seen[c] {
				seen[c] = true
				codes = append(codes, c)
			}
		}
	}
	sort.Strings(codes)
	return codes
}

// byCode lists the entries of each code, those that have it now first.
func byCode(entries []*kb.Entry) map[string][]*kb.Entry {
	out := map[string][]*kb.Entry{}
	for _, e := range entries {
		out[e.ErrorCode] = append(out[e.ErrorCode], e)
	}
	for _, e := range entries {
		for _, c := range e.FormerCodes {
			if !slices.Contains(out[c], e) {
				out[c] = append(out[c], e)
			}
		}
	}
	return out
}

// Update returns the site for k, a reload of s's KB in which the entries
// named in changed are new objects with the same ids, error codes and
// signatures, domains and categories (serve --watch). The pages that show a
// changed entry are new, as the list pages' groups; the others are s's own,
// now of the new site. It returns the pages that show a changed entry (with
// lists, the home and catalogue pages too: what they list of an entry
// changed).
func (s *Site) Update(k *kb.KB, changed map[string]bool, lists bool) (*Site, []*Page) {
	// Signatures are the same (see above): so are the causes sharing a message.
	n := &Site{BaseURL: s.BaseURL, KB: k, Articles: s.Articles, RepoURL: s.RepoURL, Domains: group(k.Entries), Recent: recent(k.Entries),
		causes: s.causes, Pages: make([]*Page, len(s.Pages))}
	var affected []*Page
	for i, p := range s.Pages {
		if !p.shows(changed) && !(lists && (p.Kind == KindHome || p.Kind == KindCatalog)) {
			p.Site = n
			n.Pages[i] = p
			continue
		}
		q := *p
		q.Site = n
		switch q.Kind {
		case KindEntry:
			q.Entry = k.ByID[p.Entry.ID]
			q.Title, _ = localSignature(q.Entry, p.Lang.Code)
		case KindCatalog:
			// An entry moved to another domain or category is a full build
			// (build.changedEntries): the same entries, new values.
			if p.Domain != nil {
				for i := range n.Domains {
					if n.Domains[i].Name == p.Domain.Name {
						q.Domain = &n.Domains[i]
					}
				}
				q.Listing = make([]Category, len(p.Listing))
				for i, c := range p.Listing {
					q.Listing[i] = Category{Name: c.Name, Entries: make([]*kb.Entry, len(c.Entries))}
					for j, e := range c.Entries {
						q.Listing[i].Entries[j] = k.ByID[e.ID]
					}
				}
			}
		case KindRedirect, KindCodeList:
			q.Targets = make([]*kb.Entry, len(p.Targets))
			for j, e := range p.Targets {
				q.Targets[j] = k.ByID[e.ID]
			}
		}
		n.Pages[i] = &q
		affected = append(affected, &q)
	}
	return n, affected
}

// shows tells whether the page shows one of the entries: its own pages,
// its stable links, and the pages of entries related to it.
func (p *Page) shows(ids map[string]bool) bool {
	switch p.Kind {
	case KindEntry:
		if ids[p.Entry.ID] {
			return true
		}
		g := p.Entry.TransitionGraph
		for _, related := range [][]string{g.LeadsTo, g.PrecededBy, g.FrequentlyConfusedWith} {
			for _, id := range related {
				if ids[id] {
					return true
				}
			}
		}
	case KindRedirect, KindCodeList:
		for _, e := range p.Targets {
			if ids[e.ID] {
				return true
			}
		}
	}
	return false
}
