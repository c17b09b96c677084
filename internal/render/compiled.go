package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Entry, redirect and domain catalogue pages are most of a site's pages.
// Through html/template they cost most of a build's CPU, in text/template's
// reflective evaluator and its garbage, so they are also written by the Go
// code below, which writes what base.html, entry.html, redirect.html and
// catalog.html (for a domain's pages) write, byte for byte,
// with the same escaping in each context (escape.go). The templates stay the
// reference: compiled_test.go renders every such page both ways and requires
// equal bytes, and a Renderer uses this code only when the templates it was
// given are the ones this code was written from (compiledFor). Templates of
// one's own are rendered by html/template as before; i18n.json and the
// assets are read as given either way.

// compiledFor is the SHA-256 of base.html, entry.html, redirect.html and catalog.html (in
// that order, each preceded by its length) that the code below writes.
// TestCompiledTemplatesCurrent says when the templates changed.
const compiledFor = "88e1abfaa785340c7b3c5caa51b866efe1a89a09a0e378773650952c5826a9b4"

// compiledTemplates are the files the compiled pages follow.
var compiledTemplates = []string{"base.html", "entry.html", "redirect.html", "catalog.html"}

// templatesHash is compiledFor's hash of the templates in fsys.
func templatesHash(fsys fs.FS) (string, error) {
	h := sha256.New()
	for _, name := range compiledTemplates {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// literals prepares the UI strings of each language as the templates'
// literal {{T "key"}} put them into a page (see localize).
func (r *Renderer) literals() {
	r.lit = map[string]map[string]string{}
	for code, strs := range r.strings {
		m := map[string]string{}
		for k, v := range strs {
			m[k] = html.EscapeString(v)
		}
		r.lit[code] = m
	}
}

// page is a page being written by the compiled code.
type page struct {
	b    []byte
	r    *Renderer
	p    *site.Page
	code string // the page's language code, en on language-neutral pages
	root string // from the page to the site root: "", "../../"
	lit  map[string]string
	e    *site.EntryView // an entry page's entry
	err  error           // the first failure; the rest of the page is not written
}

func (w *page) s(s string)    { w.b = append(w.b, s...) }
func (w *page) text(s string) { w.b = appendHTML(w.b, s) }
func (w *page) url(s string)  { w.b = appendURL(w.b, s) }
func (w *page) int(i int)     { w.b = strconv.AppendInt(w.b, int64(i), 10) }
func (w *page) pct(f float64) { w.b = appendPct(w.b, f) }

// t writes a UI string asked for by a literal key.
func (w *page) t(key string) { w.b = append(w.b, w.lit[key]...) }

// dynT writes a UI string whose key is computed, as a value.
func (w *page) dynT(key string) {
	s, err := w.r.text(w.code, key)
	if err != nil {
		w.fail(err)
		return
	}
	w.text(s)
}

// rel is site.Page.Rel with the root computed once.
func (w *page) rel(target string) string {
	if target == "" || strings.HasSuffix(target, "/") {
		return w.root + target + "index.html"
	}
	return w.root + target
}

// relURL writes rel(target) as a URL attribute value. A root of "../"
// steps puts a slash before any colon, so only a target from the root can
// have a scheme; escaping is the same in parts as whole.
func (w *page) relURL(target string) {
	if w.root == "" && !safeURL(target) {
		w.s(unsafeURL)
		return
	}
	w.b = appendURLPath(w.b, w.root)
	w.b = appendURLPath(w.b, target)
	if target == "" || strings.HasSuffix(target, "/") {
		w.s("index.html")
	}
}

// md writes inline Markdown from the KB.
func (w *page) md(s string) {
	h, err := w.r.markdown[w.code].Inline(s)
	if err != nil {
		w.fail(err)
		return
	}
	w.s(string(h))
}

func (w *page) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// partial writes a part of base.html that every page of a language and
// depth shares (see partialCached), rendered once by its template.
func (w *page) partial(name string, values ...any) {
	key := partialKey{name, w.code, w.root}
	if h, ok := w.r.compiledPartials.Load(key); ok {
		w.s(h.(string))
		return
	}
	v := &view{Page: w.p, r: w.r, t: w.r.pages[site.KindEntry][w.code]}
	h, err := v.partialCached(name, values)
	if err != nil {
		w.fail(err)
		return
	}
	w.r.compiledPartials.Store(key, string(h))
	w.s(string(h))
}

// partialKey names a partial of one language at one depth.
type partialKey struct{ name, code, root string }

// compiledPage writes p into b when the compiled code has its kind, and
// says whether it did.
func (r *Renderer) compiledPage(b []byte, p *site.Page) ([]byte, bool, error) {
	catalog := p.Kind == site.KindCatalog && p.Domain != nil
	if !r.compiled || p.Kind != site.KindEntry && p.Kind != site.KindRedirect && !catalog {
		return b, false, nil
	}
	code := p.Lang.Code
	if code == "" {
		code = site.Langs[0].Code
	}
	w := &page{b: b, r: r, p: p, code: code, root: p.Root(), lit: r.lit[code]}
	switch {
	case p.Kind == site.KindEntry:
		w.e = p.View()
		w.entry()
	case catalog:
		w.base(func(string, string) {}, w.catalogMain)
	default:
		w.redirect()
	}
	if w.err != nil {
		return w.b, true, fmt.Errorf("render %s: %w", p.File(), w.err)
	}
	return w.b, true, nil
}

// base writes base.html around a page's head, which is given the page's
// language tag and URL, and its main.
func (w *page) base(head func(tag, pageURL string), main func()) {
	p := w.p
	tag := p.Lang.Tag
	if tag == "" {
		l, _ := site.LangByCode(w.code)
		tag = l.Tag
	}
	w.s("<!doctype html>\n<html lang=\"")
	w.text(tag)
	w.s("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	w.text(p.Title)
	w.s(" · ")
	w.t("site_name")
	w.s("</title>")

	pageURL := p.Site.URL(p.Path)
	head(tag, pageURL)

	// back in base.html
	if pageURL != "" {
		w.s("\n<link rel=\"canonical\" href=\"")
		w.url(pageURL)
		w.s("\">")
	}
	for _, a := range p.Alternates {
		w.s("\n<link rel=\"alternate\" hreflang=\"")
		w.text(a.Lang.Tag)
		w.s("\" href=\"")
		if u := p.Site.URL(a.Path); u != "" {
			w.url(u)
		} else {
			w.relURL(a.Path)
		}
		w.s("\">")
	}
	if p.Site.BaseURL != "" {
		w.s("\n<link rel=\"search\" type=\"application/opensearchdescription+xml\" title=\"")
		w.t("site_name")
		w.s("\" href=\"")
		w.relURL(w.code + "/opensearch.xml")
		w.s("\">")
	}
	w.s("\n")
	w.partial("assets", w.root)
	w.s("\n</head>\n<body data-lang=\"")
	w.text(w.code)
	w.s("\" data-root=\"")
	w.text(w.root)
	w.s("\" data-copied=\"")
	w.t("copied")
	w.s("\" data-copy-failed=\"")
	w.t("copy_failed")
	w.s("\" data-query-too-long=\"")
	w.t("query_too_long")
	w.s("\">\n<header class=\"top\">\n")
	w.partial("brand", w.root)
	if len(p.Alternates) > 0 {
		w.s("\n<nav class=\"langs\" aria-label=\"")
		w.t("language")
		w.s("\">")
		for _, a := range p.Alternates {
			w.s("\n<a href=\"")
			w.relURL(a.Path)
			w.s("\" hreflang=\"")
			w.text(a.Lang.Tag)
			w.s("\" lang=\"")
			w.text(a.Lang.Tag)
			w.s("\" data-lang=\"")
			w.text(a.Lang.Code)
			w.s("\"")
			if a.Lang.Code == p.Lang.Code {
				w.s(" aria-current=\"page\"")
			}
			w.s(">")
			w.text(a.Lang.Name)
			w.s("</a>")
		}
		w.s("\n</nav>")
	}
	w.s("\n</header>\n")
	w.partial("machine")
	w.s("\n<main id=\"main\">\n")
	main()
	w.s("\n</main>\n<footer class=\"bottom\"><p>")
	w.t("tagline")
	w.s("</p></footer>\n</body>\n</html>\n")
}

// catalogMain writes catalog.html's main for a page of a domain.
func (w *page) catalogMain() {
	p, d := w.p, w.p.Domain
	w.s("\n<p class=\"crumbs\"><a href=\"")
	w.relURL(w.code + "/")
	w.s("\">")
	w.t("home")
	w.s("</a> / <a href=\"")
	w.relURL(site.CatalogPath(w.code, "", 1))
	w.s("\">")
	w.t("catalog")
	w.s("</a> / ")
	w.text(d.Name)
	w.s("</p>\n<h1>")
	w.text(d.Name)
	w.s("</h1>\n<p class=\"meta\">")
	if d.Count == 1 {
		w.t("entries_1")
	} else {
		w.printf("entries_n", d.Count)
	}
	if p.PageCount > 1 {
		w.s(" · ")
		w.printf("page_n", p.PageN, p.PageCount)
	}
	w.s("</p>\n<p><label><input type=\"checkbox\" id=\"only-applying\"> ")
	w.t("only_applying")
	w.s("</label></p>")
	for _, c := range p.Listing {
		w.s("\n<h2>")
		w.text(c.Name)
		w.s("</h2>\n<ul class=\"entries\">")
		for _, e := range c.Entries {
			w.s("\n<li")
			w.applies("data-entry-versions", e)
			w.s("><a href=\"")
			w.relURL(site.EntryPath(w.code, e.ID))
			w.s("\"><code class=\"sig\">")
			w.text(site.Signature(e, w.code))
			w.s("</code></a>\n<span class=\"meta\"><code>")
			w.text(e.ErrorCode)
			w.s("</code> · ")
			w.tier(e.VerificationTier)
			w.s(" · ")
			w.t("confidence")
			w.s(" ")
			w.pct(e.Confidence)
			if n := p.Site.Causes(e); n > 1 {
				w.s(" · <span class=\"cause-count\">")
				w.printf("shared_causes_n", n)
				w.s("</span>")
			}
			w.s("</span></li>")
		}
		w.s("\n</ul>")
	}
	if pager := (&view{Page: p}).Pager(); len(pager) > 0 {
		w.s("\n<nav class=\"pager\" aria-label=\"")
		w.t("pages")
		w.s("\">")
		for _, l := range pager {
			w.s(" ")
			switch {
			case l.Current:
				w.s("<span aria-current=\"page\">")
				w.int(l.N)
				w.s("</span>")
			case l.N != 0:
				w.s("<a href=\"")
				w.relURL(l.Path)
				w.s("\">")
				w.int(l.N)
				w.s("</a>")
			default:
				w.s("…")
			}
		}
		w.s("\n</nav>")
	}
}

// applies writes the attributes the browser's rules read: the entry's
// versions as JSON in the attribute named, and its applies_when.
func (w *page) applies(versions string, e *kb.Entry) {
	w.s(" ")
	w.s(versions)
	w.s("=\"")
	vs := make([]string, 0, len(e.Versions)) // "[]" for none, as the templates' VersionStrings
	for _, v := range e.Versions {
		vs = append(vs, v.Version)
	}
	w.text(string(appendJSONStrings(nil, vs)))
	w.s("\"")
	if e.AppliesWhen != "" {
		w.s(" data-applies-when=\"")
		w.text(e.AppliesWhen)
		w.s("\"")
	}
}

// tier writes an entry's verification tier as its badge.
func (w *page) tier(t string) {
	w.s("<span class=\"tier tier-")
	w.text(t)
	w.s("\">")
	w.dynT("tier_" + t)
	w.s("</span>")
}

// printf writes a UI string used as a format, as the templates' printf
// (T "key") does.
func (w *page) printf(key string, args ...any) {
	f, err := w.r.text(w.code, key)
	if err != nil {
		w.fail(err)
		return
	}
	w.text(fmt.Sprintf(f, args...))
}

// entry writes base.html with entry.html's head and main.
func (w *page) entry() {
	e := w.e
	var cause string
	w.base(func(tag, pageURL string) {
		// entry.html's head. The root cause's HTML serves the description
		// and the page's text: Markdown is most of an entry page's time.
		h, err := w.r.markdown[w.code].Inline(e.RootCause.Text)
		if err != nil {
			w.fail(err)
			return
		}
		cause = string(h)
		desc := summary(plain(cause))
		w.s("\n<meta name=\"description\" content=\"")
		w.text(desc)
		w.s("\">\n<meta property=\"og:type\" content=\"article\">\n<meta property=\"og:site_name\" content=\"")
		w.t("site_name")
		w.s("\">\n<meta property=\"og:title\" content=\"")
		w.text(e.Signature)
		w.s("\">\n<meta property=\"og:description\" content=\"")
		w.text(desc)
		w.s("\">\n<meta property=\"og:locale\" content=\"")
		if w.code == "zh" {
			w.s("zh_CN")
		} else {
			w.s("en_US")
		}
		w.s("\">")
		if pageURL != "" {
			w.s("\n<meta property=\"og:url\" content=\"")
			w.text(pageURL)
			w.s("\">")
		}
		w.s("\n<meta name=\"twitter:card\" content=\"summary\">\n<script type=\"application/ld+json\">")
		w.entryLD(desc, tag, pageURL)
		w.s("</script>")
	}, func() { w.entryMain(e, e.Entry, cause) })
}

// entryMain writes entry.html's main.
func (w *page) entryMain(e *site.EntryView, k *kb.Entry, cause string) {
	w.s("<article class=\"entry\" data-entry-id=\"")
	w.text(k.ID)
	w.s("\"")
	w.applies("data-versions", k)
	w.s(">\n<header>\n<p class=\"crumbs\"><a href=\"")
	w.relURL(w.code + "/")
	w.s("\">")
	w.t("home")
	w.s("</a> / <a href=\"")
	w.relURL(site.CatalogPath(w.code, k.Domain, 1))
	w.s("\">")
	w.text(k.Domain)
	w.s("</a> / ")
	w.text(k.Category)
	if k.Subcategory != "" {
		w.s(" / ")
		w.text(k.Subcategory)
	}
	w.s("</p>\n<h1>")
	w.text(e.Signature)
	w.s("</h1>\n<p class=\"badges\">")
	w.tier(k.VerificationTier)
	w.s(" <span class=\"confidence\" title=\"")
	w.t("confidence_def")
	w.s("\">")
	w.t("confidence")
	w.s(" ")
	w.pct(k.Confidence)
	w.s("</span></p>")
	if k.VerificationTier == "ai_generated" {
		w.s("\n<p class=\"notice\" role=\"note\">")
		w.t("ai_notice")
		w.s("</p>")
	}
	w.s("\n</header>\n\n<section class=\"signature\">\n<h2>")
	w.t("signature")
	w.s("</h2>\n<div class=\"code\"><button type=\"button\" class=\"copy\">")
	w.t("copy")
	w.s("</button><pre class=\"sig\"><code>")
	w.text(k.Signature)
	w.s("</code></pre></div>")
	if e.Translation != "" {
		w.s("\n<p class=\"translated\">")
		w.t("signature_translated")
		w.s(": <span lang=\"")
		l, _ := site.LangByCode(w.code)
		w.text(l.Tag)
		w.s("\">")
		w.text(e.Translation)
		w.s("</span></p>")
	}
	w.s("\n<dl class=\"facts\">")
	if src := k.SignatureSource; src != nil {
		w.s("\n<dt>")
		w.t("signature_source")
		w.s("</dt><dd class=\"signature-source\">")
		if src.Kind == "reproduction" {
			if k.Reproducer != nil {
				w.s("<a href=\"")
				w.relURL(k.Reproducer.Output)
				w.s("\">")
				w.t("source_reproduction")
				w.s("</a>")
			}
		} else {
			w.s("<a href=\"")
			w.url(src.URL)
			w.s("\" rel=\"noopener\">")
			w.dynT("source_" + src.Kind)
			w.s("</a>")
		}
		if src.Note != "" {
			w.s(" <span class=\"meta\" lang=\"en\">(")
			w.text(src.Note)
			w.s(")</span>")
		}
		w.s("</dd>")
	}
	w.s("\n<dt>")
	if e.CodePrinted {
		w.t("error_code")
	} else {
		w.t("entry_code")
	}
	w.s("</dt><dd><code>")
	w.text(k.ErrorCode)
	w.s("</code></dd>\n<dt>")
	w.t("regex")
	w.s("</dt><dd><code class=\"regex\">")
	w.text(k.Regex)
	w.s("</code></dd>\n<dt>")
	w.t("domain")
	w.s("</dt><dd>")
	w.text(k.Domain)
	w.s("</dd>\n<dt>")
	w.t("category")
	w.s("</dt><dd>")
	w.text(k.Category)
	if k.Subcategory != "" {
		w.s(" / ")
		w.text(k.Subcategory)
	}
	w.s("</dd>")
	if len(k.Aliases) > 0 {
		w.s("\n<dt>")
		w.t("aliases")
		w.s("</dt><dd>")
		for i, a := range k.Aliases {
			if i > 0 {
				w.s(", ")
			}
			w.s("<code>")
			w.text(a)
			w.s("</code>")
		}
		w.s("</dd>")
	}
	if len(e.FormerSignatures) > 0 {
		w.s("\n<dt>")
		w.t("former_signatures")
		w.s("</dt><dd>")
		for _, f := range e.FormerSignatures {
			w.s("<p class=\"former\"><code>")
			w.text(f.Signature)
			w.s("</code> <span")
			if f.Note.Fallback {
				w.s(" lang=\"en\"")
			}
			w.s(">")
			w.text(f.Note.Text)
			w.s("</span></p>")
		}
		w.s("</dd>")
	}
	w.s("\n</dl>\n</section>\n\n<section class=\"cause\">\n<h2>")
	w.t("root_cause")
	w.s("</h2>\n<p")
	if e.RootCause.Fallback {
		w.s(" lang=\"en\"")
	}
	w.s(">")
	w.s(cause)
	if e.RootCause.Fallback {
		w.s(" <span class=\"fallback\">(")
		w.t("in_english")
		w.s(")</span>")
	}
	w.s("</p>")
	if k.RootCauseType != "" {
		w.s("\n<p class=\"meta\">")
		w.t("root_cause_type")
		w.s(": ")
		w.text(k.RootCauseType)
		w.s("</p>")
	}
	w.s("\n</section>")

	if len(w.p.Guides) > 0 {
		w.s("\n<section class=\"guides\">\n<h2>")
		w.t("guides")
		w.s("</h2>\n<ul>")
		for _, a := range w.p.Guides {
			w.s("\n<li><a href=\"")
			w.relURL(site.ArticlePath(w.code, a.Slug))
			w.s("\">")
			w.text(a.Title)
			w.s("</a></li>")
		}
		w.s("\n</ul>\n</section>")
	}

	if rp := k.Reproducer; rp != nil {
		w.s("\n<section class=\"reproduced\">\n<h2>")
		w.t("reproduced")
		w.s("</h2>\n<p>")
		w.t("reproduced_on")
		w.s(" ")
		w.text(rp.Machine)
		w.s(", <time datetime=\"")
		w.text(rp.Date)
		w.s("\">")
		w.text(rp.Date)
		w.s("</time>.</p>\n<div class=\"code\"><button type=\"button\" class=\"copy\">")
		w.t("copy")
		w.s("</button><pre class=\"sig\"><code>")
		w.text(rp.Line)
		w.s("</code></pre></div>\n<p class=\"meta\">")
		w.t("reproducer")
		w.s(": <a href=\"")
		w.relURL(rp.Program)
		w.s("\">")
		w.text(rp.Program)
		w.s("</a> · ")
		w.t("reproducer_output")
		w.s(": <a href=\"")
		w.relURL(rp.Output)
		w.s("\">")
		w.text(rp.Output)
		w.s("</a>")
		if rp.Command != "" {
			w.s(" · <code>")
			w.text(rp.Command)
			w.s("</code>")
		}
		w.s("</p>\n</section>")
	}

	if len(e.Workarounds) > 0 {
		w.s("\n<section class=\"workarounds\">\n<h2>")
		w.t("workarounds")
		w.s("</h2>\n<ol>")
		for i := range e.Workarounds {
			wv := &e.Workarounds[i]
			w.s("\n<li id=\"workaround-")
			w.int(wv.Index)
			w.s("\" data-workaround=\"")
			w.int(wv.Index)
			w.s("\"")
			w.condition(wv.Condition)
			w.s(">\n<p")
			w.fallbackText(wv.Text)
			w.s("</p>")
			if wv.How != "" {
				w.s("\n<p class=\"how\">")
				w.md(wv.How)
				w.s("</p>")
			}
			w.s("\n<p class=\"meta\">")
			if r := wv.Rate; r != nil {
				w.s("<meter min=\"0\" max=\"1\" value=\"")
				w.b = appendFloat(w.b, r.Value)
				w.s("\"></meter> ")
				w.rate(r, "success_rate", "worked_reports")
			}
			w.conditionNote(wv.Condition)
			w.s("</p>")
			w.sources(wv.Sources)
			w.s("\n</li>")
		}
		w.s("\n</ol>\n</section>")
	}

	if len(e.DeadEnds) > 0 {
		w.s("\n<section class=\"dead-ends\">\n<h2>")
		w.t("dead_ends")
		w.s("</h2>\n<ul>")
		for i := range e.DeadEnds {
			d := &e.DeadEnds[i]
			w.s("\n<li id=\"dead-end-")
			w.int(d.Index)
			w.s("\" data-dead-end=\"")
			w.int(d.Index)
			w.s("\"")
			w.condition(d.Condition)
			w.s(">")
			if d.Action.Text != "" {
				w.s("\n<p class=\"action\"")
				if d.Action.Fallback {
					w.s(" lang=\"en\"")
				}
				w.s("><strong>")
				w.md(d.Action.Text)
				w.s("</strong></p>")
			}
			w.s("\n<p")
			w.fallbackText(d.WhyFails)
			w.s("</p>\n<p class=\"meta\">")
			if r := d.Rate; r != nil {
				w.rate(r, "fail_rate", "failed_reports")
			}
			w.conditionNote(d.Condition)
			w.s("</p>")
			w.sources(d.Sources)
			w.s("\n</li>")
		}
		w.s("\n</ul>\n</section>")
	}

	if len(e.Versions) > 0 {
		w.s("\n<section class=\"versions\">\n<h2>")
		w.t("versions")
		w.s("</h2>\n<table>\n<thead><tr><th>")
		w.t("version")
		w.s("</th><th>")
		w.t("status")
		w.s("</th>")
		if e.HasVersionDetails {
			w.s("<th>")
			w.t("introduced")
			w.s("</th><th>")
			w.t("deprecated")
			w.s("</th><th>")
			w.t("removed")
			w.s("</th><th>")
			w.t("behavior_change")
			w.s("</th>")
		}
		w.s("</tr></thead>\n<tbody>")
		for _, v := range e.Versions {
			w.s("\n<tr><td><code>")
			w.text(v.Version)
			w.s("</code></td><td>")
			w.text(v.Status)
			w.s("</td>")
			if e.HasVersionDetails {
				w.s("<td>")
				w.text(v.Introduced)
				w.s("</td><td>")
				w.text(v.Deprecated)
				w.s("</td><td>")
				w.text(v.Removed)
				w.s("</td><td>")
				w.text(v.BehaviorChange)
				w.s("</td>")
			}
			w.s("</tr>")
		}
		w.s("\n</tbody>\n</table>\n</section>")
	}

	if len(k.OSSpecific) > 0 {
		w.s("\n<section class=\"os\">\n<h2>")
		w.t("os_specific")
		w.s("</h2>\n<dl>")
		names := make([]string, 0, len(k.OSSpecific))
		for os := range k.OSSpecific {
			names = append(names, os)
		}
		sort.Strings(names)
		for _, os := range names {
			w.s("\n<dt>")
			w.text(os)
			w.s("</dt><dd>")
			w.md(k.OSSpecific[os])
			w.s("</dd>")
		}
		w.s("\n</dl>\n</section>")
	}

	if len(e.Related) > 0 {
		w.s("\n<section class=\"related\">\n<h2>")
		w.t("related")
		w.s("</h2>\n<ul>")
		for _, rl := range e.Related {
			w.s("\n<li>")
			w.dynT(rl.Relation)
			w.s(": <a href=\"")
			w.relURL(site.EntryPath(w.code, rl.Entry.ID))
			w.s("\"><code>")
			w.text(rl.Entry.ErrorCode)
			w.s("</code> ")
			w.text(site.Signature(rl.Entry, w.code))
			w.s("</a></li>")
		}
		w.s("\n</ul>\n</section>")
	}

	w.s("\n\n<section class=\"details\">\n<h2>")
	w.t("details")
	w.s("</h2>\n<dl class=\"facts\">")
	if k.OfficialDocURL != "" {
		w.s("\n<dt>")
		w.t("official_doc")
		w.s("</dt><dd><a href=\"")
		w.url(k.OfficialDocURL)
		w.s("\" rel=\"noopener\">")
		w.text(k.OfficialDocURL)
		w.s("</a>")
		if k.OfficialDocSection != "" {
			w.s(" (")
			w.text(k.OfficialDocSection)
			w.s(")")
		}
		w.s("</dd>")
	}
	if k.Resolvable != "" {
		w.s("\n<dt>")
		w.t("resolvable")
		w.s("</dt><dd>")
		w.dynT("resolvable_" + k.Resolvable)
		w.s("</dd>")
	}
	if r := e.FixRate; r != nil {
		w.s("\n<dt>")
		w.t("fix_success_rate")
		w.s("</dt><dd>")
		w.rate(r, "", "worked_reports")
		w.s("</dd>")
	}
	w.s("\n<dt>")
	w.t("confidence_label")
	w.s("</dt><dd>")
	w.pct(k.Confidence)
	w.s(": ")
	w.t("confidence_def")
	w.s("</dd>")
	w.s("\n<dt>")
	w.t("evidence_count")
	w.s("</dt><dd>")
	w.int(k.EvidenceCount)
	w.s("</dd>")
	w.date("first_seen", k.FirstSeen)
	w.date("last_confirmed", k.LastConfirmed)
	w.date("last_updated", k.LastUpdated)
	if len(k.Tags) > 0 {
		w.s("\n<dt>")
		w.t("tags")
		w.s("</dt><dd>")
		w.text(strings.Join(k.Tags, ", "))
		w.s("</dd>")
	}
	w.s("\n</dl>\n</section>")
	if w.p.Site.RepoURL != "" {
		v := &view{Page: w.p, r: w.r, Entry: w.e}
		w.s("\n<p class=\"edit\"><a href=\"")
		w.url(v.EditURL())
		w.s("\">")
		w.t("edit_entry")
		w.s("</a> · <a href=\"")
		w.url(v.ReportEntryURL())
		w.s("\">")
		w.t("report_entry")
		w.s("</a></p>")
	}
	w.s("\n</article>")
}

// rate writes a rate as entry.html does: the count it rests on (counted,
// a format of reports and of), or the figure labelled an estimate, after
// the name of the rate (label) when there is one.
func (w *page) rate(r *site.Rate, label, counted string) {
	if r.Counted {
		w.printf(counted, r.Reports, r.Of)
		return
	}
	w.pct(r.Value)
	if label != "" {
		w.s(" ")
		w.t(label)
	}
	w.s(" <span class=\"estimate\">(")
	w.t("estimate")
	w.s(")</span>")
}

// fallbackText finishes an opened <p with a KB text, marked English where
// it stands in for a translation.
func (w *page) fallbackText(t site.Text) {
	if t.Fallback {
		w.s(" lang=\"en\"")
	}
	w.s(">")
	w.md(t.Text)
	if t.Fallback {
		w.s(" <span class=\"fallback\">(")
		w.t("in_english")
		w.s(")</span>")
	}
}

func (w *page) condition(c string) {
	if c != "" {
		w.s(" data-condition=\"")
		w.text(c)
		w.s("\"")
	}
}

func (w *page) conditionNote(c string) {
	if c != "" {
		w.s(" · ")
		w.t("condition")
		w.s(": <code>")
		w.text(c)
		w.s("</code>")
	}
}

// sources writes entry.html's "sources" template.
func (w *page) sources(urls []string) {
	if len(urls) == 0 {
		return
	}
	w.s("\n<ul class=\"sources\">")
	for _, u := range urls {
		w.s("\n<li><a href=\"")
		w.url(u)
		w.s("\" rel=\"noopener\">")
		w.text(u)
		w.s("</a></li>")
	}
	w.s("\n</ul>")
}

func (w *page) date(key, d string) {
	if d == "" {
		return
	}
	w.s("\n<dt>")
	w.t(key)
	w.s("</dt><dd><time datetime=\"")
	w.text(d)
	w.s("\">")
	w.text(d)
	w.s("</time></dd>")
}

// plain is view.Plain's text of inline Markdown's HTML.
func plain(h string) string {
	return strings.TrimSpace(html.UnescapeString(stripTags(h)))
}

// stripTags removes what the pattern <[^>]*> matches, as Plain's regular
// expression does.
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

// entryLD writes view.EntryLD's JSON as html/template writes it in a
// script: encoding/json's, whose keys of a map are sorted.
func (w *page) entryLD(desc, tag, pageURL string) {
	e := w.e
	k := e.Entry
	b := w.b
	str := func(key, val string) {
		b = append(b, ',')
		b = appendJSONString(b, key)
		b = append(b, ':')
		b = appendJSONString(b, val)
	}
	b = append(b, `{"@context":"https://schema.org","@type":"TechArticle","about":{"@type":"Thing"`...)
	if len(k.Aliases) > 0 {
		b = append(b, `,"alternateName":`...)
		b = appendJSONStrings(b, k.Aliases)
	}
	str("description", k.Signature)
	str("name", k.ErrorCode)
	b = append(b, '}')
	if k.LastUpdated != "" {
		str("dateModified", k.LastUpdated)
	}
	if k.FirstSeen != "" {
		str("datePublished", k.FirstSeen)
	}
	str("description", desc)
	str("headline", e.Signature)
	str("inLanguage", tag)
	src := ""
	if k.SignatureSource != nil {
		src = k.SignatureSource.URL
	}
	if based := entrySources(src, k.OfficialDocURL, e); len(based) > 0 {
		b = append(b, `,"isBasedOn":`...)
		b = appendJSONStrings(b, based)
	}
	if len(k.Tags) > 0 {
		str("keywords", strings.Join(k.Tags, ", "))
	}
	if pageURL != "" {
		str("mainEntityOfPage", pageURL)
	}
	str("name", e.Signature)
	b = append(b, `,"publisher":{"@type":"Organization"`...)
	w.b = b
	str("name", w.r.strings[w.code]["site_name"])
	b = append(b, '}')
	if pageURL != "" {
		str("url", pageURL)
	}
	w.b = append(b, '}')
}

// redirect writes redirect.html.
func (w *page) redirect() {
	p := w.p
	w.s("<!doctype html>\n<html lang=\"")
	w.text(site.Langs[0].Tag)
	w.s("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	w.text(p.Title)
	w.s(" · ")
	w.t("site_name")
	w.s("</title>\n<meta name=\"robots\" content=\"noindex\">\n<script>\n\n\n\n(function () {\n  var langs = ")
	codes := make([]string, len(site.Langs))
	for i, l := range site.Langs {
		codes[i] = l.Code
	}
	w.b = appendJSONStrings(w.b, codes)
	w.s(", root = ")
	w.b = appendJSONString(w.b, w.root)
	w.s(", target = ")
	w.b = appendJSONString(w.b, p.Target)
	w.s(redirectScript)
	w.b = appendRefreshURL(w.b, w.rel(site.Langs[0].Code+"/"+p.Target))
	w.s("\"></noscript>\n<link rel=\"icon\" href=\"")
	w.relURL("assets/favicon.svg")
	w.s("\" type=\"image/svg+xml\">\n<link rel=\"stylesheet\" href=\"")
	w.relURL("assets/style.css")
	w.s("\">\n</head>\n<body>\n<main id=\"main\">\n<h1>")
	w.s(w.r.lit["en"]["redirect_title"])
	w.s(" · ")
	w.s(w.r.lit["zh"]["redirect_title"])
	w.s("</h1>")
	if len(p.Targets) > 0 {
		w.s("\n<p><code class=\"sig\">")
		w.text(p.Targets[0].Signature)
		w.s("</code></p>")
	}
	w.s("\n<ul class=\"choices\">")
	for _, l := range site.Langs {
		w.s("\n<li><a href=\"")
		w.relURL(l.Code + "/" + p.Target)
		w.s("\" hreflang=\"")
		w.text(l.Tag)
		w.s("\" lang=\"")
		w.text(l.Tag)
		w.s("\">")
		w.text(l.Name)
		w.s("</a></li>")
	}
	w.s("\n</ul>\n</main>\n</body>\n</html>\n")
}

// redirectScript is redirect.html's script after its values, as
// html/template writes it (without the script's comments), up to the
// refresh's address.
const redirectScript = `, pick = langs[0];
  var wanted = [];
  try { if (localStorage.getItem("p2pkb.lang")) wanted.push(localStorage.getItem("p2pkb.lang")); } catch (e) {}
  wanted = wanted.concat(navigator.languages || [navigator.language || ""]);
  outer: for (var i = 0; i < wanted.length; i++) {
    for (var j = 0; j < langs.length; j++) {
      if ((wanted[i] || "").toLowerCase().split("-")[0] === langs[j]) { pick = langs[j]; break outer; }
    }
  }
  location.replace(root + pick + "/" + target + "index.html" + location.hash);
})();
</script>
<noscript><meta http-equiv="refresh" content="0; url=`
