package render

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

// The compiled pages follow the templates they were written from; a change
// to those templates needs the same change in compiled.go.
func TestCompiledTemplatesCurrent(t *testing.T) {
	h, err := templatesHash(os.DirFS("../../templates"))
	if err != nil {
		t.Fatal(err)
	}
	if h != compiledFor {
		t.Errorf("templates/base.html, entry.html, redirect.html or catalog.html changed since compiled.go was written from them, "+
			"so builds render entry, redirect and catalogue pages through html/template again (correct, slower). Make compiled.go "+
			"write what the templates write (TestCompiledPagesEqualTemplates shows where they differ), then set compiledFor = %q", h)
	}
	r, err := New(os.DirFS("../../templates"), os.DirFS("../../assets"))
	if err != nil {
		t.Fatal(err)
	}
	if r.compiled != (h == compiledFor) {
		t.Errorf("compiled pages in use: %v, templates current: %v", r.compiled, h == compiledFor)
	}
}

// Templates of one's own are rendered by html/template: a changed entry.html
// shows on the entry pages.
func TestOwnTemplatesAreUsed(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../templates")); err != nil {
		t.Fatal(err)
	}
	entry, _ := os.ReadFile(dir + "/entry.html")
	os.WriteFile(dir+"/entry.html", bytes.Replace(entry, []byte(`<section class="cause">`), []byte(`<section class="cause mine">`), 1), 0o644)
	s, _ := repoSite(t)
	r, err := New(os.DirFS(dir), os.DirFS("../../assets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Pages {
		if p.Kind == site.KindEntry {
			b, err := r.Page(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(`<section class="cause mine">`)) {
				t.Fatalf("%s: not rendered from the given entry.html", p.File())
			}
			return
		}
	}
	t.Fatal("no entry page")
}

// Every entry, redirect and domain catalogue page of the repository's KB (P2PKB_BENCH_KB: a
// synthetic one), and of entries whose every field is hostile text, is the
// same byte for byte from the compiled code as from the templates; with and
// without a base URL and a repository.
func TestCompiledPagesEqualTemplates(t *testing.T) {
	s, r := repoSite(t)
	// Compare even when the templates changed: the test then says where.
	r.compiled = true
	r.literals()
	addHostile(s.KB)
	for _, c := range []struct{ base, repo string }{
		{"", ""},
		{"https://kb.example.org/docs/", "https://github.com/p2pkb/p2pkb"},
		{"https://kb.example.org/a b/<x>&'\"+%zz%41/", "javascript:alert(1)//x?a=1&b=<2>"},
	} {
		ms := site.New(s.KB, s.Articles, c.base)
		ms.RepoURL = c.repo
		n, failed, catalogs := 0, 0, 0
		for _, p := range ms.Pages {
			if p.Kind != site.KindEntry && p.Kind != site.KindRedirect && !(p.Kind == site.KindCatalog && p.Domain != nil) {
				continue
			}
			n++
			if p.Kind == site.KindCatalog {
				catalogs++
			}
			want, err := r.templatePage(nil, p)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := r.compiledPage(nil, p)
			if !ok || err != nil {
				t.Fatalf("%s: compiled: %v %v", p.File(), ok, err)
			}
			if !bytes.Equal(got, want) {
				failed++
				if failed <= 3 {
					t.Errorf("base URL %q, repo %q: %s", c.base, c.repo, firstDifference(p.File(), got, want))
				}
			}
		}
		if failed > 3 {
			t.Errorf("base URL %q, repo %q: %d of %d pages differ", c.base, c.repo, failed, n)
		}
		if n < 3*len(s.KB.Entries) || catalogs < 2*len(ms.Domains) {
			t.Errorf("compared %d pages for %d entries, %d catalogue pages for %d domains", n, len(s.KB.Entries), catalogs, len(ms.Domains))
		}
	}
}

// firstDifference says where a compiled page first departs from the
// template's: the byte offset, line and column, and the text around it.
func firstDifference(file string, got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	line := 1 + bytes.Count(want[:i], []byte("\n"))
	col := i - bytes.LastIndexByte(want[:i], '\n')
	around := func(b []byte) string {
		from, to := max(0, i-80), min(len(b), i+80)
		return fmt.Sprintf("%q", b[from:to])
	}
	return fmt.Sprintf("%s: compiled page differs from the template's at byte %d (line %d, column %d); "+
		"compiled.go must follow templates/base.html, entry.html, redirect.html and catalog.html\n  template: …%s…\n  compiled: …%s…",
		file, i, line, col, around(want), around(got))
}

// hostileText holds what each escaping context must handle.
var hostileText = []string{
	`<script>alert(1)</script>`, `"><img src=x onerror=alert(1)>`, `' onmouseover='alert(1)`,
	"a+b&c<d>e\"f'g`h", "nul\x00here", "bad \xff\xfe utf-8", "line\u2028sep\u2029para", "tab\tnl\nret\rbs\bff\f",
	`</script><!-- -->`, `javascript:alert(1)`, `JaVaScRiPt:alert(1)`, `data:text/html,<b>`, `%41%zz%`, `http://x/?a=1&b=2#f`,
	`*emph* **strong** [link](javascript:alert(1)) <b>raw</b> ` + "`code<>`", "中文 \u00e9\u0301 \U0001F600",
}

