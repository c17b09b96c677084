package p2pkb

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestDocLinks holds every relative link and image of README.md and docs/*.md
// to a file of the repository, and a #fragment to a heading of the file it
// names, as GitHub renders them: the README is split into docs/, so a moved
// section must not leave a dead link behind.
func TestDocLinks(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"README.md"}, files...)
	checked := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range docLinks(src) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			checked++
			target, frag, _ := strings.Cut(l.target, "#")
			resolved := file // a bare #fragment names a heading of this file
			if target != "" {
				resolved = path.Join(path.Dir(file), target)
			}
			if _, err := os.Stat(resolved); err != nil {
				t.Errorf("%s:%d: link %q: %s does not exist", file, l.line, l.target, resolved)
				continue
			}
			if frag == "" || !strings.HasSuffix(resolved, ".md") {
				continue
			}
			dst, err := os.ReadFile(resolved)
			if err != nil {
				t.Fatal(err)
			}
			if !docAnchors(dst)[frag] {
				t.Errorf("%s:%d: link %q: %s has no heading #%s", file, l.line, l.target, resolved, frag)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found in README.md and docs/*.md: the parser reads none")
	}
}

// TestDocSlug holds the anchor names to GitHub's: lower case, punctuation
// and code marks dropped, spaces to hyphens.
func TestDocSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Which fixes apply to a machine":           "which-fixes-apply-to-a-machine",
		"Starting from an error line: `p2pkb new`": "starting-from-an-error-line-p2pkb-new",
		"Moving real data: `--test`":               "moving-real-data---test",
		"Search, explain, serve":                   "search-explain-serve",
		"What `make bench` measures":               "what-make-bench-measures",
	} {
		if got := docSlug(heading); got != want {
			t.Errorf("docSlug(%q) = %q, want %q", heading, got, want)
		}
	}
}

type docLink struct {
	target string
	line   int
}

// htmlRef is a src or href attribute of raw HTML in Markdown, such as an
// <img> given a width.
var htmlRef = regexp.MustCompile(`<[a-z]+\s[^>]*\b(?:src|href)="([^"]+)"`)

// docLinks returns the destinations of the links and images of a Markdown
// file, each with its line, as goldmark parses them (so a code span that
// looks like a link is not one), and those of its raw HTML tags.
func docLinks(src []byte) []docLink {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var links []docLink
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch n := n.(type) {
		case *ast.Link:
			dest = n.Destination
		case *ast.Image:
			dest = n.Destination
		default:
			return ast.WalkContinue, nil
		}
		links = append(links, docLink{target: string(dest), line: docLine(src, n)})
		return ast.WalkContinue, nil
	})
	for _, m := range htmlRef.FindAllSubmatchIndex(src, -1) {
		line := strings.Count(string(src[:m[2]]), "\n") + 1
		links = append(links, docLink{target: string(src[m[2]:m[3]]), line: line})
	}
	return links
}

// docLine is the line of the block that holds n: inline nodes carry no
// position of their own.
func docLine(src []byte, n ast.Node) int {
	for ; n != nil; n = n.Parent() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return strings.Count(string(src[:n.Lines().At(0).Start]), "\n") + 1
		}
	}
	return 0
}

// docAnchors returns the anchors of a Markdown file's headings.
func docAnchors(src []byte) map[string]bool {
	anchors := map[string]bool{}
	inFence := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		anchors[docSlug(strings.TrimLeft(line, "# "))] = true
	}
	return anchors
}

// docSlug is GitHub's anchor for a heading.
func docSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
