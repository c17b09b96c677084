package build_test

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
)

// vocabulary is schema.org as the schema-dts package declares it (generated
// from schema.org's own data): each type with the properties it may carry,
// its own and its ancestors'. make test fetches the package from npm.
type vocabulary map[string]map[string]bool

const vocabFile = "testdata/schema-dts/package/dist/schema.d.ts"

func loadVocabulary(t *testing.T) vocabulary {
	t.Helper()
	f, err := os.Open(vocabFile)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("schema.org vocabulary missing (make test fetches it): %v", err)
		}
		t.Skipf("schema.org vocabulary missing: run 'make vocab' (npm pack schema-dts): %v", err)
	}
	defer f.Close()
	head := regexp.MustCompile(`^(?:export )?interface (\w+) extends ([^{]+)\{`)
	prop := regexp.MustCompile(`^\s+"([^"@][^"]*)"\??:`)
	leaf := regexp.MustCompile(`^\s+"@type": "(\w+)";`)
	props := map[string][]string{}
	parents := map[string][]string{}
	leaves := map[string]string{} // type -> interface that declares it
	cur := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if m := head.FindStringSubmatch(l); m != nil {
			cur = m[1]
			for _, p := range strings.Split(m[2], ",") {
				if p = strings.TrimSpace(p); p != "" && !strings.Contains(p, "<") {
					parents[cur] = append(parents[cur], p)
				}
			}
			continue
		}
		if cur == "" {
			continue
		}
		if l == "}" {
			cur = ""
		} else if m := prop.FindStringSubmatch(l); m != nil {
			props[cur] = append(props[cur], m[1])
		} else if m := leaf.FindStringSubmatch(l); m != nil {
			leaves[m[1]] = cur
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	v := vocabulary{}
	for typ, iface := range leaves {
		all := map[string]bool{}
		var walk func(string)
		walk = func(i string) {
			for _, p := range props[i] {
				all[p] = true
			}
			for _, p := range parents[i] {
				walk(p)
			}
		}
		walk(iface)
		v[typ] = all
	}
	if len(v["TechArticle"]) == 0 || !v["TechArticle"]["headline"] || !v["Thing"]["name"] {
		t.Fatalf("%s: the vocabulary did not parse (%d types)", vocabFile, len(v))
	}
	return v
}

// check returns what in a JSON-LD node is not schema.org: an unknown type, or
// a property its type does not have.
func (v vocabulary) check(node any, where string) []string {
	var bad []string
	switch n := node.(type) {
	case []any:
		for i, x := range n {
			bad = append(bad, v.check(x, fmt.Sprintf("%s[%d]", where, i))...)
		}
	case map[string]any:
		typ, _ := n["@type"].(string)
		props, ok := v[typ]
		if !ok {
			return append(bad, fmt.Sprintf("%s: @type %q is not a schema.org type", where, typ))
		}
		for k, x := range n {
			if strings.HasPrefix(k, "@") {
				continue
			}
			if !props[k] {
				bad = append(bad, fmt.Sprintf("%s: %s has no property %q", where, typ, k))
			}
			bad = append(bad, v.check(x, where+"."+k)...)
		}
	}
	return bad
}

var ldScript = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)

