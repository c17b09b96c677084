package render

import (
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

func repoSite(t testing.TB) (*site.Site, *Renderer) {
	t.Helper()
	kbDir := "../../kb"
	if d := os.Getenv("P2PKB_BENCH_KB"); d != "" {
		kbDir = d // a synthetic KB (p2pkb-bench -write DIR), for profiling
	}
	k, err := kb.Load(os.DirFS(kbDir))
	if err != nil {
		t.Fatal(err)
	}
	articles, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	i18n, err := os.ReadFile("../../templates/i18n.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(i18n, "templates/i18n.json", os.DirFS("../../assets"))
	if err != nil {
		t.Fatal(err)
	}
	return site.New(k, articles, ""), r
}

// Every page of a language and depth has its header, panel and styles in
// that language and with links from that depth, whatever the order the
// pages are rendered in.
func TestPagesInTheirLanguageAndDepth(t *testing.T) {
	s, r := repoSite(t)
	for _, p := range s.Pages {
		if p.Kind != site.KindEntry && p.Kind != site.KindHome && p.Kind != site.KindArticle {
			continue
		}
		b, err := r.Page(p)
		if err != nil {
			t.Fatal(err)
		}
		html := string(b)
		if style := `href="` + p.Root() + `assets/style.css"`; !strings.Contains(html, style) {
			t.Errorf("%s: no %s", p.File(), style)
		}
		if machine := map[string]string{"en": ">Your machine", "zh": ">你的机器"}[p.Lang.Code]; !strings.Contains(html, machine) {
			t.Errorf("%s: machine panel not in its language (want %q)", p.File(), machine)
		}
	}
}

// Words that are not JSON, or lack a language, fail New with the file's name.
func TestNewNamesBadWords(t *testing.T) {
	for _, bad := range []string{`{"en": {}`, `{"en": {"site_name": "x"}}`} {
		_, err := New([]byte(bad), "my/i18n.json", os.DirFS("../../assets"))
		if err == nil || !strings.Contains(err.Error(), "my/i18n.json") {
			t.Errorf("New(%s): %v", bad, err)
		}
	}
}

// A page that fails to render fails the site with the page's file and the
// cause, and the site's support files are not written after it.
func TestSiteStopsAtAFailingPage(t *testing.T) {
	s, r := repoSite(t)
	// An entry whose resolvable value has no label in i18n.json.
	const bad = "cuda/peer-access-unsupported-by-hardware"
	e := s.KB.ByID[bad]
	if e == nil {
		t.Fatal("no entry " + bad)
	}
	e.Resolvable = "no_such_key"
	var mu sync.Mutex
	written := map[string]bool{}
	err := r.Site(s, func(name string, _ []byte) error {
		mu.Lock()
		defer mu.Unlock()
		written[name] = true
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "kb/"+bad+"/index.html") || !strings.Contains(err.Error(), "no_such_key") {
		t.Fatalf("Site with a failing page: %v", err)
	}
	if written["sitemap.xml"] || written["assets/style.css"] {
		t.Error("support files were written after a page failed")
	}
}

// Without a base URL there is no sitemap (the format wants absolute URLs)
// and the feeds link to pages relative to themselves, to their files;
// with one, both use absolute URLs.
func TestSitemapAndFeedLinks(t *testing.T) {
	s, r := repoSite(t)
	for _, base := range []string{"", "https://kb.example.org/docs/"} {
		ms := site.New(s.KB, s.Articles, base)
		var mu sync.Mutex
		files := map[string]string{}
		if err := r.Site(ms, func(name string, b []byte) error {
			mu.Lock()
			defer mu.Unlock()
			files[name] = string(b)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		sm, ok := files["sitemap.xml"]
		if ok != (base != "") {
			t.Errorf("base URL %q: sitemap.xml written: %v", base, ok)
		}
		if ok && (!strings.Contains(sm, "<loc>"+base+"en/</loc>") || strings.Contains(sm, "<loc>/")) {
			t.Errorf("base URL %q: sitemap locations not absolute:\n%.500s", base, sm)
		}
		feed := files["zh/feed.xml"]
		hrefs := regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(feed, -1)
		if len(hrefs) < 3 {
			t.Fatalf("base URL %q: feed has %d links", base, len(hrefs))
		}
		for _, h := range hrefs {
			switch u := h[1]; {
			case u == "":
				t.Errorf("base URL %q: an empty link in the feed", base)
			case base != "" && !strings.HasPrefix(u, base+"zh/"):
				t.Errorf("base URL %q: feed link %q not absolute", base, u)
			case base == "" && (strings.HasPrefix(u, "/") || strings.Contains(u, ":") || !strings.HasSuffix(u, ".html") && !strings.HasSuffix(u, ".xml")):
				t.Errorf("feed link %q: not a file relative to the feed", u)
			}
		}
	}
}

// Every category, root cause type and version status of the repository's
// KB has a label in each language, so no page shows the KB's identifier.
func TestKBValuesHaveLabels(t *testing.T) {
	s, r := repoSite(t)
	for _, e := range s.KB.Entries {
		keys := []string{"category_" + e.Category}
		if e.RootCauseType != "" {
			keys = append(keys, "root_cause_type_"+e.RootCauseType)
		}
		for _, v := range e.Versions {
			keys = append(keys, "status_"+v.Status)
		}
		for _, key := range keys {
			for _, l := range site.Langs {
				if _, ok := r.strings[l.Code][key]; !ok {
					t.Errorf("%s: i18n.json has no %q label %q", e.ID, l.Code, key)
				}
			}
		}
	}
}
