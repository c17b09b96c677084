package p2pcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// Options change how the test runs.
type Options struct {
	Size     int64         // bytes per copy (--test-size); DefaultSize when 0
	Timeout  time.Duration // deadline of each child; DefaultTimeout when 0
	Seed     uint32        // the run's pattern seed; from the clock when 0
	Exe      string        // the program re-executed as a child; /proc/self/exe when ""
	Env      []string      // added to the children's environment
	Now      func() time.Time
	Progress io.Writer // one line per GPU list and pair as the test goes, for people waiting; nil for none
	Jobs     int       // pairs the worker tests at the same time; half the GPUs when 0
	Trace    string    // a file for the scheduling events (the children's go to TraceEnv's, from Env)
}

// DefaultSize moves enough per copy for steady bandwidth figures while the
// whole test of two GPUs stays within a few seconds.
const DefaultSize = 64 << 20

// DefaultTimeout is each pair's deadline (and the enum child's); a healthy
// pair needs a fraction of a second once its worker has started, and the
// time a pair waits for the clock does not count.
const DefaultTimeout = 30 * time.Second

// maxTimeouts is how many pairs may hang before the rest are not tried:
// a machine where copies hang usually hangs them all.
const maxTimeouts = 2

// result is what one child left: its last step and state, and how it ended.
type result struct {
	step     string
	state    json.RawMessage
	timedOut bool
	err      error  // how the process ended, when not cleanly
	stderr   string // the start of what it wrote to stderr (a panic message, say)
}

// limited keeps the first n bytes written to it.
type limited struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// ended says in words how a child that left no final state ended.
func (r result) ended(o Options) string {
	switch {
	case r.timedOut:
		return fmt.Sprintf("no answer within %s, killed in step %q", o.Timeout, r.step)
	case r.err != nil:
		s := fmt.Sprintf("the test process failed (%v) in step %q", r.err, r.step)
		if r.stderr != "" {
			s += ": " + firstLine(r.stderr)
		}
		return s
	}
	return fmt.Sprintf("the test process ended in step %q without a result", r.step)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Run tests every GPU and ordered pair and returns the report's test section.
// It never fails: what went wrong is in the section.
//
// The first worker lists the GPUs and measures each alone, then tests the
// pairs: those that share no GPU at the same time, their copies timed one
// pair at a time.
func Run(o Options) *facts.Test {
	if o.Size <= 0 {
		o.Size = DefaultSize
	}
	o.Size &^= 3
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Exe == "" {
		o.Exe = "/proc/self/exe"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	start := o.Now()
	if o.Seed == 0 {
		o.Seed = uint32(start.UnixNano()) | 1
	}
	t := &facts.Test{SizeBytes: o.Size, Devices: []facts.TestDevice{}, Pairs: []facts.TestPair{}}
	defer func() {
		t.DurationMS = o.Now().Sub(start).Milliseconds()
		summarize(t)
	}()

	s := o.newScheduler()
	defer s.stop()
	// Listing the GPUs is not a pair: a short deadline for pairs would
	// otherwise end the test before it began.
	res := s.listGPUs(max(o.Timeout, DefaultTimeout))

	var en enumState
	if res.state != nil {
		json.Unmarshal(res.state, &en)
	}
	if en.Error != "" {
		t.Error = en.Error
		return t
	}
	if res.state == nil {
		t.Error = "listing the GPUs: " + res.ended(o)
		return t
	}
	t.Driver, t.Devices = en.Driver, en.Devices
	if !en.Done {
		t.Notes = append(t.Notes, "measuring each GPU alone: "+res.ended(o))
	}
	t.Ran = len(t.Devices) > 0
	if len(t.Devices) == 0 {
		t.Error = "the CUDA driver sees no GPU"
		return t
	}
	if len(t.Devices) == 1 {
		t.Notes = append(t.Notes, "one GPU: no pair to test; the figures are the GPU's own copies")
	}
	fmt.Fprintf(o.Progress, "p2p-probe: %d GPUs, %d ordered pairs, %s per copy\n", len(t.Devices), len(en.Peers), sizeText(o.Size))
	if len(en.Peers) == 0 {
		return t
	}
	if s.jobs <= 0 {
		s.jobs = max(1, len(t.Devices)/2)
	}
	t.Pairs = s.run(len(t.Devices), en.Peers)
	t.Notes = append(t.Notes, s.notes...)
	return t
}

// progress is a pair's line for people waiting: its status and figures.
func progress(p facts.TestPair) string {
	bad := 0
	for _, x := range p.Paths {
		if x.Status != "ok" {
			bad++
		}
	}
	s := fmt.Sprintf("%s: %d of %d paths verified", p.Status, len(p.Paths)-bad, len(p.Paths))
	if b := p.Bandwidth; b != nil {
		s += fmt.Sprintf(", %.1f GB/s with P2P, %.1f GB/s staged", b.P2POn, b.P2POff)
	}
	return s
}
