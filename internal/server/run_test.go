package server

import (
	"context"
	"io"
	"strings"

	"os"
	"path/filepath"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
)

// Only edits of entries take serve --watch's fast path.
func TestEntriesOnly(t *testing.T) {
	dir := t.TempDir()
	kbDir := filepath.Join(dir, "kb")
	os.MkdirAll(filepath.Join(kbDir, "cuda"), 0o755)
	entry := filepath.Join(kbDir, "cuda", "x.json")
	os.WriteFile(entry, []byte("{}"), 0o644)
	gone := filepath.Join(kbDir, "cuda", "sedAb12Cd") // an editor's temporary file, renamed away
	for _, c := range []struct {
		changed []string
		want    bool
	}{
		{[]string{entry}, true},
		{[]string{entry, gone}, true},
		{[]string{entry, filepath.Join(kbDir, "repro", "gone.txt")}, false},
		{[]string{gone}, false},
		{[]string{filepath.Join(kbDir, "schema.json")}, false},
		{[]string{filepath.Join(kbDir, "repro", "a.txt")}, false},
		{[]string{filepath.Join(kbDir, "repro", "out.json")}, false},
		{[]string{filepath.Join(dir, "templates", "i18n.json")}, false},
		{[]string{entry, filepath.Join(dir, "content", "a.md")}, false},
		{nil, false},
	} {
		if got := entriesOnly(c.changed, kbDir); got != c.want {
			t.Errorf("entriesOnly(%v) = %v, want %v", c.changed, got, c.want)
		}
	}
}

// Run refuses what it cannot watch before it builds or listens.
func TestRunRefusesWhatItCannotWatch(t *testing.T) {
	dir := t.TempDir()
	folder := func(name string) build.Source { return build.Source{Name: filepath.Join(dir, name)} }
	os.Mkdir(filepath.Join(dir, "kb"), 0o755)
	src := build.Sources{KB: folder("kb"), Content: folder("content"), I18n: folder("kb"), Assets: folder("kb")}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Dir: dir, Watch: true, Sources: src}, "cannot be used with --dir"},
		{Options{Watch: true, Sources: src}, "no folder " + filepath.Join(dir, "content") + " to watch (run it in the repository, or give --content)"},
	} {
		err := Run(context.Background(), c.o, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Run(%+v) = %v, want an error saying %q", c.o, err, c.want)
		}
	}
}
