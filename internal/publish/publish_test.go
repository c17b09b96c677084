package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Files written from several goroutines into nested folders are all there
// after Commit, in place of the old output; names that leave the tree are
// refused.
func TestWriteAndCommit(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if err := os.MkdirAll(filepath.Join(out, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, Marker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range 200 {
		names = append(names, fmt.Sprintf("%c/kb/d%d/e%d/index.html", "ab"[i%2], i%3, i))
	}
	names = append(names, "robots.txt", "a/./x.txt", "a/kb/../y.txt")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(names); i += 4 {
				if err := tree.Write(names[i], []byte(names[i])); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for _, bad := range []string{"../x", "/etc/x", "a/../../x", "", ".", "..", "a/.."} {
		err := tree.Write(bad, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), "leaves the output directory") {
			t.Errorf("Write(%q): %v", bad, err)
		}
	}
	if err := tree.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "old")); !os.IsNotExist(err) {
		t.Errorf("old output kept: %v", err)
	}
	want := map[string]string{"a/x.txt": "a/./x.txt", "a/y.txt": "a/kb/../y.txt"}
	for _, n := range names[:201] {
		want[n] = n
	}
	for n, content := range want {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(n)))
		if err != nil || string(b) != content {
			t.Errorf("%s: %q, %v", n, b, err)
		}
	}
	info, err := os.Stat(filepath.Join(out, "robots.txt"))
	if err != nil || info.Mode().Perm()&0o644 != 0o644 {
		t.Errorf("robots.txt: %v %v", info, err)
	}
}

// A file where a folder must go fails the write with the path.
func TestWriteUnderAFile(t *testing.T) {
	tree, err := Begin(filepath.Join(t.TempDir(), "public"))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Abort()
	if err := tree.Write("a", []byte("file")); err != nil {
		t.Fatal(err)
	}
	if err := tree.Write("a/b.html", []byte("x")); err == nil || !strings.Contains(err.Error(), "a") {
		t.Errorf("write under a file: %v", err)
	}
}

// removeTree removes a tree of folders and files at every depth, and a
// symbolic link in it without touching what the link points to.
func TestRemoveTree(t *testing.T) {
	base := t.TempDir()
	dir, outside := filepath.Join(base, "old"), filepath.Join(base, "outside")
	for _, d := range []string{"a/b/c/d/e", "a/b/x", "f", "g/h", outside} {
		p := d
		if !filepath.IsAbs(d) {
			p = filepath.Join(dir, d)
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "index.html"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, "a", "b", fmt.Sprint(i)), nil, 0o644)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "a", "link")); err != nil {
		t.Fatal(err)
	}
	if err := removeTree(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("%s left: %v", dir, err)
	}
	if _, err := os.Stat(filepath.Join(outside, "index.html")); err != nil {
		t.Errorf("the link's target was removed: %v", err)
	}
	if err := removeTree(filepath.Join(base, "none")); err != nil {
		t.Errorf("a folder that is not there: %v", err)
	}
}

// Begin replaces only what a build wrote: a missing or empty directory, one
// with the marker, or an earlier build without it; a folder that is no site
// (--out ~ mistyped) is refused and left as it was, unless Replace is given.
func TestBeginRefusesAFolderThatIsNoSite(t *testing.T) {
	write := func(dir string, files ...string) {
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	build := func(out string, opts ...Option) error {
		tree, err := Begin(out, opts...)
		if err != nil {
			return err
		}
		if err := tree.Write("index.html", []byte("new")); err != nil {
			t.Fatal(err)
		}
		return tree.Commit()
	}
	root := t.TempDir()

	home := filepath.Join(root, "home")
	write(home, ".bashrc", "work/thesis.tex")
	err := build(home)
	if err == nil || !strings.Contains(err.Error(), "is no earlier build") || !strings.Contains(err.Error(), "--force") {
		t.Errorf("a home folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(home, "work", "thesis.tex")); err != nil || string(b) != "work/thesis.tex" {
		t.Errorf("a refused folder was changed: %q %v", b, err)
	}
	if err := build(filepath.Join(home, ".bashrc")); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("a file as the output: %v", err)
	}
	if err := build(home, Replace()); err != nil {
		t.Errorf("a folder replaced when told: %v", err)
	}

	for name, files := range map[string][]string{
		"missing": nil,
		"empty":   {},
		"earlier": {"index.html", "assets/site.js", "assets/machine.js", "en/index.html"},
	} {
		out := filepath.Join(root, name)
		if files != nil {
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			write(out, files...)
		}
		if err := build(out); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := os.Stat(filepath.Join(out, Marker)); err != nil {
			t.Errorf("%s: no marker after a build: %v", name, err)
		}
		// The next build finds the marker.
		if err := build(out); err != nil {
			t.Errorf("%s, built again: %v", name, err)
		}
	}
}
