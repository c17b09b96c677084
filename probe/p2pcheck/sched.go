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

// scheduler runs the test through one worker process at a time. It sends
// the worker pairs that share no GPU, up to a number at once, gives the
// clock to one pair at a time, and keeps each pair's deadline. A worker past
// a pair's deadline is killed with its second process; the pair is a
// timeout, and the pairs it held beside it go to a new worker. A worker that
// dies holding several pairs cannot say which one killed it: they go to the
// new worker one at a time, and one that kills a worker alone has failed.
type scheduler struct {
	o      Options
	jobs   int // pairs a worker holds at once; 0 until the GPUs are counted
	events chan event
	quit   chan struct{}
	w      *proc // the worker; nil between one's death and the next's start
	all    []*proc
	boots  int // workers that died before they were ready
	slots  []*slot
	clock  *slot
	queue  []*slot // waiting for the clock
	notes  []string
}

// proc is the parent's view of a worker process.
type proc struct {
	n        int
	cmd      *exec.Cmd
	in       io.WriteCloser
	stderr   bytes.Buffer
	ready    bool
	exited   bool
	enum     *enumRun // the GPUs' listing, for the first worker
	held     map[*slot]bool
	killedBy *slot // the pair whose deadline passed
}

// enumRun is what the first worker said while listing and measuring the GPUs.
type enumRun struct {
	res  result
	done bool
}

// event is a line from a worker, its end, or a pair's deadline.
type event struct {
	p      *proc
	l      *line
	exited bool
	err    error
	slot   *slot // whose deadline passed
	gen    int
}

// slot is one ordered pair and where it stands.
type slot struct {
	id       int
	info     peerInfo
	pair     facts.TestPair
	state    string // pending, running, done
	suspect  bool   // held by a worker that died: runs alone
	gen      int    // counts dispatches, so a stale deadline is told apart
	step     string
	last     json.RawMessage
	timer    *time.Timer
	due      time.Time
	left     time.Duration // deadline left while it waits for the clock
	timedOut bool
	paused   bool // its deadline waits while another pair has the clock
	began    time.Time
}

// newScheduler is a scheduler holding o.Jobs pairs at once; run sets the
// default, half the GPUs, when o.Jobs is 0.
func (o Options) newScheduler() *scheduler {
	return &scheduler{o: o, jobs: o.Jobs, events: make(chan event), quit: make(chan struct{})}
}

func (s *scheduler) send(e event) {
	select {
	case s.events <- e:
	case <-s.quit:
	}
}

// start starts a worker in its own process group, which its second
// process joins, so one signal ends both.
func (s *scheduler) start(enum bool) *proc {
	p := &proc{n: len(s.all) + 1, held: map[*slot]bool{}}
	s.all = append(s.all, p)
	s.w = p
	if enum {
		p.enum = &enumRun{}
	}
	cmd := exec.Command(s.o.Exe)
	cmd.Env = append(append(os.Environ(), s.o.Env...), RoleEnv+"=worker")
	cmd.Stderr = &limited{w: &p.stderr, n: 4096}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.cmd = cmd
	in, err := cmd.StdinPipe()
	var out io.ReadCloser
	if err == nil {
		out, err = cmd.StdoutPipe()
	}
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		p.exited = true
		s.w = nil
		s.boots++
		s.notes = append(s.notes, fmt.Sprintf("worker %d: %v", p.n, err))
		if p.enum != nil {
			p.enum.res.err = err
		}
		return p
	}
	p.in = in
	s.tracef("worker %d started", p.n)
	s.order(p, order{Boot: &job{Size: s.o.Size, Seed: s.o.Seed, Enum: enum}})
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
	return p
}

func (s *scheduler) order(p *proc, o order) {
	b, _ := json.Marshal(o)
	p.in.Write(append(b, '\n')) // a dead worker's end shows as its exit
}

// listGPUs starts the first worker and waits until it has listed and
// measured the GPUs, or died trying, within timeout.
func (s *scheduler) listGPUs(timeout time.Duration) result {
	p := s.start(true)
	if p.exited {
		return p.enum.res
	}
	deadline := time.AfterFunc(timeout, func() { s.send(event{p: p, gen: -1}) })
	defer deadline.Stop()
	for !p.enum.done {
		e := <-s.events
		switch {
		case e.gen == -1:
			p.enum.res.timedOut = true
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		case e.exited:
			s.ended(e.p, e.err)
			p.enum.res.err = e.err
			p.enum.res.stderr = strings.TrimSpace(p.stderr.String())
			p.enum.done = true
		case e.l.Ready:
			p.ready = true
		case e.l.ID != enumID:
		case e.l.Step != "":
			p.enum.res.step = e.l.Step
		case e.l.State != nil:
			p.enum.res.state = e.l.State
			var en enumState
			if json.Unmarshal(e.l.State, &en) == nil && en.Done {
				p.enum.done = true
			}
		}
	}
	return p.enum.res
}

