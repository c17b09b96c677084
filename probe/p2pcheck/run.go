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
}

// DefaultSize moves enough per copy for steady bandwidth figures while the
// whole test of two GPUs stays within a few seconds.
const DefaultSize = 64 << 20

// DefaultTimeout is each child's deadline; a healthy pair needs about a second.
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
func (o Options) spawn(role string, j job) result {
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

	res := o.spawn("enum", job{Size: o.Size, Seed: o.Seed})
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
	timeouts := 0
	for _, pi := range en.Peers {
		p := facts.TestPair{Src: pi.From, Dst: pi.To, CanAccessPeer: pi.Can, Attributes: pi.Attrs, Paths: []facts.TestPath{}}
		name := fmt.Sprintf("GPU%d->GPU%d", pi.From, pi.To)
		if pi.Error != "" {
			t.Notes = append(t.Notes, name+": "+pi.Error)
		}
		if timeouts >= maxTimeouts {
			p.Status, p.Reason = "skipped", fmt.Sprintf("%s: not tried after %d pairs hung", name, timeouts)
			t.Pairs = append(t.Pairs, p)
			continue
		}
		res := o.spawn("pair", job{Size: o.Size, Seed: o.Seed, From: pi.From, To: pi.To, Peer: pi.Can != nil && *pi.Can})
		var ps pairState
		if res.state != nil {
			json.Unmarshal(res.state, &ps)
		}
		switch {
		case ps.Error != "":
			p.Status, p.Reason = "failed", name+": "+ps.Error
		case ps.Done:
			// It finished; a deadline that fired while it exited changes nothing.
		case res.timedOut:
			timeouts++
			p.Status, p.Step = "timeout", res.step
			p.Reason = name + ": " + res.ended(o)
		case !ps.Done:
			p.Status, p.Step, p.Reason = "failed", res.step, name+": "+res.ended(o)
		}
		if res.state != nil {
			p.Enable, p.Paths, p.Bandwidth, p.LatencyUS = ps.Pair.Enable, ps.Pair.Paths, ps.Pair.Bandwidth, ps.Pair.LatencyUS
			if p.Status == "" {
				p.Status, p.Step, p.Reason = ps.Pair.Status, ps.Pair.Step, ps.Pair.Reason
			}
			if p.Paths == nil {
				p.Paths = []facts.TestPath{}
			}
			t.Notes = append(t.Notes, ps.Notes...)
		}
		judge(&p)
		t.Pairs = append(t.Pairs, p)
		fmt.Fprintf(o.Progress, "p2p-probe: %s %s\n", name, progress(p))
	}
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
