package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

// The Hugo site shows what our entry pages show, in both languages.
func TestHugoSiteIsEquivalent(t *testing.T) {
	hugo := FindHugo()
	if hugo == "" {
		t.Skip("hugo not installed")
	}
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	articles, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	s := site.New(k, articles, "")
	dir := t.TempDir()
	if err := writeHugo(dir, s); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(hugo, "--quiet", "--source", dir, "--destination", "public").CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	e := k.ByID["cuda/peer-access-unsupported-by-hardware"]
	for _, l := range site.Langs {
		b, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(site.EntryPath(l.Code, e.ID)), "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		v := site.View(e, l.Code, k)
		page := string(b)
		for _, want := range []string{"<code>" + e.ErrorCode + "</code>", "Workarounds", `hreflang="zh"`, "<h2>Root cause</h2>"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: Hugo page lacks %q", l.Code, want)
			}
		}
		if n := strings.Count(page, "<li><p>"); n != len(v.Workarounds) {
			t.Errorf("%s: %d workarounds on the Hugo page, want %d", l.Code, n, len(v.Workarounds))
		}
	}
}