// ended notes that p's process is gone; its second process goes with the group.
func (s *scheduler) ended(p *proc, err error) {
	p.exited = true
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	if !p.ready {
		s.boots++
	}
	if s.w == p {
		s.w = nil
	}
}

// run tests the pairs and returns them in the order given.
func (s *scheduler) run(gpus int, peers []peerInfo) []facts.TestPair {
	for i, pi := range peers {
		s.slots = append(s.slots, &slot{id: i, info: pi, state: "pending",
			pair: facts.TestPair{Src: pi.From, Dst: pi.To, CanAccessPeer: pi.Can, Attributes: pi.Attrs, Paths: []facts.TestPath{}}})
		if pi.Error != "" {
			s.notes = append(s.notes, fmt.Sprintf("GPU%d->GPU%d: %s", pi.From, pi.To, pi.Error))
		}
	}
	busy := make([]bool, gpus)
	left, timeouts := len(s.slots), 0

	finish := func(sl *slot, res result) {
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
		sl.state = "done"
		if sl.timer != nil {
			sl.timer.Stop()
		}
		busy[pr.Src], busy[pr.Dst] = false, false
		left--
		s.tracef("GPU%d->GPU%d done in %.3f s", pr.Src, pr.Dst, time.Since(sl.began).Seconds())
		fmt.Fprintf(s.o.Progress, "p2p-probe: %s %s\n", name, progress(*pr))
	}
	// requeue puts a pair its worker took with it back in line.
	requeue := func(sl *slot, suspect bool) {
		if sl.timer != nil {
			sl.timer.Stop()
		}
		sl.state, sl.suspect = "pending", sl.suspect || suspect
		sl.pair.Paths = []facts.TestPath{}
		busy[sl.info.From], busy[sl.info.To] = false, false
		s.tracef("GPU%d->GPU%d back in line", sl.info.From, sl.info.To)
	}

	for left > 0 {
		if timeouts >= maxTimeouts {
			// A machine where copies hang usually hangs them all.
			for _, sl := range s.slots {
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
		if s.w == nil && s.boots < 2 && timeouts < maxTimeouts {
			s.start(false)
		}
		if s.w == nil {
			// Workers that die before they are ready would die again.
			for _, sl := range s.slots {
				if sl.state == "pending" {
					sl.state = "done"
					sl.pair.Status = "failed"
					sl.pair.Reason = fmt.Sprintf("GPU%d->GPU%d: no worker process could start", sl.info.From, sl.info.To)
					left--
				}
			}
			break
		}
		s.dispatch(busy)
		e := <-s.events
		p := e.p
		switch {
		case e.slot != nil:
			sl := e.slot
			if sl.state == "running" && e.gen == sl.gen && p.held[sl] && !p.exited {
				sl.timedOut = true
				if p.killedBy == nil {
					p.killedBy = sl
				}
				syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			}
		case e.exited:
			s.ended(p, e.err)
			stderr := strings.TrimSpace(p.stderr.String())
			alone := len(p.held) == 1
			for sl := range p.held {
				s.release(sl)
				res := result{step: sl.step, state: sl.last, timedOut: sl.timedOut, err: e.err, stderr: stderr}
				var ps pairState
				json.Unmarshal(sl.last, &ps)
				switch {
				case sl.timedOut, ps.Done:
					finish(sl, res)
				case p.killedBy != nil:
					requeue(sl, false) // killed for another pair's deadline
				case alone:
					finish(sl, res) // it died with this pair alone
				default:
					requeue(sl, true)
				}
			}
			p.held = map[*slot]bool{}
		case e.l == nil:
		case e.l.Ready:
			p.ready = true
			s.tracef("worker %d ready", p.n)
		case e.l.ID < 0 || e.l.ID >= len(s.slots) || !p.held[s.slots[e.l.ID]]:
			// About no pair this worker holds: nothing waits for it.
		default:
			sl := s.slots[e.l.ID]
			switch {
			case e.l.Clock == "want":
				if sl.paused {
					sl.paused = false // what was left stays in left
				} else {
					sl.left = time.Until(sl.due)
					sl.timer.Stop()
				}
				s.queue = append(s.queue, sl)
				s.grant()
			case e.l.Clock == "done":
				s.release(sl)
			case e.l.Step != "":
				sl.step = e.l.Step
			case e.l.State != nil:
				sl.last = e.l.State
				var ps pairState
				if json.Unmarshal(e.l.State, &ps) == nil && ps.Done {
					delete(p.held, sl)
					s.release(sl)
					finish(sl, result{step: sl.step, state: sl.last})
				}
			}
		}
	}
	pairs := make([]facts.TestPair, len(s.slots))
	for i, sl := range s.slots {
		pairs[i] = sl.pair
	}
	return pairs
}

// dispatch sends the worker pending pairs whose GPUs are free, up to jobs at
// once; a suspect goes alone.
func (s *scheduler) dispatch(busy []bool) {
	p := s.w
	if p == nil || !p.ready || p.exited {
		return
	}
	for sl := range p.held {
		if sl.suspect {
			return
		}
	}
	for _, sl := range s.slots {
		if len(p.held) >= s.jobs {
			return
		}
		a, b := sl.info.From, sl.info.To
		if sl.state != "pending" || busy[a] || busy[b] || sl.suspect && len(p.held) > 0 {
			continue
		}
		sl.state, busy[a], busy[b] = "running", true, true
		p.held[sl] = true
		sl.gen++
		sl.step, sl.last, sl.timedOut, sl.began = "", nil, false, time.Now()
		gen := sl.gen
		sl.due = time.Now().Add(s.o.Timeout)
		sl.timer = time.AfterFunc(s.o.Timeout, func() { s.send(event{p: p, slot: sl, gen: gen}) })
		sl.paused = false
		if s.clock != nil {
			s.pause(p, s.clock)
		}
		s.tracef("worker %d: GPU%d->GPU%d", p.n, a, b)
		s.order(p, order{ID: sl.id, Job: &job{Size: s.o.Size, Seed: s.o.Seed, From: a, To: b, Peer: sl.info.Can != nil && *sl.info.Can}})
		if sl.suspect {
			return
		}
	}
}

// grant gives the clock to the first pair waiting, whose deadline runs again.
func (s *scheduler) grant() {
	if s.clock != nil || len(s.queue) == 0 || s.w == nil {
		return
	}
	sl := s.queue[0]
	s.queue = s.queue[1:]
	s.clock = sl
	gen := sl.gen
	p := s.w
	sl.due = time.Now().Add(sl.left)
	sl.timer = time.AfterFunc(sl.left, func() { s.send(event{p: p, slot: sl, gen: gen}) })
	s.pause(p, sl)
	s.order(p, order{ID: sl.id, Clock: true})
}

// release takes the clock, or its place in the queue, from sl.
func (s *scheduler) release(sl *slot) {
	for i, q := range s.queue {
		if q == sl {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			break
		}
	}
	if s.clock == sl {
		s.clock = nil
		s.resume()
		s.grant()
	}
}

// pause stops the deadlines of the pairs beside the one that has the clock:
// while its copies are timed, their GPU work waits (worker.gpu), and a pair
// that hangs holding the clock must not take them with it.
func (s *scheduler) pause(p *proc, holder *slot) {
	for sl := range p.held {
		if sl == holder || sl.paused || sl.timer == nil || s.queued(sl) {
			continue
		}
		sl.left = time.Until(sl.due)
		sl.timer.Stop()
		sl.paused = true
	}
}

// resume starts the paused deadlines again, with what was left of them.
func (s *scheduler) resume() {
	for _, sl := range s.slots {
		if !sl.paused || s.queued(sl) {
			continue
		}
		sl.paused = false
		if sl.state != "running" {
			continue
		}
		gen, p := sl.gen, s.w
		sl.due = time.Now().Add(sl.left)
		sl.timer = time.AfterFunc(sl.left, func() { s.send(event{p: p, slot: sl, gen: gen}) })
	}
}

func (s *scheduler) queued(sl *slot) bool {
	for _, q := range s.queue {
		if q == sl {
			return true
		}
	}
	return false
}

// stop ends every worker and its second process and waits until they are
// gone: their results are in, and a context's teardown needs no care.
func (s *scheduler) stop() {
	alive := 0
	for _, p := range s.all {
		if !p.exited {
			p.in.Close()
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			alive++
		}
	}
	for alive > 0 {
		if e := <-s.events; e.exited {
			s.ended(e.p, e.err)
			alive--
		}
	}
	close(s.quit)
}

// tracef traces to Options.Trace, or to TraceEnv's file.
func (s *scheduler) tracef(format string, args ...any) {
	name := s.o.Trace
	if name == "" {
		name = os.Getenv(TraceEnv)
	}
	traceTo(name, format, args...)
}
