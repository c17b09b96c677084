package markdown

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	scriptTag = regexp.MustCompile(`(?i)<\s*(script|iframe|object|embed|style|link|meta|base|form)\b`)
	handler   = regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`)
	jsURL     = regexp.MustCompile(`(?i)(href|src)\s*=\s*"\s*(javascript|vbscript|data):`)
)

// FuzzDocument renders arbitrary Markdown as the site renders its articles
// and entries' text. Whatever the input, no raw HTML gets through: no
// script-like element, no event handler, no script URL.
func FuzzDocument(f *testing.F) {
	files, _ := filepath.Glob("../../content/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"<script>alert(1)</script>", "[x](javascript:alert(1))", "![x](data:text/html,<script>)",
		"```cuda\n__global__ void k() {}\n```", "<img src=x onerror=alert(1)>", "# T {onclick=alert(1)}",
		"[a]: javascript:alert(1)\n\n[a]", "<a href=\"javascript:x\">y</a>", "`<script>`", "[^1]\n\n[^1]: <b onmouseover=x>",
	} {
		f.Add(s)
	}
	r := New()
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := r.Document([]byte(src))
		if err != nil {
			return
		}
		for _, out := range []string{string(doc.HTML), inline(t, r, src)} {
			if m := scriptTag.FindString(out); m != "" {
				t.Fatalf("%q rendered %q:\n%s", src, m, out)
			}
			if m := handler.FindString(out); m != "" {
				t.Fatalf("%q rendered an event handler %q:\n%s", src, m, out)
			}
			if m := jsURL.FindString(out); m != "" && !strings.HasPrefix(strings.ToLower(m), `src="data:image/`) {
				t.Fatalf("%q rendered a script URL %q:\n%s", src, m, out)
			}
		}
	})
}

func inline(t *testing.T, r *Renderer, src string) string {
	h, err := r.Inline(src)
	if err != nil {
		return ""
	}
	return string(h)
}
