package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/p2pkb/p2pkb/internal/build"
)

// writesToTerminal reports whether w is a terminal, where progress and colour
// help; in a pipe or a file they would only be noise.
func writesToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressLine draws a build's progress on one line of a terminal, redrawn
// at most ten times a second, and clears it when the build ends.
type progressLine struct {
	mu    sync.Mutex
	w     io.Writer
	last  time.Time
	shown bool
}

func (p *progressLine) update(stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if stage == "pages" && done != total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	line := map[string]string{"load": "loading the KB and articles…", "search": "indexing for search…"}[stage]
	if stage == "pages" {
		line = fmt.Sprintf("pages %d/%d", done, total)
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

func (p *progressLine) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// buildProgress is the progress a build shows on w: a line on a terminal
// unless quiet, else none.
func buildProgress(w io.Writer, quiet bool) (build.Progress, func()) {
	if quiet || !writesToTerminal(w) {
		return nil, func() {}
	}
	p := &progressLine{w: w}
	return p.update, p.clear
}
