package render

import (
	"os"
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
	r, err := New(os.DirFS(tplDir()), os.DirFS("../../assets"))
	if err != nil {
		t.Fatal(err)
	}
	return site.New(k, articles, ""), r
}

// A cached partial is reused only by pages of its language and depth.
func TestPartialCachedByLanguageAndDepth(t *testing.T) {
	s, r := repoSite(t)
	want := map[string]struct{ lang, machine, style string }{}
	for _, p := range s.Pages {
		if p.Kind != site.KindEntry && p.Kind != site.KindHome && p.Kind != site.KindArticle {
			continue
		}
		code := p.Lang.Code
		if code == "" {
			code = "en"
		}
		machine := map[string]string{"en": ">Your machine", "zh": ">你的机器"}[code]
		want[p.File()] = struct{ lang, machine, style string }{code, machine, `href="` + p.Root() + `assets/style.css"`}
	}
	// Render in an order that mixes depths and languages.
	for _, p := range s.Pages {
		w, ok := want[p.File()]
		if !ok {
			continue
		}
		b, err := r.Page(p)
		if err != nil {
			t.Fatal(err)
		}
		html := string(b)
		if !strings.Contains(html, w.style) {
			t.Errorf("%s: no %s", p.File(), w.style)
		}
		if !strings.Contains(html, w.machine) {
			t.Errorf("%s (%s): machine panel not in its language (want %q)", p.File(), w.lang, w.machine)
		}
	}
}

// UI strings asked for by a literal key go into the template text escaped,
// and a missing one fails New with the file and the key.
func TestLocalize(t *testing.T) {
	strs := map[string]map[string]string{"en": {"q": `<a href="x">&'`}, "zh": {"q": "问"}}
	got, err := localize(`<p title="{{T "q"}}">{{T "q"}}</p>{{T (print "q")}}{{TL "zh" "q"}}{{TL .Lang "q"}}`, strs, "en")
	if err != nil {
		t.Fatal(err)
	}
	want := `<p title="&lt;a href=&#34;x&#34;&gt;&amp;&#39;">&lt;a href=&#34;x&#34;&gt;&amp;&#39;</p>{{T (print "q")}}问{{TL .Lang "q"}}`
	if got != want {
		t.Errorf("localize:\n got %s\nwant %s", got, want)
	}

	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../templates")); err != nil {
		t.Fatal(err)
	}
	entry, _ := os.ReadFile(dir + "/entry.html")
	os.WriteFile(dir+"/entry.html", append(entry, []byte(`{{define "x"}}{{T "no_such_key"}}{{end}}`)...), 0o644)
	_, err = New(os.DirFS(dir), os.DirFS("../../assets"))
	if err == nil || !strings.Contains(err.Error(), "entry.html") || !strings.Contains(err.Error(), "no_such_key") {
		t.Errorf("New with an unknown key: %v", err)
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