// Every entry page, in both languages, describes itself in JSON-LD that uses
// only schema.org types and properties, with the message as headline and the
// page's language; links in chats show the message and its cause.
func TestEntryPagesCarryStructuredData(t *testing.T) {
	vocab := loadVocabulary(t)
	out := buildSite(t, "https://kb.example.org/docs/")
	pages, _ := filepath.Glob(filepath.Join(out, "*", "kb", "*", "*", "index.html"))
	if len(pages) < 2 {
		t.Fatalf("%d entry pages", len(pages))
	}
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m := ldScript.FindSubmatch(data)
		if m == nil {
			t.Errorf("%s: no JSON-LD", p)
			continue
		}
		var ld map[string]any
		if err := json.Unmarshal(m[1], &ld); err != nil {
			t.Errorf("%s: JSON-LD is not JSON: %v", p, err)
			continue
		}
		if ld["@context"] != "https://schema.org" || ld["@type"] != "TechArticle" {
			t.Errorf("%s: context %v, type %v", p, ld["@context"], ld["@type"])
		}
		for _, b := range vocab.check(ld, "") {
			t.Errorf("%s: %s", p, b)
		}
		lang := strings.Split(strings.TrimPrefix(p, out+string(filepath.Separator)), string(filepath.Separator))[0]
		if tag := map[string]string{"en": "en", "zh": "zh-Hans"}[lang]; ld["inLanguage"] != tag {
			t.Errorf("%s: inLanguage %v, want %s", p, ld["inLanguage"], tag)
		}
		head := string(data[:strings.Index(string(data), "</head>")])
		title := metaContent(head, `property="og:title"`)
		if title == "" || !strings.Contains(head, "<title>"+title+" ·") && ld["headline"] != unescape(title) {
			t.Errorf("%s: og:title %q does not carry the message (headline %v)", p, title, ld["headline"])
		}
		if d := metaContent(head, `property="og:description"`); d == "" || strings.Contains(d, "`") {
			t.Errorf("%s: og:description %q is empty or carries Markdown", p, d)
		}
		if u := metaContent(head, `property="og:url"`); !strings.HasPrefix(u, "https://kb.example.org/docs/") || ld["url"] != u {
			t.Errorf("%s: og:url %q, JSON-LD url %v", p, u, ld["url"])
		}
	}
	// Without a base URL nothing claims an address it does not have.
	out = buildSite(t, "")
	data, err := os.ReadFile(filepath.Join(out, "en", "kb", "cuda", "peer-access-to-same-device", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "og:url") || strings.Contains(string(data), `"url":`) {
		t.Error("a page built without --base-url states an absolute address")
	}
}

func metaContent(head, attr string) string {
	re := regexp.MustCompile(`<meta ` + regexp.QuoteMeta(attr) + ` content="([^"]*)">`)
	if m := re.FindStringSubmatch(head); m != nil {
		return m[1]
	}
	return ""
}

func unescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'").Replace(s)
}

type atom struct {
	ID      string `xml:"id"`
	Updated string `xml:"updated"`
	Links   []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Summary string `xml:"summary"`
		Link    struct {
			Href string `xml:"href,attr"`
		} `xml:"link"`
	} `xml:"entry"`
}

// Each language has an Atom feed of entries, newest change first, whose
// links reach the entry pages: relative to the feed from file://, absolute
// with a base URL. The home page links it.
func TestFeeds(t *testing.T) {
	for _, base := range []string{"", "https://kb.example.org/docs/"} {
		out := buildSite(t, base)
		for _, lang := range []string{"en", "zh"} {
			data, err := os.ReadFile(filepath.Join(out, lang, "feed.xml"))
			if err != nil {
				t.Fatal(err)
			}
			var f atom
			if err := xml.Unmarshal(data, &f); err != nil {
				t.Fatalf("%s feed: %v", lang, err)
			}
			if len(f.Entries) == 0 || f.ID == "" || f.Updated == "" {
				t.Fatalf("%s feed: %d entries, id %q, updated %q", lang, len(f.Entries), f.ID, f.Updated)
			}
			if !sort.SliceIsSorted(f.Entries, func(i, j int) bool { return f.Entries[i].Updated > f.Entries[j].Updated }) {
				t.Errorf("%s feed: entries are not newest first", lang)
			}
			ids := map[string]bool{}
			for _, e := range f.Entries {
				if ids[e.ID] || e.Title == "" || e.Summary == "" {
					t.Errorf("%s feed: entry %q repeated or empty", lang, e.ID)
				}
				ids[e.ID] = true
				href := e.Link.Href
				if base != "" {
					if !strings.HasPrefix(href, base+lang+"/kb/") {
						t.Errorf("%s feed: link %q is not absolute", lang, href)
					}
					href = strings.TrimPrefix(href, base+lang+"/")
				}
				// Without a base URL the link is relative to the feed and names
				// the page's file, which file:// opens.
				href = strings.TrimSuffix(href, "index.html")
				if _, err := os.Stat(filepath.Join(out, lang, filepath.FromSlash(path.Clean(href)), "index.html")); err != nil {
					t.Errorf("%s feed: link %q leads to no page", lang, e.Link.Href)
				}
			}
			home, _ := os.ReadFile(filepath.Join(out, lang, "index.html"))
			if !strings.Contains(string(home), `type="application/atom+xml"`) || !strings.Contains(string(home), `href="feed.xml"`) {
				t.Errorf("%s home page does not link its feed", lang)
			}
		}
	}
}

