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
	"syscall"
	"time"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// scheduler hands the ordered pairs to long-lived workers: a pair starts
// when a worker is free and neither of its GPUs is in use, and keeps its
// own deadline. A worker past a pair's deadline is killed with its second
// process, and a new one takes the pairs left; so is one that dies.
type scheduler struct {
	o       Options
	want    int // workers to keep
	events  chan event
	quit    chan struct{}
	procs   []*proc
	started int // workers started, for their numbers
	boots   int // workers that died before they were ready
	clock   *proc
	queue   []*proc // waiting for the clock
	notes   []string
}

// proc is the parent's view of one worker.
type proc struct {
	n        int
	cmd      *exec.Cmd
	in       io.WriteCloser
	stderr   bytes.Buffer
	ready    bool
	exited   bool
	cur      int // the pair it tests; -1 for none
	gen      int // counts pairs, so a stale deadline is told apart
	step     string
	state    json.RawMessage
	timedOut bool
	timer    *time.Timer
	due      time.Time
	left     time.Duration // deadline left while it waits for the clock
}

// event is a line from a worker, its end, or a pair's deadline.
type event struct {
	p        *proc
	l        *line
	exited   bool
	err      error
	deadline int // the gen whose deadline passed; 0 for none
}

// slot is one ordered pair and where it stands.
type slot struct {
	info    peerInfo
	pair    facts.TestPair
	state   string // pending, running, done
	elapsed time.Duration
}

func (o Options) newScheduler(gpus int) *scheduler {
	want := o.Jobs
	if want <= 0 {
		want = max(1, gpus/2)
	}
	s := &scheduler{o: o, want: want, events: make(chan event), quit: make(chan struct{})}
	for i := 0; i < want; i++ {
		s.start()
	}
	return s
}

func (s *scheduler) send(e event) {
	select {
	case s.events <- e:
	case <-s.quit:
	}
}

// start starts a worker in its own process group, which its second
// process joins, so one signal ends both.
func (s *scheduler) start() {
	s.started++
	p := &proc{n: s.started, cur: -1}
	cmd := exec.Command(s.o.Exe)
	cmd.Env = append(append(os.Environ(), s.o.Env...), RoleEnv+"=worker")
	cmd.Stderr = &limited{w: &p.stderr, n: 4096}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.cmd = cmd
	s.procs = append(s.procs, p)
	in, err1 := cmd.StdinPipe()
	out, err2 := cmd.StdoutPipe()
	err := err1
	if err == nil {
		err = err2
	}
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		p.exited = true
		s.boots++
		s.notes = append(s.notes, fmt.Sprintf("worker %d: %v", p.n, err))
		return
	}
	p.in = in
	s.order(p, order{Boot: &job{Size: s.o.Size, Seed: s.o.Seed}})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var l line
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				s.send(event{p: p, l: &l})
			}
		}
		err := cmd.Wait()
		s.send(event{p: p, exited: true, err: err})
	}()
}

func (s *scheduler) order(p *proc, o order) {
	b, _ := json.Marshal(o)
	p.in.Write(append(b, '\n')) // a dead worker's end shows as its exit
}

