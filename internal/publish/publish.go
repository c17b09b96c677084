// Package publish writes a generated site so that readers never see half of
// it: files go to a fresh directory beside the output, which replaces the old
// output only once everything was written. A failed build leaves the old
// output exactly as it was.
package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Tree is an output being written.
type Tree struct {
	dir  string   // the fresh directory
	out  string   // where it goes on Commit
	dirs sync.Map // slash-separated paths inside the tree of the directories made so far
}

// Marker is the file every output holds: Begin replaces only a directory
// that has it (or is empty, or missing), so that a mistyped --out never
// deletes a folder that is not a site.
const Marker = ".p2pkb-build"

// earlier are files every site p2pkb built before it wrote Marker holds:
// such an output is replaced too, and gets the marker.
var earlier = []string{"index.html", "assets/site.js", "assets/machine.js"}

// Option changes how Begin treats the output.
type Option func(*options)

type options struct{ replace bool }

// Replace lets Begin replace an output that is not an earlier build
// (build --force).
func Replace() Option { return func(o *options) { o.replace = true } }

// Begin starts writing a new version of the directory out. It refuses a
// non-empty out that holds no earlier build, unless told to Replace it.
func Begin(out string, opts ...Option) (*Tree, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	out = filepath.Clean(out)
	if !o.replace {
		if err := checkOut(out); err != nil {
			return nil, err
		}
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".new-")
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("publish: %w", err)
	}
	return &Tree{dir: dir, out: out}, nil
}

// Write writes one file, name being a slash-separated path inside the tree.
// It is safe for concurrent use.
//
// A 10k site is 45,000 files in 40,000 folders, and the file system's work
// for them is most of a build's wall time: a folder is made with one mkdir
// once its parent is known to exist (MkdirAll asks first, a system call per
// level), and a file takes open, write and close only (see writeFile).
func (t *Tree) Write(name string, data []byte) error {
	if !fs.ValidPath(name) || name == "." {
		clean := path.Clean(name)
		if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || !fs.ValidPath(clean) {
			return fmt.Errorf("publish: %q leaves the output directory", name)
		}
		name = clean
	}
	if err := t.mkdir(path.Dir(name)); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if err := writeFile(filepath.Join(t.dir, filepath.FromSlash(name)), data); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// mkdir makes the directory d inside the tree and its parents, each with
// one system call where it was not made before.
func (t *Tree) mkdir(d string) error {
	if d == "." {
		return nil
	}
	if _, made := t.dirs.Load(d); made {
		return nil
	}
	if err := t.mkdir(path.Dir(d)); err != nil {
		return err
	}
	// Another writer may make it at the same time: a directory already
	// there is one made in this fresh tree.
	if err := os.Mkdir(filepath.Join(t.dir, filepath.FromSlash(d)), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	t.dirs.Store(d, true)
	return nil
}

// checkOut says why out must not be replaced, or nil: it is missing,
// empty, or an earlier build.
func checkOut(out string) error {
	fi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("publish: the output %s is a file, not a directory", out)
	}
	if _, err := os.Stat(filepath.Join(out, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	for _, name := range earlier {
		if fi, err := os.Stat(filepath.Join(out, filepath.FromSlash(name))); err != nil || !fi.Mode().IsRegular() {
			return fmt.Errorf("publish: the output %s is not empty and is no earlier build (it has no %s): it would be replaced, and everything in it deleted; give a new or empty directory, or --force to replace it", out, Marker)
		}
	}
	return nil
}

// Dir is the directory being written, for writers that need a path.
func (t *Tree) Dir() string { return t.dir }

// Commit puts the new tree in place of the old output and removes the old one.
func (t *Tree) Commit() error {
	if err := writeFile(filepath.Join(t.dir, Marker), []byte("p2pkb build output: p2pkb build replaces this directory whole.\n")); err != nil {
		t.Abort()
		return fmt.Errorf("publish: %w", err)
	}
	old := ""
	if _, err := os.Stat(t.out); err == nil {
		old = t.dir + ".old"
		if err := os.Rename(t.out, old); err != nil {
			t.Abort()
			return fmt.Errorf("publish: %w", err)
		}
	}
	if err := os.Rename(t.dir, t.out); err != nil {
		if old != "" {
			_ = os.Rename(old, t.out) // put the old output back
		}
		t.Abort()
		return fmt.Errorf("publish: %w", err)
	}
	if old != "" {
		if err := removeTree(old); err != nil {
			return fmt.Errorf("publish: new output in place, old one not removed: %w", err)
		}
	}
	return nil
}

// removers is how many folders removeTree removes at once.
const removers = 8

// removeTree removes dir and everything in it, the subtrees three levels
// down (a site's en/kb/<domain>/, e/<code>/index.html) several at a time. Removing
// the old output of a 10,000-entry site one file after another took most
// of what building the new one took on a file system that discards freed
// blocks as it goes, and removals in different folders overlap: 8 at a time
// took half as long. Symbolic links are removed, not followed.
func removeTree(dir string) error {
	var subtrees []string
	var list func(d string, depth int) error
	list = func(d string, depth int) error {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			if e.IsDir() && depth < 2 {
				if err := list(p, depth+1); err != nil {
					return err
				}
				continue
			}
			subtrees = append(subtrees, p)
		}
		return nil
	}
	if err := list(dir, 0); err != nil {
		return os.RemoveAll(dir) // whatever it was, the plain way says what fails
	}
	next := make(chan string)
	errs := make([]error, removers)
	var wg sync.WaitGroup
	for i := range removers {
		wg.Go(func() {
			for p := range next {
				if err := os.RemoveAll(p); err != nil && errs[i] == nil {
					errs[i] = err
				}
			}
		})
	}
	for _, p := range subtrees {
		next <- p
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// Abort discards the new tree.
func (t *Tree) Abort() { os.RemoveAll(t.dir) }
