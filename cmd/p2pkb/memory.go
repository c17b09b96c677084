package main

import (
	"os"
	"runtime/debug"
)

// lowMemory collects garbage at one and a half times the live heap instead
// of twice, unless GOGC says otherwise: search and explain with --kb hold a
// whole KB while they index it, on login nodes that many people share. At
// 10,000 entries it took their peak from 350-370 MB to 250-295 MB, for 0.3
// CPU-seconds more.
func lowMemory() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}
