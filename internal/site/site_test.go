package site

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
)

func TestRel(t *testing.T) {
	cases := []struct{ page, target, want string }{
		{"", "en/", "en/index.html"},
		{"en/", "assets/style.css", "../assets/style.css"},
		{"en/kb/cuda/x/", "zh/kb/cuda/x/", "../../../../zh/kb/cuda/x/index.html"},
		{"e/GPA/", "en/kb/tensorflow/y/", "../../en/kb/tensorflow/y/index.html"},
		{"404.html", "en/", "en/index.html"},
		{"zh/kb/cuda/x/", "zh/kb/linux/y/", "../../linux/y/index.html"},
		{"zh/kb/cuda/x/", "zh/kb/cuda/x/", "index.html"},
		{"zh/kb/cuda/x/", "zh/", "../../../index.html"},
		{"zh/kb/cuda/", "zh/kb/cuda/page/2/", "page/2/index.html"},
		{"zh/kb/cuda/x/", "zh/kb/cuda/", "../index.html"},
	}
	for _, c := range cases {
		p := &Page{Path: c.page}
		if got := p.Rel(c.target); got != c.want {
			t.Errorf("Rel from %q to %q = %q, want %q", c.page, c.target, got, c.want)
		}
	}
}

func TestNewPagesAndSharedCodes(t *testing.T) {
	a := &kb.Entry{ID: "cuda/a", ErrorCode: "cudaErrorX", Domain: "cuda", Category: "runtime_error", Signature: "a"}
	b := &kb.Entry{ID: "cuda/b", ErrorCode: "cudaErrorX", Domain: "cuda", Category: "runtime_error", Signature: "b"}
	c := &kb.Entry{ID: "nccl/c", ErrorCode: "ncclSystemError", Domain: "nccl", Category: "system_error", Signature: "c", FormerCodes: []string{"NCCL_OLD", "cudaErrorX"}}
	k := &kb.KB{Entries: []*kb.Entry{a, b, c}, ByID: map[string]*kb.Entry{"cuda/a": a, "cuda/b": b, "nccl/c": c}}
	en := &content.Article{Slug: "art", Lang: "en", Title: "Art"}
	s := New(k, &content.Set{Slugs: []string{"art"}, Articles: map[string]map[string]*content.Article{"art": {"en": en}}}, "https://kb.example.org/docs")

	pages := map[string]*Page{}
	for _, p := range s.Pages {
		pages[p.Path] = p
	}
	if p := pages["e/cudaErrorX/"]; p == nil || p.Kind != KindCodeList || len(p.Targets) != 3 || p.Targets[2] != c {
		t.Errorf("a code two entries share (and a third had) needs a list page, those with it first, got %+v", p)
	}
	if p := pages["e/NCCL_OLD/"]; p == nil || p.Kind != KindRedirect || p.Target != "kb/nccl/c/" {
		t.Errorf("an entry's former code still leads to it, got %+v", p)
	}
	if p := pages["e/ncclSystemError/"]; p == nil || p.Kind != KindRedirect || p.Target != "kb/nccl/c/" {
		t.Errorf("a code of one entry redirects to it, got %+v", p)
	}
	zh := pages["zh/articles/art/"]
	if zh == nil || !zh.Fallback || zh.Article != en {
		t.Errorf("an untranslated article falls back to English with a note, got %+v", zh)
	}
	if got := pages["zh/kb/cuda/a/"].URL(); got != "https://kb.example.org/docs/zh/kb/cuda/a/" {
		t.Errorf("URL = %q", got)
	}
	if len(s.Domains) != 2 || s.Domains[0].Name != "cuda" || len(s.Domains[0].Categories[0].Entries) != 2 {
		t.Errorf("domains = %+v", s.Domains)
	}
	for _, l := range Langs {
		if pages[l.Code+"/kb/nccl/c/"] == nil || pages[l.Code+"/"] == nil {
			t.Errorf("missing %s pages", l.Code)
		}
	}
}

func TestViewFallsBackToEnglish(t *testing.T) {
	e := &kb.Entry{ID: "x/y", Signature: "boom", SignatureZH: "爆炸", RootCause: "why", RootCauseZH: "",
		Workarounds:   []kb.Workaround{{Action: "low", SuccessRate: 0.2}, {Action: "high", SuccessRate: 0.9}},
		WorkaroundsZH: []string{"低", "high"}}
	v := View(e, "zh", &kb.KB{ByID: map[string]*kb.Entry{}})
	// The page gives the message as printed; the translation beside it.
	if v.Signature != "boom" || v.Translation != "爆炸" {
		t.Errorf("signature %q / %q", v.Signature, v.Translation)
	}
	if !v.RootCause.Fallback || v.RootCause.Text != "why" {
		t.Errorf("root cause %+v", v.RootCause)
	}
	if v.Workarounds[0].Text.Text != "high" || !v.Workarounds[0].Text.Fallback || v.Workarounds[1].Text.Text != "低" {
		t.Errorf("workarounds must sort by success rate and fall back where workarounds_zh is not Chinese: %+v", v.Workarounds)
	}
}

