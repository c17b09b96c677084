package bench

import (
	"os"
	"os/exec"
	"testing"
)

// A small command started by a process that holds a lot of memory is
// measured at its own peak, not the starter's.
func TestPeakRSSIsTheCommandsOwn(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no GNU time")
	}
	held := make([]byte, 400<<20)
	for i := range held {
		held[i] = byte(i) // resident, not only reserved
	}
	cmd := exec.Command("/bin/true")
	rss := peakRSS(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if got := rss(); got <= 0 || got > 100<<20 {
		t.Errorf("true's peak RSS read as %d MB while the test holds %d MB", got>>20, len(held)>>20)
	}
	_ = held[len(held)-1]
}