// With a base URL each language has an OpenSearch description that every
// page of the language links (relatively, like every link between pages);
// without one, neither the file nor the links exist, since the format needs
// absolute addresses.
func TestOpenSearch(t *testing.T) {
	base := "https://kb.example.org/docs/"
	out := buildSite(t, base)
	for _, lang := range []string{"en", "zh"} {
		data, err := os.ReadFile(filepath.Join(out, lang, "opensearch.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			ShortName string `xml:"ShortName"`
			URLs      []struct {
				Type     string `xml:"type,attr"`
				Template string `xml:"template,attr"`
			} `xml:"Url"`
		}
		if err := xml.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		if d.ShortName == "" || len(d.URLs) == 0 || d.URLs[0].Template != base+lang+"/search/?q={searchTerms}" {
			t.Errorf("%s opensearch.xml: %+v", lang, d)
		}
		pages, _ := filepath.Glob(filepath.Join(out, lang, "*", "*", "*", "index.html"))
		pages = append(pages, filepath.Join(out, lang, "index.html"))
		for _, p := range pages {
			b, _ := os.ReadFile(p)
			m := regexp.MustCompile(`<link rel="search" type="application/opensearchdescription\+xml"[^>]* href="([^"]*)"`).FindSubmatch(b)
			if m == nil || filepath.Join(filepath.Dir(p), filepath.FromSlash(string(m[1]))) != filepath.Join(out, lang, "opensearch.xml") {
				t.Errorf("%s does not link the OpenSearch description of %s", p, lang)
			}
		}
	}
	out = buildSite(t, "")
	if _, err := os.Stat(filepath.Join(out, "en", "opensearch.xml")); err == nil {
		t.Error("opensearch.xml written without a base URL")
	}
	b, _ := os.ReadFile(filepath.Join(out, "en", "index.html"))
	if strings.Contains(string(b), "opensearch") {
		t.Error("a page links an OpenSearch description that was not written")
	}
}

// With --repo-url every entry page offers to edit its file and to report a
// problem, both in the repository; without it, neither link is there.
func TestEntryEditAndReportLinks(t *testing.T) {
	src := repoSources(t)
	src.RepoURL = "https://github.com/example/p2pkb/"
	out := filepath.Join(t.TempDir(), "public")
	if err := build.Build(src, out, "https://kb.example.org/", os.Stderr); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "zh", "kb", "cuda", "peer-access-to-same-device", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	edit := regexp.MustCompile(`<a href="([^"]*)">编辑此条目</a>`).FindSubmatch(page)
	report := regexp.MustCompile(`<a href="([^"]*)">报告此条目的问题</a>`).FindSubmatch(page)
	if edit == nil || report == nil {
		t.Fatalf("the links are missing:\n%s", page)
	}
	if got := unescape(string(edit[1])); got != "https://github.com/example/p2pkb/edit/main/kb/cuda/peer-access-to-same-device.json" {
		t.Errorf("edit link %s", got)
	}
	u, err := url.Parse(strings.ReplaceAll(unescape(string(report[1])), "&#43;", "+"))
	if err != nil || u.Path != "/example/p2pkb/issues/new" || !strings.Contains(u.Query().Get("body"), "https://kb.example.org/zh/kb/cuda/peer-access-to-same-device/") ||
		!strings.Contains(u.Query().Get("title"), "cuda/peer-access-to-same-device") {
		t.Errorf("report link %s (%v)", report[1], err)
	}
	plain, _ := os.ReadFile(filepath.Join(buildSite(t, ""), "en", "kb", "cuda", "peer-access-to-same-device", "index.html"))
	if strings.Contains(string(plain), `class="edit"`) {
		t.Error("edit links without --repo-url")
	}
}
