package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// FleetFigures are `p2pkb fleet` on Nodes generated node reports.
type FleetFigures struct {
	Nodes   int
	Bytes   int64
	Wall    time.Duration
	CPU     time.Duration
	PeakRSS int64
	Found   bool // the one node in a thousand with a slow pair was named
}

// Fleet writes n node reports made from the real readings of a four-GPU and
// a two-GPU node (compact, as the probe writes them), every bandwidth
// varied by a few percent and one node in a thousand with a slow pair,
// times `p2pkb fleet --json` on them, median of rounds, and writes a table.
func Fleet(w io.Writer, repo, binary string, n, rounds int) (FleetFigures, error) {
	f := FleetFigures{Nodes: n}
	dir, err := os.MkdirTemp("", "p2pkb-bench-fleet-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(dir)
	var seeds []*facts.Report
	for _, name := range []string{"h200x4-test.json", "h200x2-test.json"} {
		file, err := os.Open(filepath.Join(repo, "internal", "fleet", "testdata", name))
		if err != nil {
			return f, err
		}
		r, err := facts.Read(file)
		file.Close()
		if err != nil {
			return f, fmt.Errorf("%s: %w", name, err)
		}
		seeds = append(seeds, r)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range n {
		r := *seeds[i%len(seeds)]
		t := *r.Test
		t.Pairs = slices.Clone(t.Pairs)
		for j := range t.Pairs {
			if b := t.Pairs[j].Bandwidth; b != nil {
				v := *b
				v.P2POn *= 0.97 + 0.06*rng.Float64()
				if i%1000 == 17 && j == 0 {
					v.P2POn /= 3
				}
				t.Pairs[j].Bandwidth = &v
			}
		}
		r.Test = &t
		data, err := json.Marshal(&r)
		if err != nil {
			return f, err
		}
		f.Bytes += int64(len(data))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("node%05d.json", i)), data, 0o644); err != nil {
			return f, err
		}
	}
	var runs []FleetFigures
	for range rounds {
		r := f
		cmd := exec.Command(binary, "fleet", "--json", dir)
		var stdout strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
		start := time.Now()
		err := cmd.Run()
		r.Wall = time.Since(start)
		r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.PeakRSS = ru.Maxrss * 1024
		}
		if err != nil && cmd.ProcessState.ExitCode() != 1 {
			return f, fmt.Errorf("fleet: %w", err)
		}
		r.Found = strings.Contains(stdout.String(), `"node": "node00017"`)
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b FleetFigures) int { return int(a.Wall - b.Wall) })
	f = runs[len(runs)/2]
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "p2pkb fleet, median of %d\tnodes\treports\twall (range)\tCPU\tpeak RSS\tslow pair found\t\n", rounds)
	fmt.Fprintf(tw, "\t%d\t%s\t%s\t%s\t%s\t%v\t\n", f.Nodes, size(f.Bytes), durRange(f.Wall, runs[0].Wall, runs[len(runs)-1].Wall), dur(f.CPU), size(f.PeakRSS), f.Found)
	return f, tw.Flush()
}