func TestViewShowsNoTranslationOfEnglishOnlyMessages(t *testing.T) {
	e := &kb.Entry{ID: "x/y", Signature: "CUDA_ERROR_X: boom", SignatureZH: "CUDA_ERROR_X: boom"}
	if v := View(e, "zh", &kb.KB{ByID: map[string]*kb.Entry{}}); v.Translation != "" {
		t.Errorf("a signature printed only in English has no translation to show, got %q", v.Translation)
	}
}

// A rate is shown with its basis: a count of reports, or labelled an
// estimate; one with no basis is not shown, and the threads a count rests
// on are listed with the workaround's sources.
func TestViewShowsRatesWithTheirBasis(t *testing.T) {
	e := &kb.Entry{ID: "x/y", Signature: "boom", ErrorCode: "x-y",
		Workarounds: []kb.Workaround{
			{Action: "counted", SuccessRate: 0.75, Sources: []string{"https://a"}, SuccessBasis: &kb.RateBasis{Reports: 3, Of: 4, Sources: []string{"https://a", "https://b"}}},
			{Action: "estimated", SuccessRate: 0.5, SuccessBasis: &kb.RateBasis{Estimate: true}},
			{Action: "bare", SuccessRate: 0.25},
		},
		FixSuccessRate: 0.6, FormerSignatures: []kb.FormerSignature{{Signature: "old", Note: "not printed"}}}
	v := View(e, "zh", &kb.KB{ByID: map[string]*kb.Entry{}})
	w := v.Workarounds
	if r := w[0].Rate; r == nil || !r.Counted || r.Reports != 3 || r.Of != 4 || len(w[0].Sources) != 2 {
		t.Errorf("counted rate %+v, sources %v", r, w[0].Sources)
	}
	if r := w[1].Rate; r == nil || r.Counted || r.Value != 0.5 {
		t.Errorf("estimated rate %+v", r)
	}
	if w[2].Rate != nil || v.FixRate != nil {
		t.Errorf("a rate with no basis is shown: %+v %+v", w[2].Rate, v.FixRate)
	}
	if v.CodePrinted {
		t.Error("x-y is shown as a printed code")
	}
	if f := v.FormerSignatures; len(f) != 1 || f[0].Signature != "old" || !f[0].Note.Fallback {
		t.Errorf("former signatures %+v", f)
	}
}

// An article's front matter names the entries it explains: their pages link
// to it in each language, it lists them, and a name no entry has is refused.
func TestGuidesLinkArticlesAndEntries(t *testing.T) {
	a := &kb.Entry{ID: "cuda/a", ErrorCode: "A", Domain: "cuda", Category: "c", Signature: "a"}
	b := &kb.Entry{ID: "cuda/b", ErrorCode: "B", Domain: "cuda", Category: "c", Signature: "b"}
	k := &kb.KB{Entries: []*kb.Entry{a, b}, ByID: map[string]*kb.Entry{"cuda/a": a, "cuda/b": b}}
	en := &content.Article{Slug: "g", Lang: "en", Title: "Guide", Entries: []string{"cuda/b"}, EntryLines: []int{6}, File: "content/g.md"}
	zh := &content.Article{Slug: "g", Lang: "zh", Title: "指南", File: "content/g.zh.md"}
	set := &content.Set{Slugs: []string{"g"}, Articles: map[string]map[string]*content.Article{"g": {"en": en, "zh": zh}}}
	if err := CheckArticleEntries(k, set); err != nil {
		t.Fatal(err)
	}
	s := New(k, set, "")
	pages := map[string]*Page{}
	for _, p := range s.Pages {
		pages[p.Path] = p
	}
	if g := pages["en/kb/cuda/b/"].Guides; len(g) != 1 || g[0] != en {
		t.Errorf("en entry page guides = %v, want the English guide", g)
	}
	if g := pages["zh/kb/cuda/b/"].Guides; len(g) != 1 || g[0] != zh {
		t.Errorf("zh entry page guides = %v, want the Chinese guide", g)
	}
	if g := pages["en/kb/cuda/a/"].Guides; len(g) != 0 {
		t.Errorf("an entry no guide names has guides %v", g)
	}
	if x := pages["zh/articles/g/"].Explains; len(x) != 1 || x[0] != b {
		t.Errorf("the article lists %v, want cuda/b in every language", x)
	}

	en.Entries, en.EntryLines = []string{"cuda/b", "cuda/gone"}, []int{6, 7}
	err := CheckArticleEntries(k, set)
	if err == nil || !strings.Contains(err.Error(), `content/g.md:7: front matter: entries[1]: no entry has id "cuda/gone"`) {
		t.Errorf("got %v, want the file, line and id of the unknown entry", err)
	}
}

