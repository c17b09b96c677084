package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/p2pkb/p2pkb/internal/diagnose"
)

// lowMemory bounds the heap of search and explain with --kb, which hold a
// whole KB while they index it (the embedded KB is collected at
// readingGCPercent while it loads), on login nodes that many people share: the
// heap stays under heapLimit of the KB's size, unless GOGC or GOMEMLIMIT
// say otherwise. While the KB is loaded and indexed, garbage is collected
// only at that limit; loaded is to be called then, and garbage is collected
// at twice the live heap from there on, as Go does by default, so that a
// long explain --follow holds no more than it needs. At 10,000 entries,
// collecting at twice the live heap while the heap grew took 15-20
// collections and a sixth of search's CPU; at the limit it takes 3, and
// the peak is about the same (240-255 MB). A fixed GOGC of 50 left the
// peak at 280-305 MB.
func lowMemory(kbDir string) (loaded func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	if kbDir == "" {
		// The embedded KB is small: collecting only at the limit let its
		// loading's garbage set the peak of a whole explain (56-62 MiB on
		// a 300 MB log); collecting at the reading's rate while it loads
		// keeps the peak at what reading holds.
		gc := debug.SetGCPercent(readingGCPercent)
		return func() { debug.SetGCPercent(gc) }
	}
	// Sizing a large KB's files takes tens of milliseconds: it is done
	// beside the loading, long before the heap comes near the limit. Until
	// then the limit is the smallest heapLimit gives.
	debug.SetMemoryLimit(heapLimit(0))
	go func() { debug.SetMemoryLimit(heapLimit(jsonBytes(kbDir))) }()
	gc := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(gc) }
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

// readingGC collects garbage at 1.5 times the live heap while explain reads
// a log, rather than Go's default of twice, unless GOGC or GOMEMLIMIT say
// otherwise: the heap that reading holds is small (about 15 MB beside the
// catalogue) and a log makes garbage at a steady rate, so collecting
// sooner costs little. On a 16-core node, five runs each on a 300 MB log:
// 225-324 MB/s and 52.4-54.5 MB at 50, against 235-258 MB/s and
// 55.5-57.5 MB at the default.
func readingGC() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(readingGCPercent)
	}
}

const readingGCPercent = 50

// fewProcs runs explain on the processors it keeps busy (diagnose.Procs),
// unless GOMAXPROCS says otherwise. On a node of 16 cores, explain of a
// 300 MB log read as fast on 4 to 16 processors (174-281 MB/s, 170-255 at
// 8, 182-212 at 4 in five runs each), and peaked at 58-60 MB of memory on
// 16 against 52-54 MB on 4: every processor adds its caches and a
// collector's worker.
func fewProcs() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(min(runtime.GOMAXPROCS(0), diagnose.Procs))
	}
}
