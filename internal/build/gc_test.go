package build

import (
	"runtime/debug"
	"testing"
)

func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// Indexing lowers GOGC and the memory limit and puts the settings back,
// also when builds overlap, and never raises a lower setting of the user's.
func TestLowerGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(80))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	a := lowerGC(true)
	b := lowerGC(true)
	if p := gcPercent(); p != searchGCPercent {
		t.Errorf("while indexing: GOGC %d, want %d", p, searchGCPercent)
	}
	if l := debug.SetMemoryLimit(-1); l != searchMemoryLimit {
		t.Errorf("while indexing: memory limit %d, want %d", l, searchMemoryLimit)
	}
	a()
	if p := gcPercent(); p != searchGCPercent {
		t.Errorf("while one build still indexes: GOGC %d, want %d", p, searchGCPercent)
	}
	b()
	forServe := lowerGC(false)
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Errorf("indexing for serve: memory limit %d, want %d", l, int64(1<<40))
	}
	forServe()
	if p := gcPercent(); p != 80 {
		t.Errorf("after indexing: GOGC %d, want 80", p)
	}
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Errorf("after indexing: memory limit %d, want %d", l, int64(1<<40))
	}

	debug.SetMemoryLimit(100 << 20)
	restore := lowerGC(true)
	if l := debug.SetMemoryLimit(-1); l != 100<<20 {
		t.Errorf("a lower limit: %d while indexing, want %d", l, 100<<20)
	}
	restore()

	debug.SetGCPercent(20)
	restore = lowerGC(true)
	if p := gcPercent(); p != 20 {
		t.Errorf("a lower setting: GOGC %d while indexing, want 20", p)
	}
	restore()
	if p := gcPercent(); p != 20 {
		t.Errorf("a lower setting: GOGC %d after indexing, want 20", p)
	}
}