// The catalog is the model without pages: the same KB, articles, domains
// and shared causes as the full model.
func TestCatalogIsTheModelWithoutPages(t *testing.T) {
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	full, cat := New(k, a, ""), Catalog(k, a)
	if len(cat.Pages) != 0 || cat.KB != k || cat.Articles != a {
		t.Fatalf("catalog has %d pages, KB %p, articles %p", len(cat.Pages), cat.KB, cat.Articles)
	}
	if !reflect.DeepEqual(cat.Domains, full.Domains) {
		t.Errorf("domains differ")
	}
	shared := 0
	for _, e := range k.Entries {
		if cat.Causes(e) != full.Causes(e) {
			t.Errorf("%s: %d causes, model says %d", e.ID, cat.Causes(e), full.Causes(e))
		}
		if full.Causes(e) > 1 {
			shared++
		}
	}
	if shared == 0 {
		t.Error("no entry shares its message: the comparison checks nothing")
	}
}

// The catalogue lists every entry once, in pages of at most
// CatalogPageSize, a domain's pages at their paths.
func TestCatalogPages(t *testing.T) {
	var es []*kb.Entry
	byID := map[string]*kb.Entry{}
	for i := range 2*CatalogPageSize + 3 {
		cat := "a_first"
		if i%3 == 0 {
			cat = "b_second"
		}
		e := &kb.Entry{ID: fmt.Sprintf("cuda/e%03d", i), ErrorCode: fmt.Sprint("E", i), Domain: "cuda", Category: cat, Signature: "s", LastUpdated: fmt.Sprintf("2026-01-%02d", 1+i%28)}
		es = append(es, e)
		byID[e.ID] = e
	}
	n := &kb.Entry{ID: "nccl/x", ErrorCode: "X", Domain: "nccl", Category: "c", Signature: "x"}
	es, byID[n.ID] = append(es, n), n
	s := New(&kb.KB{Entries: es, ByID: byID}, &content.Set{}, "")
	for _, l := range Langs {
		listed := map[string]int{}
		var paths []string
		for _, p := range s.Pages {
			if p.Kind != KindCatalog || p.Lang != l {
				continue
			}
			paths = append(paths, p.Path)
			count := 0
			for _, c := range p.Listing {
				for _, e := range c.Entries {
					listed[e.ID]++
					count++
				}
			}
			if count > CatalogPageSize || p.Domain != nil && count == 0 {
				t.Errorf("%s lists %d entries", p.Path, count)
			}
		}
		want := []string{l.Code + "/kb/", l.Code + "/kb/cuda/", l.Code + "/kb/cuda/page/2/", l.Code + "/kb/cuda/page/3/", l.Code + "/kb/nccl/"}
		if !reflect.DeepEqual(paths, want) {
			t.Errorf("%s catalogue pages %q, want %q", l.Code, paths, want)
		}
		for _, e := range es {
			if listed[e.ID] != 1 {
				t.Errorf("%s: %s listed %d times", l.Code, e.ID, listed[e.ID])
			}
		}
	}
	if len(s.Recent) != RecentCount || s.Recent[0].LastUpdated != "2026-01-28" || s.Recent[0].ID != "cuda/e027" || s.Recent[1].ID != "cuda/e026" {
		t.Errorf("recent: %d entries, first %s %s", len(s.Recent), s.Recent[0].ID, s.Recent[0].LastUpdated)
	}
	if d := s.Domains[0]; d.Name != "cuda" || d.Count != 2*CatalogPageSize+3 {
		t.Errorf("domain %s counts %d", d.Name, d.Count)
	}
}

// An update rewrites the pages of the changed entry and of the entries
// whose related list names it, in every language, and no others; a page's
// view is made from the new KB.
func TestUpdateAffectsRelatedEntries(t *testing.T) {
	entries := func(cause string) *kb.KB {
		a := &kb.Entry{ID: "cuda/a", ErrorCode: "A", Domain: "cuda", Category: "x", Signature: "a", RootCause: cause}
		b := &kb.Entry{ID: "cuda/b", ErrorCode: "B", Domain: "cuda", Category: "x", Signature: "b",
			TransitionGraph: kb.TransitionGraph{FrequentlyConfusedWith: []string{"cuda/a"}}}
		c := &kb.Entry{ID: "nccl/c", ErrorCode: "C", Domain: "nccl", Category: "y", Signature: "c",
			TransitionGraph: kb.TransitionGraph{LeadsTo: []string{"cuda/b"}}}
		return &kb.KB{Entries: []*kb.Entry{a, b, c}, ByID: map[string]*kb.Entry{"cuda/a": a, "cuda/b": b, "nccl/c": c}}
	}
	s := New(entries("old"), &content.Set{}, "")
	n, affected := s.Update(entries("new"), map[string]bool{"cuda/a": true}, false)
	var got []string
	for _, p := range affected {
		if p.Kind == KindEntry {
			got = append(got, p.Path)
		}
	}
	want := []string{"en/kb/cuda/a/", "en/kb/cuda/b/", "zh/kb/cuda/a/", "zh/kb/cuda/b/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entry pages rewritten: %v, want %v", got, want)
	}
	for _, p := range n.Pages {
		if p.Path == "en/kb/cuda/a/" {
			if v := p.View(); v.RootCause.Text != "new" || p.Site != n {
				t.Errorf("the updated page shows %q", v.RootCause.Text)
			}
		}
	}
}
