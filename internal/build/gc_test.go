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

// Indexing lowers GOGC and puts the setting back, also when builds overlap,
// and never raises a lower setting of the user's.
func TestLowerGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(80))
	a := lowerGC()
	b := lowerGC()
	if p := gcPercent(); p != searchGCPercent {
		t.Errorf("while indexing: GOGC %d, want %d", p, searchGCPercent)
	}
	a()
	if p := gcPercent(); p != searchGCPercent {
		t.Errorf("while one build still indexes: GOGC %d, want %d", p, searchGCPercent)
	}
	b()
	if p := gcPercent(); p != 80 {
		t.Errorf("after indexing: GOGC %d, want 80", p)
	}

	debug.SetGCPercent(20)
	restore := lowerGC()
	if p := gcPercent(); p != 20 {
		t.Errorf("a lower setting: GOGC %d while indexing, want 20", p)
	}
	restore()
	if p := gcPercent(); p != 20 {
		t.Errorf("a lower setting: GOGC %d after indexing, want 20", p)
	}
}
