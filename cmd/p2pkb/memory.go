package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
)

// lowMemory bounds the heap of search and explain with --kb, which hold a
// whole KB while they index it, on login nodes that many people share:
// garbage is collected at twice the live heap, as Go does by default, but
// before the heap passes heapLimit of the KB's size, unless GOGC or
// GOMEMLIMIT say otherwise. At 10,000 entries a fixed GOGC of 50 left the
// peak at 280-305 MB; the limit holds it at 250-265 MB, with fewer
// collections (33, not 55) and about the same CPU in them.
func lowMemory(kbDir string) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(heapLimit(jsonBytes(kbDir)))
}

// heapLimit is the heap allowed for a KB of that many bytes of JSON: the
// analysis of the 10,000-entry KB keeps about three times its JSON live,
// and a limit under the live heap would collect without end.
func heapLimit(kbBytes int64) int64 {
	return max(64<<20, 4*kbBytes)
}

// jsonBytes is the size of the JSON files under dir; 0 for none, or for
// the embedded KB ("").
func jsonBytes(dir string) int64 {
	var n int64
	if dir == "" {
		return 0
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".json" {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
