package content

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadRepositoryArticles(t *testing.T) {
	set, err := Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"why-is-cuda-simplep2p-failing", "peer-to-peer-gpu-communication"} {
		for _, lang := range Languages {
			a := set.Articles[slug][lang]
			if a == nil {
				t.Fatalf("%s has no %s version", slug, lang)
			}
			if a.Title == "" || a.Summary == "" || len(a.Tags) == 0 || a.Date.IsZero() {
				t.Errorf("%s.%s: incomplete front matter %+v", slug, lang, a)
			}
		}
	}
}

// The entries an article explains come with the line that names each, for
// the message when the KB has no such entry.
func TestEntriesInFrontMatter(t *testing.T) {
	text := "---\ntitle: T\ndate: \"2025-01-30\"\nsummary: S\ntags: [a]\nverification: community\nentries:\n  - cuda/x\n  - nccl/y\n---\nbody\n"
	set, err := Load(fstest.MapFS{"a.md": {Data: []byte(text)}}, "content")
	if err != nil {
		t.Fatal(err)
	}
	a := set.Articles["a"]["en"]
	if strings.Join(a.Entries, ",") != "cuda/x,nccl/y" || len(a.EntryLines) != 2 || a.EntryLines[0] != 8 || a.EntryLines[1] != 9 {
		t.Errorf("entries %v at lines %v, want cuda/x, nccl/y at 8, 9", a.Entries, a.EntryLines)
	}
}

func TestLoadBrokenFrontMatter(t *testing.T) {
	good := "---\ntitle: T\ndate: \"2025-01-30\"\nsummary: S\ntags: [a]\nverification: ai_generated\n---\nbody\n"
	cases := []struct {
		name, file, text, want string
	}{
		{"no front matter", "a.md", "# Title\n", "content/a.md:1: no front matter"},
		{"unclosed", "a.md", "---\ntitle: T\n", "content/a.md:1: front matter is not closed"},
		{"missing fields", "a.md", "---\ntitle: T\ndate: \"2025-01-30\"\n---\nx\n", "content/a.md: front matter: missing summary, tags, verification"},
		{"bad verification", "a.md", strings.Replace(good, "verification: ai_generated", "verification: checked", 1), `content/a.md: front matter: verification: "checked" is not one of ai_generated, community`},
		{"bad date", "a.md", strings.Replace(good, "2025-01-30", "30/01/2025", 1), `content/a.md: front matter: date: "30/01/2025" is not an ISO date`},
		{"unknown field", "a.md", strings.Replace(good, "tags: [a]", "tags: [a]\nauthor: me", 1), "content/a.md: front matter: yaml: unmarshal errors:\n  line 6: field author not found"},
		{"bad slug", "My Article.md", good, `content/My Article.md: file name "My Article" is not a slug`},
		{"translation only", "b.zh.md", good, "content/b.zh.md: no English original content/b.md"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{c.file: {Data: []byte(c.text)}}, "content")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