// addHostile adds entries to k whose texts are hostile, linked to the
// first entry so that related lists show them.
func addHostile(k *kb.KB) {
	first := k.Entries[0]
	for i, h := range hostileText {
		e := &kb.Entry{
			ID: fmt.Sprintf("hostile/h%d", i), Signature: h, SignatureZH: "中" + h, Regex: h, Domain: "hostile", Category: h,
			Subcategory: h, RootCause: h, RootCauseZH: h, RootCauseType: h, ErrorCode: h,
			VerificationTier: []string{"ai_generated", "community", "reproduced", "vendor_confirmed"}[i%4],
			Confidence:       float64(i) / 7, FixSuccessRate: float64(i%3) / 3, Resolvable: []string{"yes", "partial", "no"}[i%3],
			FirstSeen: h, LastConfirmed: h, LastUpdated: h, EvidenceCount: i, Tags: []string{h, "t"}, Aliases: []string{h, "a"},
			AppliesWhen: h, OfficialDocURL: h, OfficialDocSection: h, OSSpecific: map[string]string{h: h, "linux": h},
			Versions:        []kb.Version{{Version: h, Status: h}, {Version: "v", Introduced: h, BehaviorChange: h}},
			Workarounds:     []kb.Workaround{{Action: h, SuccessRate: 1e-7 * float64(i), How: h + "!", Condition: h, Sources: []string{h, "https://x/" + h}}, {Action: "x", SuccessRate: 0.5}},
			WorkaroundsZH:   []string{h},
			DeadEnds:        []kb.DeadEnd{{Action: h, WhyFails: h, WhyFailsZH: "中" + h, FailRate: 0.333, Condition: h, Sources: []string{h}}, {WhyFails: h}},
			TransitionGraph: kb.TransitionGraph{LeadsTo: []string{first.ID}, PrecededBy: []string{first.ID}},
		}
		switch i % 3 {
		case 0:
			e.SignatureSource = &kb.SignatureSource{Kind: "reproduction", Note: h}
			e.Reproducer = &kb.Reproducer{Program: h, Output: h, Command: h, Machine: h, Date: h, Line: h}
		case 1:
			e.SignatureSource = &kb.SignatureSource{Kind: "report", URL: h, Note: h}
		}
		k.Entries = append(k.Entries, e)
		k.ByID[e.ID] = e
		first.TransitionGraph.FrequentlyConfusedWith = append(first.TransitionGraph.FrequentlyConfusedWith, e.ID)
	}
}

// The escapers write what html/template writes in their contexts.
func FuzzEscapers(f *testing.F) {
	for _, h := range hostileText {
		f.Add(h)
	}
	f.Add("%4")
	f.Add("mailto:x@y")
	f.Add("HTTPS://x")
	f.Add("a/b:c")
	f.Add("\u212a")
	t1 := template.Must(template.New("").Parse(`<p title="{{.}}">{{.}}</p><title>{{.}}</title>`))
	t4 := template.Must(template.New("").Parse(`<meta http-equiv="refresh" content="0; url={{.}}">`))
	t2 := template.Must(template.New("").Parse(`<a href="{{.}}">`))
	t3 := template.Must(template.New("").Parse(`<script>{{.}}</script>`))
	f.Fuzz(func(t *testing.T, s string) {
		exec := func(tp *template.Template, v any) string {
			var b strings.Builder
			if err := tp.Execute(&b, v); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		h := string(appendHTML(nil, s))
		if got, want := `<p title="`+h+`">`+h+`</p><title>`+h+`</title>`, exec(t1, s); got != want {
			t.Errorf("HTML %q:\n got %q\nwant %q", s, got, want)
		}
		if got, want := `<meta http-equiv="refresh" content="0; url=`+string(appendRefreshURL(nil, s))+`">`, exec(t4, s); got != want {
			t.Errorf("refresh URL %q:\n got %q\nwant %q", s, got, want)
		}
		if got, want := `<a href="`+string(appendURL(nil, s))+`">`, exec(t2, s); got != want {
			t.Errorf("URL %q:\n got %q\nwant %q", s, got, want)
		}
		if got, want := `<script>`+string(appendJSONString(nil, s))+`</script>`, exec(t3, s); got != want {
			t.Errorf("JS string %q:\n got %q\nwant %q", s, got, want)
		}
		if got, want := `<script>`+string(appendJSONStrings(nil, []string{s, "b"}))+`</script>`, exec(t3, []string{s, "b"}); got != want {
			t.Errorf("JS list %q:\n got %q\nwant %q", s, got, want)
		}
	})
}

// Numbers print as the templates print them.
func TestNumbers(t *testing.T) {
	for _, f := range []float64{0, 1, 0.5, 0.75, 0.333, 1.0 / 3, 1e-7, 2.5e-5, 0.999, 0.995, 0.005, 0.0049, 123456789, 1e21, 1e20} {
		if got, want := string(appendFloat(nil, f)), fmt.Sprint(f); got != want {
			t.Errorf("%v: %q, want %q", f, got, want)
		}
		pct := funcs["pct"].(func(float64) string)
		if got, want := string(appendPct(nil, f)), pct(f); got != want {
			t.Errorf("pct %v: %q, want %q", f, got, want)
		}
	}
}

// stripTags removes what Plain's <[^>]*> matched.
func TestStripTags(t *testing.T) {
	for _, s := range []string{"", "a", "<a>b</a>", "a<b", "a>b", "<<a>>", "x<a href='>'>y", "<a>b<c", "<>"} {
		if got, want := stripTags(s), tags.ReplaceAllString(s, ""); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}
