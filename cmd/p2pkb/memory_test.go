package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/p2pkb/p2pkb/internal/diagnose"
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

// explain runs on no more processors than it keeps busy, unless GOMAXPROCS
// says how many; a machine with fewer keeps all of its own.
func TestExplainFewProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "")
	for _, have := range []int{16, diagnose.Procs, 2} {
		runtime.GOMAXPROCS(have)
		fewProcs()
		if got, want := runtime.GOMAXPROCS(0), min(have, diagnose.Procs); got != want {
			t.Errorf("on %d processors explain runs on %d, want %d", have, got, want)
		}
	}
	t.Setenv("GOMAXPROCS", "16")
	runtime.GOMAXPROCS(16)
	fewProcs()
	if got := runtime.GOMAXPROCS(0); got != 16 {
		t.Errorf("with GOMAXPROCS=16 explain runs on %d processors", got)
	}
}

// While explain reads a log, garbage is collected at readingGCPercent,
// unless GOGC or GOMEMLIMIT say otherwise.
func TestReadingGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		gogc, memlimit string
		want           int
	}{{"", "", readingGCPercent}, {"200", "", 100}, {"", "1GiB", 100}} {
		t.Setenv("GOGC", c.gogc)
		t.Setenv("GOMEMLIMIT", c.memlimit)
		debug.SetGCPercent(100)
		readingGC()
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: collecting at %d%%, want %d%%", c.gogc, c.memlimit, got, c.want)
		}
	}
}

// The embedded KB is collected at the reading's rate while it loads, not
// only at the heap limit; once loaded, the rate before it comes back.
func TestEmbeddedKBCollectedWhileLoading(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	loaded := lowMemory("")
	if got := debug.SetGCPercent(readingGCPercent); got != readingGCPercent {
		t.Errorf("while the embedded KB loads, collecting at %d%%, want %d%%", got, readingGCPercent)
	}
	loaded()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("once loaded, collecting at %d%%, want 100%% as before", got)
	}
}
