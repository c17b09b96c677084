package build_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/build/buildtest"
)

// repoSources are the repository's own kb/, content/, templates/ and assets/.
func repoSources(t testing.TB) build.Sources { return buildtest.Sources(t) }

// buildSite builds the repository's site into a fresh directory.
func buildSite(t testing.TB, baseURL string) string { return buildtest.Site(t, baseURL) }

// Two builds of the same sources write the same pages and client index, so
// that a deploy changes only what changed.
func TestBuildIsDeterministic(t *testing.T) {
	a, b := buildSite(t, ""), buildSite(t, "")
	n := 0
	err := filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		if strings.HasPrefix(filepath.ToSlash(rel), build.SearchIndexDir) {
			return nil // bleve's own files
		}
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds (%v)", rel, err)
		}
		n++
		return nil
	})
	if err != nil || n < 100 {
		t.Fatalf("compared %d files: %v", n, err)
	}
}

// A build tells its progress: loading, every page written out of how many,
// then the search index.
func TestBuildReportsProgress(t *testing.T) {
	var stages []string
	last, total := 0, 0
	var mu sync.Mutex
	p := func(stage string, done, n int) {
		mu.Lock()
		defer mu.Unlock()
		if len(stages) == 0 || stages[len(stages)-1] != stage {
			stages = append(stages, stage)
		}
		if stage == "pages" {
			last, total = max(last, done), n
		}
	}
	if err := build.Build(repoSources(t), filepath.Join(t.TempDir(), "public"), "", io.Discard, p); err != nil {
		t.Fatal(err)
	}
	if strings.Join(stages, ",") != "load,pages,search" {
		t.Errorf("stages %v", stages)
	}
	if total == 0 || last != total {
		t.Errorf("pages %d of %d at the end", last, total)
	}
}

// An entry that answers a shape of message (python/program-own-check) says
// on its page, in English and Chinese, that its signature is one example;
// an entry of one message does not.
func TestShapeEntryPageSaysItsSignatureIsAnExample(t *testing.T) {
	out := buildSite(t, "")
	for _, c := range []struct{ page, words string }{
		{"en/kb/python/program-own-check/index.html", "is one example"},
		{"zh/kb/python/program-own-check/index.html", "只是一个例子"},
	} {
		b, err := os.ReadFile(filepath.Join(out, c.page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `class="notice shape"`) || !strings.Contains(string(b), c.words) {
			t.Errorf("%s lacks the note that its signature is one example", c.page)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "en/kb/pytorch/default-process-group-not-initialized/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `class="notice shape"`) {
		t.Errorf("an entry of one message says its signature is one example")
	}
}
