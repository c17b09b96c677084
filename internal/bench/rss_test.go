package bench

import (
	"os"
	"os/exec"
	"testing"
	"time"
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

// The median run is the one of middle wall time, whatever the order the
// runs came in, and it carries their range and the highest peak memory.
func TestMedianOfRuns(t *testing.T) {
	runs := []timing{
		{wall: 9 * time.Second, cpu: 1, rss: 10, log: "slow"},
		{wall: 5 * time.Second, cpu: 2, rss: 30, log: "fast"},
		{wall: 7 * time.Second, cpu: 3, rss: 20, log: "middle"},
	}
	m := median(runs)
	if m.wall != 7*time.Second || m.cpu != 3 || m.log != "middle" {
		t.Errorf("median = %+v, want the 7 s run", m)
	}
	if m.min != 5*time.Second || m.max != 9*time.Second || m.rss != 30 {
		t.Errorf("range %v-%v, rss %d; want 5s-9s and 30", m.min, m.max, m.rss)
	}
	if runs[0].log != "slow" {
		t.Error("median reordered its argument")
	}
}
