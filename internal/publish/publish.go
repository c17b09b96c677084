// Package publish writes a generated site so that readers never see half of
// it: files go to a fresh directory beside the output, which replaces the old
// output only once everything was written. A failed build leaves the old
// output exactly as it was.
package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Tree is an output being written.
type Tree struct {
	dir  string   // the fresh directory
	out  string   // where it goes on Commit
	dirs sync.Map // directories made so far: a site has tens of thousands of files in few folders each, and MkdirAll's checks cost a system call per path element
}

// Begin starts writing a new version of the directory out.
func Begin(out string) (*Tree, error) {
	out = filepath.Clean(out)
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
func (t *Tree) Write(name string, data []byte) error {
	p := filepath.Join(t.dir, filepath.FromSlash(name))
	if rel, err := filepath.Rel(t.dir, p); err != nil || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return fmt.Errorf("publish: %q leaves the output directory", name)
	}
	if d := filepath.Dir(p); d != t.dir {
		if _, made := t.dirs.Load(d); !made {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("publish: %w", err)
			}
			t.dirs.Store(d, true)
		}
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// Dir is the directory being written, for writers that need a path.
func (t *Tree) Dir() string { return t.dir }

// Commit puts the new tree in place of the old output and removes the old one.
func (t *Tree) Commit() error {
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
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("publish: new output in place, old one not removed: %w", err)
		}
	}
	return nil
}

// Abort discards the new tree.
func (t *Tree) Abort() { os.RemoveAll(t.dir) }