// run tests the pairs and returns them in the order given.
func (s *scheduler) run(gpus int, peers []peerInfo) []facts.TestPair {
	slots := make([]*slot, len(peers))
	for i, pi := range peers {
		slots[i] = &slot{info: pi, state: "pending", pair: facts.TestPair{Src: pi.From, Dst: pi.To, CanAccessPeer: pi.Can, Attributes: pi.Attrs, Paths: []facts.TestPath{}}}
		if pi.Error != "" {
			s.notes = append(s.notes, fmt.Sprintf("GPU%d->GPU%d: %s", pi.From, pi.To, pi.Error))
		}
	}
	busy := make([]bool, gpus)
	left, timeouts := len(slots), 0
	began := map[int]time.Time{}

	finish := func(p *proc, i int, res result) {
		sl := slots[i]
		var ps pairState
		if res.state != nil {
			json.Unmarshal(res.state, &ps)
		}
		pr := &sl.pair
		name := fmt.Sprintf("GPU%d->GPU%d", pr.Src, pr.Dst)
		switch {
		case ps.Error != "":
			pr.Status, pr.Reason = "failed", name+": "+ps.Error
		case ps.Done:
			// It finished; a deadline that fired meanwhile changes nothing.
		case res.timedOut:
			timeouts++
			pr.Status, pr.Step = "timeout", res.step
			pr.Reason = name + ": " + res.ended(s.o)
		default:
			pr.Status, pr.Step, pr.Reason = "failed", res.step, name+": "+res.ended(s.o)
		}
		if res.state != nil {
			pr.Enable, pr.Paths, pr.Bandwidth, pr.LatencyUS = ps.Pair.Enable, ps.Pair.Paths, ps.Pair.Bandwidth, ps.Pair.LatencyUS
			if pr.Status == "" {
				pr.Status, pr.Step, pr.Reason = ps.Pair.Status, ps.Pair.Step, ps.Pair.Reason
			}
			if pr.Paths == nil {
				pr.Paths = []facts.TestPath{}
			}
			s.notes = append(s.notes, ps.Notes...)
		}
		judge(pr)
		sl.state, sl.elapsed = "done", time.Since(began[i])
		tracef("worker %d: GPU%d->GPU%d done in %.3f s", p.n, pr.Src, pr.Dst, sl.elapsed.Seconds())
		busy[pr.Src], busy[pr.Dst] = false, false
		left--
		p.cur, p.step, p.state = -1, "", nil
		if p.timer != nil {
			p.timer.Stop()
		}
		s.release(p)
		fmt.Fprintf(s.o.Progress, "p2p-probe: %s %s\n", name, progress(*pr))
	}

	for left > 0 {
		if timeouts >= maxTimeouts {
			// A machine where copies hang usually hangs them all.
			for _, sl := range slots {
				if sl.state == "pending" {
					sl.state = "done"
					sl.pair.Status = "skipped"
					sl.pair.Reason = fmt.Sprintf("GPU%d->GPU%d: not tried after %d pairs hung", sl.info.From, sl.info.To, timeouts)
					left--
				}
			}
			if left == 0 {
				break
			}
		}
		s.dispatch(slots, busy, began)
		if s.alive() == 0 {
			// Workers that die before they are ready would die again.
			for _, sl := range slots {
				if sl.state == "pending" {
					sl.state = "done"
					sl.pair.Status = "failed"
					sl.pair.Reason = fmt.Sprintf("GPU%d->GPU%d: no worker process could start", sl.info.From, sl.info.To)
					left--
				}
			}
			break
		}
		e := <-s.events
		p := e.p
		switch {
		case e.deadline != 0:
			if p.cur >= 0 && e.deadline == p.gen && !p.exited {
				p.timedOut = true
				syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			}
		case e.exited:
			p.exited = true
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) // a second process left behind
			s.release(p)
			if !p.ready {
				s.boots++
			}
			if p.cur >= 0 {
				finish(p, p.cur, result{step: p.step, state: p.state, timedOut: p.timedOut, err: e.err, stderr: strings.TrimSpace(p.stderr.String())})
			}
			if left > 0 && timeouts < maxTimeouts && s.boots < 2 {
				s.start()
			}
		case e.l.Ready:
			p.ready = true
			tracef("worker %d ready", p.n)
		case p.cur < 0 || e.l.ID != p.cur:
			// A line about no pair in progress: nothing waits for it.
		case e.l.Clock == "want":
			p.left = time.Until(p.due)
			p.timer.Stop()
			s.queue = append(s.queue, p)
			s.grant()
		case e.l.Clock == "done":
			s.release(p)
		case e.l.Step != "":
			p.step = e.l.Step
		case e.l.State != nil:
			p.state = e.l.State
			var ps pairState
			if json.Unmarshal(e.l.State, &ps) == nil && ps.Done {
				finish(p, p.cur, result{step: p.step, state: p.state})
			}
		}
	}
	pairs := make([]facts.TestPair, len(slots))
	for i, sl := range slots {
		pairs[i] = sl.pair
	}
	return pairs
}

func (s *scheduler) alive() int {
	n := 0
	for _, p := range s.procs {
		if !p.exited {
			n++
		}
	}
	return n
}

// dispatch gives each free worker the first pending pair whose GPUs are free.
func (s *scheduler) dispatch(slots []*slot, busy []bool, began map[int]time.Time) {
	for _, p := range s.procs {
		if p.exited || !p.ready || p.cur >= 0 {
			continue
		}
		for i, sl := range slots {
			a, b := sl.info.From, sl.info.To
			if sl.state != "pending" || busy[a] || busy[b] {
				continue
			}
			sl.state, busy[a], busy[b] = "running", true, true
			tracef("worker %d: GPU%d->GPU%d", p.n, a, b)
			began[i] = time.Now()
			p.cur, p.gen, p.step, p.state, p.timedOut = i, p.gen+1, "", nil, false
			gen := p.gen
			p.due = time.Now().Add(s.o.Timeout)
			p.timer = time.AfterFunc(s.o.Timeout, func() { s.send(event{p: p, deadline: gen}) })
			s.order(p, order{ID: i, Job: &job{Size: s.o.Size, Seed: s.o.Seed, From: a, To: b, Peer: sl.info.Can != nil && *sl.info.Can}})
			break
		}
	}
}

// grant gives the clock to the first worker waiting, whose deadline runs again.
func (s *scheduler) grant() {
	if s.clock != nil || len(s.queue) == 0 {
		return
	}
	p := s.queue[0]
	s.queue = s.queue[1:]
	s.clock = p
	tracef("worker %d: clock", p.n)
	gen := p.gen
	p.due = time.Now().Add(p.left)
	p.timer = time.AfterFunc(p.left, func() { s.send(event{p: p, deadline: gen}) })
	s.order(p, order{ID: p.cur, Clock: true})
}

// release takes the clock, or its place in the queue, from p.
func (s *scheduler) release(p *proc) {
	for i, q := range s.queue {
		if q == p {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			break
		}
	}
	if s.clock == p {
		s.clock = nil
		s.grant()
	}
}

// stop ends every worker and its second process and waits until they are
// gone: their results are in, and a context's teardown needs no care.
func (s *scheduler) stop() {
	for _, p := range s.procs {
		if !p.exited {
			p.in.Close()
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	for s.alive() > 0 {
		e := <-s.events
		if e.exited {
			e.p.exited = true
			syscall.Kill(-e.p.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	close(s.quit)
}
