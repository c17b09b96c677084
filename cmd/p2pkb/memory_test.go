package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The heap limit follows the KB's JSON, the files that are loaded, and not
// the other files beside them; a small or embedded KB gets the floor.
func TestHeapLimitFollowsTheKB(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"a/x.json": 1000, "b/y.json": 2500, "a/notes.md": 9000} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := jsonBytes(dir); got != 3500 {
		t.Errorf("jsonBytes = %d, want 3500", got)
	}
	if got := jsonBytes(""); got != 0 {
		t.Errorf("jsonBytes of the embedded KB = %d, want 0", got)
	}
	if got := heapLimit(3500); got != 64<<20 {
		t.Errorf("heapLimit of a small KB = %d, want the floor %d", got, 64<<20)
	}
	if got := heapLimit(60 << 20); got != 240<<20 {
		t.Errorf("heapLimit of a 60 MiB KB = %d, want %d", got, 240<<20)
	}
}
