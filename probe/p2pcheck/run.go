package p2pcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
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
	Jobs     int       // pairs tested at the same time, each by its own worker; half the GPUs when 0
	GPUs     int       // GPUs expected (NVML's count), so the workers start with the enum child; 0 when unknown
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

// spawn runs one child under the deadline and kills its process group
// (the child and its second process) when the deadline passes.
func (o Options) spawn(role string, j job, seen func(line)) result {
	var res result
	in, _ := json.Marshal(j)
	cmd := exec.Command(o.Exe)
	cmd.Env = append(append(os.Environ(), o.Env...), RoleEnv+"="+role)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &limited{w: &stderr, n: 4096}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		res.err = err
		return res
	}
	if err := cmd.Start(); err != nil {
		res.err = err
		return res
	}
	var mu sync.Mutex
	timer := time.AfterFunc(o.Timeout, func() {
		mu.Lock()
		res.timedOut = true
		mu.Unlock()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var l line
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		seen(l)
		mu.Lock()
		if l.Step != "" {
			res.step = l.Step
		}
		if l.State != nil {
			res.state = l.State
		}
		mu.Unlock()
	}
	err = cmd.Wait()
	timer.Stop()
	// A second process left behind goes with the group.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	mu.Lock()
	defer mu.Unlock()
	if err != nil && !res.timedOut {
		res.err = err
	}
	res.stderr = strings.TrimSpace(stderr.String())
	return res
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
// The enum child lists the GPUs and measures each alone; as soon as it has
// listed them, the workers start (their CUDA start-up overlaps its
// measuring). Pairs that share no GPU then run at the same time, one per
// worker, while their copies are timed one pair at a time.
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

	// The workers start with the enum child when the number of GPUs is
	// known, else once it has listed them.
	var s *scheduler
	if o.GPUs > 1 {
		s = o.newScheduler(o.GPUs)
		defer s.stop()
	}
	listed := make(chan int, 1)
	var once sync.Once
	enumDone := make(chan result, 1)
	// Listing the GPUs is not a pair: a short deadline for pairs would
	// otherwise end the test before it began.
	eo := o
	eo.Timeout = max(o.Timeout, DefaultTimeout)
	go func() {
		enumDone <- eo.spawn("enum", job{Size: o.Size, Seed: o.Seed}, func(l line) {
			var en enumState
			if l.State != nil && json.Unmarshal(l.State, &en) == nil && en.Error == "" && len(en.Devices) > 1 {
				once.Do(func() { listed <- len(en.Devices) })
			}
		})
	}()
	var res result
	if s != nil {
		res = <-enumDone
	} else {
		select {
		case n := <-listed:
			s = o.newScheduler(n)
			defer s.stop()
			res = <-enumDone
		case res = <-enumDone:
		}
	}

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
	if s == nil {
		s = o.newScheduler(len(t.Devices))
		defer s.stop()
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
