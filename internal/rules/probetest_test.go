package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// The report fixtures must be what p2p-probe writes: facts.Read refuses a
// field the format does not have.
func TestReportFixturesRead(t *testing.T) {
	paths, _ := filepath.Glob("testdata/reports/*.json")
	if len(paths) < 6 {
		t.Fatalf("%d report fixtures", len(paths))
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = facts.Read(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestFigures(t *testing.T) {
	for x, want := range map[float64]string{24.13: "24.1", 24.25: "24.3", 0.05: "0.1", 389.96: "390.0", 0: "0.0"} {
		if got := GBps(x); got != want {
			t.Errorf("GBps(%v) = %q, want %q", x, got, want)
		}
	}
	for b, want := range map[int64]string{4 << 20: "4 MiB", 1 << 30: "1 GiB", 3 << 19: "1.5 MiB", 1536 << 20: "1536 MiB", 512: "512 bytes", 8 << 10: "8 KiB"} {
		if got := Size(b); got != want {
			t.Errorf("Size(%d) = %q, want %q", b, got, want)
		}
	}
}
