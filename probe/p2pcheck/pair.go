package p2pcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"github.com/p2pkb/p2pkb/probe/cuda"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// pairState is what a pair's child found so far.
type pairState struct {
	Error string         `json:"error,omitempty"` // the driver could not be loaded or started
	Pair  facts.TestPair `json:"pair"`
	Notes []string       `json:"notes,omitempty"`
	Done  bool           `json:"done"`
}

// worker is the long-lived child: it keeps its CUDA contexts, buffers and
// second process from one pair to the next, and tests several pairs that
// share no GPU at once, each on its own OS thread with its own current
// context. Making a context takes a lock of the driver that every process
// on the machine shares (0.1 to 0.6 s each on H200s), so one process with a
// context per GPU starts far sooner than several.
type worker struct {
	d      Driver
	out    *emitter
	size   int64
	mu     sync.Mutex            // guards the fields below
	bufs   map[int][2]cuda.Ptr   // two buffers of size on each device, made when first needed
	export map[int]cuda.Shared   // cuMem memory on each device for ipc_cumem
	hosts  [][2][]byte           // free pairs of host buffers: the pattern sent, what arrived
	clocks map[int]chan struct{} // a pair's leave to time its copies
	// gpu keeps other pairs' copies off the GPUs while a pair is timed:
	// timed copies hold it alone, all other GPU work shares it.
	gpu    sync.RWMutex
	ipcMu  sync.Mutex // one request to the second process at a time
	ipc    *net.UnixConn
	ipcCmd *exec.Cmd
	booted bool // the second process said it has its contexts
}

// runWorker boots (the second process, every device's context, and, for
// the first worker of a run, the GPUs' listing and figures), says it is
// ready, then starts each pair it is sent on a thread of its own, until
// its stdin closes.
func runWorker(d Driver, initErr error, in *json.Decoder, out *emitter) int {
	var boot order
	if err := in.Decode(&boot); err != nil || boot.Boot == nil {
		fmt.Fprintf(os.Stderr, "p2p-probe worker: bad boot order: %v\n", err)
		return 1
	}
	w := &worker{d: d, out: out, size: boot.Boot.Size,
		bufs: map[int][2]cuda.Ptr{}, export: map[int]cuda.Shared{}, clocks: map[int]chan struct{}{}}
	defer w.closeIPC()
	if initErr == nil {
		// The second process starts first, so that its start overlaps this one's.
		out.step("worker: start the second process")
		initErr = w.startIPC()
	}
	if initErr == nil {
		out.step("worker: cuDevicePrimaryCtxRetain")
		if n, err := d.Count(); err == nil {
			d.Retain(upTo(n)) // a context that fails here fails again in its pairs
		}
		// The GPUs are measured alone once the second process has its
		// contexts (making them slows host copies by some percent).
		out.step("worker: wait for the second process")
		w.ipcMu.Lock()
		w.awaitIPC()
		w.ipcMu.Unlock()
	}
	if boot.Boot.Enum {
		runEnum(d, initErr, *boot.Boot, out)
	}
	out.write(line{Ready: true})
	for {
		var o order
		if err := in.Decode(&o); err != nil {
			return 0 // the parent closed stdin: it has what it needs
		}
		switch {
		case o.Clock:
			w.mu.Lock()
			ch := w.clocks[o.ID]
			w.mu.Unlock()
			if ch != nil {
				ch <- struct{}{}
			}
		case o.Job != nil && initErr != nil:
			out.about(o.ID).state(pairState{Error: initErr.Error(), Done: true})
		case o.Job != nil:
			ch := make(chan struct{}, 1)
			w.mu.Lock()
			w.clocks[o.ID] = ch
			w.mu.Unlock()
			go func(id int, j job) {
				// The driver's current context belongs to the thread.
				runtime.LockOSThread()
				w.runPair(id, j, ch)
			}(o.ID, *o.Job)
		}
	}
}

// buffers is dev's two buffers, made the first time.
func (w *worker) buffers(dev int) ([2]cuda.Ptr, error) {
	w.mu.Lock()
	b, ok := w.bufs[dev]
	w.mu.Unlock()
	if ok {
		return b, nil
	}
	if err := w.d.Use(dev); err != nil {
		return b, err
	}
	for i := range b {
		var err error
		if b[i], err = w.d.Alloc(w.size); err != nil {
			return b, err
		}
	}
	w.mu.Lock()
	w.bufs[dev] = b
	w.mu.Unlock()
	return b, nil
}

// hostBuffers takes a free pair of host buffers, or makes one.
func (w *worker) hostBuffers() ([2][]byte, error) {
	w.mu.Lock()
	if n := len(w.hosts); n > 0 {
		h := w.hosts[n-1]
		w.hosts = w.hosts[:n-1]
		w.mu.Unlock()
		return h, nil
	}
	w.mu.Unlock()
	var h [2][]byte
	for i := range h {
		var err error
		if h[i], err = w.d.HostAlloc(w.size); err != nil {
			return h, err
		}
	}
	return h, nil
}

func (w *worker) putHost(h [2][]byte) {
	w.mu.Lock()
	w.hosts = append(w.hosts, h)
	w.mu.Unlock()
}

// pairRun is one pair's test in a worker, on a thread of its own.
type pairRun struct {
	*worker
	id      int
	out     *emitter // lines about this pair
	clock   chan struct{}
	d       Driver
	j       job
	st      *pairState
	step    string
	a, b    cuda.Ptr // source on From, destination on To
	a2, b2  cuda.Ptr // the reverse direction's, for bidirectional figures
	tf, tt  *timer   // streams of From and To
	host    []byte   // the pattern sent
	seed    uint32   // the pattern host holds; 0 for none
	back    []byte   // what arrived
	enabled [][2]int // peer access this pair turned on: from, to
	reverse error    // enabling To's access to From
}

func (r *pairRun) at(s string) { r.step = s; r.out.step(s) }

func (r *pairRun) name() string { return fmt.Sprintf("GPU%d->GPU%d", r.j.From, r.j.To) }

func (w *worker) runPair(id int, j job, clock chan struct{}) {
	st := &pairState{Pair: facts.TestPair{Src: j.From, Dst: j.To, Paths: []facts.TestPath{}}}
	r := &pairRun{worker: w, id: id, out: w.out.about(id), clock: clock, d: w.d, j: j, st: st}
	defer func() {
		st.Done = true
		r.out.state(st)
	}()
	err := r.run()
	// Later pairs in this process must find peer access off again.
	if derr := r.disable(); err == nil && derr != nil {
		err = derr
	}
	if r.host != nil {
		w.putHost([2][]byte{r.host, r.back})
	}
	if err != nil {
		st.Pair.Status, st.Pair.Step = "failed", r.step
		st.Pair.Reason = fmt.Sprintf("%s: %s: %v", r.name(), r.step, err)
	}
}

// waitClock asks the parent for the right to time copies and waits for it:
// figures are taken one pair at a time, so pairs that run together never
// share the host's memory or links while being timed.
func (r *pairRun) waitClock() {
	r.out.write(line{Clock: "want"})
	<-r.clock
}

func (r *pairRun) unclock() { r.out.write(line{Clock: "done"}) }

// disable turns off the peer access this pair turned on.
func (r *pairRun) disable() error {
	r.gpu.RLock()
	defer r.gpu.RUnlock()
	for _, e := range r.enabled {
		r.at(fmt.Sprintf("disable peer access GPU%d->GPU%d", e[0], e[1]))
		if err := r.d.Use(e[0]); err != nil {
			return err
		}
		if err := r.d.DisablePeerAccess(e[1]); err != nil {
			return err
		}
	}
	r.enabled = nil
	return nil
}

// setup takes the pair's buffers, streams and host memory.
func (r *pairRun) setup() error {
	d, from, to := r.d, r.j.From, r.j.To
	r.gpu.RLock()
	defer r.gpu.RUnlock()
	src, err := r.buffers(from)
	if err != nil {
		return err
	}
	dst, err := r.buffers(to)
	if err != nil {
		return err
	}
	r.a, r.b2, r.b, r.a2 = src[0], src[1], dst[0], dst[1]
	// Fresh streams and events: each pair's figures start from idle streams.
	if err := d.Use(to); err != nil {
		return err
	}
	if r.tt, err = newTimer(d); err != nil {
		return err
	}
	if err := d.Use(from); err != nil {
		return err
	}
	if r.tf, err = newTimer(d); err != nil {
		return err
	}
	h, err := r.hostBuffers()
	if err != nil {
		return err
	}
	r.host, r.back = h[0], h[1]
	return nil
}

func (r *pairRun) run() error {
	p := &r.st.Pair
	r.at("setup")
	if err := r.setup(); err != nil {
		return err
	}

	// Peer access is off: no pair before this one in the process left it on.
	r.at(PathStaged)
	r.addPath(r.copyPath(PathStaged))
	r.at("bandwidth with peer access off")
	bw, lat := &facts.Bandwidth{}, &facts.Latency{}
	var err error
	if bw.P2POff, bw.BidirP2POff, lat.P2POff, err = r.timed(true); err != nil {
		return err
	}
	p.Bandwidth, p.LatencyUS = bw, lat
	r.out.state(r.st)
	if !r.j.Peer {
		return nil // the pair's reason says why
	}

	r.at("enable peer access")
	if err := r.enable(); err != nil {
		return err
	}
	if p.Enable == "OK" {
		r.at(PathPeer)
		r.addPath(r.copyPath(PathPeer))
		r.at("bandwidth with peer access on")
		if bw.P2POn, bw.BidirP2POn, lat.P2POn, err = r.timed(r.reverse == nil); err != nil {
			return err
		}
	} else {
		r.addPath(facts.TestPath{Path: PathPeer, Status: "skipped", Error: "cuCtxEnablePeerAccess: " + p.Enable})
	}
	r.out.state(r.st)

	r.at(PathIPCLegacy)
	r.addPath(r.ipcLegacy())
	r.at(PathIPCCuMem)
	r.addPath(r.ipcCuMem())
	return nil
}

// enable turns on peer access both ways; the pair's Enable says how From's went.
func (r *pairRun) enable() error {
	d, from, to, p := r.d, r.j.From, r.j.To, &r.st.Pair
	r.gpu.RLock()
	defer r.gpu.RUnlock()
	if err := d.Use(from); err != nil {
		return err
	}
	p.Enable = "OK"
	if err := d.EnablePeerAccess(to); err != nil {
		p.Enable = cuda.ErrorName(err)
	} else {
		r.enabled = append(r.enabled, [2]int{from, to})
	}
	if err := d.Use(to); err != nil {
		return err
	}
	if r.reverse = d.EnablePeerAccess(from); r.reverse != nil {
		r.note("GPU%d->GPU%d: cuCtxEnablePeerAccess: %s: no bidirectional figure with peer access on", to, from, cuda.ErrorName(r.reverse))
	} else {
		r.enabled = append(r.enabled, [2]int{to, from})
	}
	return nil
}

// timed is figures under the parent's clock.
func (r *pairRun) timed(bidir bool) (uni, both, latency float64, err error) {
	r.waitClock()
	r.gpu.Lock()
	defer func() {
		r.gpu.Unlock()
		r.unclock()
	}()
	return r.figures(bidir)
}

func (r *pairRun) note(format string, args ...any) {
	r.st.Notes = append(r.st.Notes, fmt.Sprintf(format, args...))
}

func (r *pairRun) addPath(p facts.TestPath) {
	r.st.Pair.Paths = append(r.st.Pair.Paths, p)
	r.out.state(r.st)
}

// copyPath sends the pattern from From to To with cuMemcpyPeerAsync and checks it.
func (r *pairRun) copyPath(path string) facts.TestPath {
	d, n := r.d, r.j.Size
	res := facts.TestPath{Path: path, Bytes: n}
	seed := seedFor(r.j.Seed, r.j.From, r.j.To, path)
	r.pattern(seed)
	err := func() error {
		r.gpu.RLock()
		defer r.gpu.RUnlock()
		if err := d.Use(r.j.To); err != nil {
			return err
		}
		if err := d.MemsetD32(r.b, 0, n/4); err != nil {
			return err
		}
		if err := d.Sync(); err != nil {
			return err
		}
		if err := d.Use(r.j.From); err != nil {
			return err
		}
		if err := d.HtoD(r.a, r.host); err != nil {
			return err
		}
		if err := d.CopyPeerAsync(r.b, r.j.To, r.a, r.j.From, n, r.tf.s); err != nil {
			return err
		}
		return d.StreamSync(r.tf.s)
	}()
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	return r.verify(res, r.b, seed)
}

// pattern puts the pattern of seed into host, unless it is there already.
func (r *pairRun) pattern(seed uint32) {
	if r.seed != seed {
		fill(r.host, seed)
		r.seed = seed
	}
}

// verify reads n bytes at p on To back and compares them with the pattern of seed.
func (r *pairRun) verify(res facts.TestPath, p cuda.Ptr, seed uint32) facts.TestPath {
	r.pattern(seed)
	err := func() error {
		r.gpu.RLock()
		defer r.gpu.RUnlock()
		if err := r.d.Use(r.j.To); err != nil {
			return err
		}
		return r.d.DtoH(r.back, p)
	}()
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	res.WrongWords, res.FirstMismatch = compare(r.back, r.host)
	res.Status = "ok"
	if res.WrongWords > 0 {
		res.Status = "mismatch"
	}
	return res
}

// figures times From->To copies alone, both directions at once (when both
// can), and one 4-byte copy.
func (r *pairRun) figures(bidir bool) (uni, both, latency float64, err error) {
	d, n, from, to := r.d, r.j.Size, r.j.From, r.j.To
	k := reps(n)
	if err = d.Use(from); err != nil {
		return
	}
	ms, err := r.tf.ms(k, func() error { return d.CopyPeerAsync(r.b, to, r.a, from, n, r.tf.s) })
	if err != nil {
		return
	}
	uni = gbps(k, n, ms)
	if bidir {
		// From's stream starts the clock; To's waits for it, and From's
		// stops it only after To's copies are done too.
		if err = d.Record(r.tf.start, r.tf.s); err != nil {
			return
		}
		if err = d.Use(to); err != nil {
			return
		}
		if err = d.Wait(r.tt.s, r.tf.start); err != nil {
			return
		}
		for i := 0; i < k; i++ {
			if err = d.CopyPeerAsync(r.b2, from, r.a2, to, n, r.tt.s); err != nil {
				return
			}
		}
		if err = d.Record(r.tt.stop, r.tt.s); err != nil {
			return
		}
		if err = d.Use(from); err != nil {
			return
		}
		for i := 0; i < k; i++ {
			if err = d.CopyPeerAsync(r.b, to, r.a, from, n, r.tf.s); err != nil {
				return
			}
		}
		if err = d.Wait(r.tf.s, r.tt.stop); err != nil {
			return
		}
		if err = d.Record(r.tf.stop, r.tf.s); err != nil {
			return
		}
		if err = d.StreamSync(r.tf.s); err != nil {
			return
		}
		if ms, err = d.Elapsed(r.tf.start, r.tf.stop); err != nil {
			return
		}
		both = gbps(2*k, n, ms)
	}
	ms, err = r.tf.ms(latencyReps, func() error { return d.CopyPeerAsync(r.b, to, r.a, from, 4, r.tf.s) })
	if err != nil {
		return
	}
	latency = math.Round(ms*1000/latencyReps*100) / 100
	return uni, both, latency, nil
}

// ipcRequest asks the second process to write a pattern into memory of To.
type ipcRequest struct {
	ID     int    `json:"id"` // the pair, for the step lines
	Path   string `json:"path"`
	Dev    int    `json:"dev"`    // the device it writes from
	Size   int64  `json:"size"`   // the size of the memory it opens
	Bytes  int64  `json:"bytes"`  // how much it writes
	Seed   uint32 `json:"seed"`   // the pattern
	Handle []byte `json:"handle"` // the legacy IPC handle; the cuMem descriptor travels beside the message
}

type ipcReply struct {
	Error string `json:"error,omitempty"`
}

// startIPC starts the second process: the probe again, one end of a
// socket pair as its descriptor 3, its stdout shared with this one's. It
// serves every pair of this worker; if it dies, the next request starts
// another.
func (w *worker) startIPC() error {
	if w.ipc != nil {
		return nil
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socketpair: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "ipc"), os.NewFile(uintptr(fds[1]), "ipc")
	defer theirs.Close()
	defer mine.Close()
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = append(os.Environ(), RoleEnv+"=ipc")
	cmd.Stdout, cmd.Stderr = w.out.w, os.Stderr // whole short lines: see emitter
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the second process: %w", err)
	}
	c, err := net.FileConn(mine)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return fmt.Errorf("socket: %w", err)
	}
	w.ipc, w.ipcCmd, w.booted = c.(*net.UnixConn), cmd, false
	return nil
}

// closeIPC ends the second process; one that does not answer is killed.
func (w *worker) closeIPC() {
	if w.ipc == nil {
		return
	}
	w.ipc.Close()
	w.ipcCmd.Process.Kill()
	w.ipcCmd.Wait()
	w.ipc = nil
}

// awaitIPC reads the second process's first message, which says that it
// has made its contexts. The caller holds ipcMu.
func (w *worker) awaitIPC() error {
	if w.booted || w.ipc == nil {
		return nil
	}
	buf := make([]byte, 4096)
	if _, _, _, _, err := w.ipc.ReadMsgUnix(buf, nil); err != nil {
		w.closeIPC()
		return fmt.Errorf("the second process did not start: %w", err)
	}
	w.booted = true
	return nil
}

// ask sends a request (and a descriptor when fd >= 0) for pair id and
// waits for the reply.
func (w *worker) ask(id int, req ipcRequest, fd int) error {
	w.ipcMu.Lock()
	defer w.ipcMu.Unlock()
	if err := w.startIPC(); err != nil {
		return err
	}
	if err := w.awaitIPC(); err != nil {
		return err
	}
	req.ID = id
	msg, _ := json.Marshal(req)
	var oob []byte
	if fd >= 0 {
		oob = syscall.UnixRights(fd)
	}
	if _, _, err := w.ipc.WriteMsgUnix(msg, oob, nil); err != nil {
		w.closeIPC()
		return fmt.Errorf("send to the second process: %w", err)
	}
	buf := make([]byte, 4096)
	n, _, _, _, err := w.ipc.ReadMsgUnix(buf, nil)
	if err != nil || n == 0 {
		state := ""
		w.closeIPC()
		if ps := w.ipcCmd.ProcessState; ps != nil && !ps.Success() {
			state = " (" + ps.String() + ")"
		}
		return fmt.Errorf("the second process did not answer: %v%s", orEOF(err), state)
	}
	var rep ipcReply
	if err := json.Unmarshal(buf[:n], &rep); err != nil {
		return fmt.Errorf("the second process answered %q: %w", buf[:n], err)
	}
	if rep.Error != "" {
		return errors.New(rep.Error)
	}
	return nil
}

func orEOF(err error) error {
	if err == nil {
		return io.EOF
	}
	return err
}

// ipcLegacy: the second process opens To's buffer with cuIpcOpenMemHandle
// on From and copies the pattern into it.
func (r *pairRun) ipcLegacy() facts.TestPath {
	res := facts.TestPath{Path: PathIPCLegacy, Bytes: r.j.Size}
	seed := seedFor(r.j.Seed, r.j.From, r.j.To, PathIPCLegacy)
	err := func() error {
		r.gpu.RLock()
		defer r.gpu.RUnlock()
		if err := r.d.Use(r.j.To); err != nil {
			return err
		}
		if err := r.d.MemsetD32(r.b, 0, r.j.Size/4); err != nil {
			return err
		}
		if err := r.d.Sync(); err != nil {
			return err
		}
		h, err := r.d.IpcHandle(r.b)
		if err != nil {
			return err
		}
		return r.ask(r.id, ipcRequest{Path: PathIPCLegacy, Dev: r.j.From, Size: r.j.Size, Bytes: r.j.Size, Seed: seed, Handle: h[:]}, -1)
	}()
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	return r.verify(res, r.b, seed)
}

// exportOn is cuMem memory on dev exported as a POSIX descriptor, made the
// first time; the second process imports it anew for every pair.
func (w *worker) exportOn(dev int) (cuda.Shared, error) {
	w.mu.Lock()
	sh, ok := w.export[dev]
	w.mu.Unlock()
	if ok {
		return sh, nil
	}
	if err := w.d.Use(dev); err != nil {
		return cuda.Shared{}, err
	}
	sh, err := w.d.Export(dev, w.size)
	if err != nil {
		return sh, err
	}
	w.mu.Lock()
	w.export[dev] = sh
	w.mu.Unlock()
	return sh, nil
}

// ipcCuMem: To's memory is made with cuMemCreate and exported as a POSIX
// descriptor, which the second process imports, maps for From and writes.
func (r *pairRun) ipcCuMem() facts.TestPath {
	res := facts.TestPath{Path: PathIPCCuMem, Bytes: r.j.Size}
	seed := seedFor(r.j.Seed, r.j.From, r.j.To, PathIPCCuMem)
	var sh cuda.Shared
	err := func() error {
		r.gpu.RLock()
		defer r.gpu.RUnlock()
		var err error
		if sh, err = r.exportOn(r.j.To); err != nil {
			return err
		}
		if err := r.d.Use(r.j.To); err != nil {
			return err
		}
		if err := r.d.MemsetD32(sh.Ptr, 0, r.j.Size/4); err != nil {
			return err
		}
		if err := r.d.Sync(); err != nil {
			return err
		}
		return r.ask(r.id, ipcRequest{Path: PathIPCCuMem, Dev: r.j.From, Size: sh.Size, Bytes: r.j.Size, Seed: seed}, sh.FD)
	}()
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	return r.verify(res, sh.Ptr, seed)
}

// ipcServer is the second process's state: a source buffer on each device
// it writes from, and the host memory that fills them.
type ipcServer struct {
	d       Driver
	out     *emitter
	src     map[int]cuda.Ptr
	streams map[int]cuda.Stream
	host    []byte
	seed    uint32
}

// runIPC is the second process: it makes its contexts, then answers
// requests on descriptor 3 until the worker closes the socket.
func runIPC(d Driver, initErr error, out *emitter) int {
	f := os.NewFile(3, "ipc")
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "p2p-probe ipc: %v\n", err)
		return 1
	}
	conn := c.(*net.UnixConn)
	defer conn.Close()
	s := &ipcServer{d: d, out: out, src: map[int]cuda.Ptr{}, streams: map[int]cuda.Stream{}}
	if initErr == nil {
		// Every context now, while the worker makes its own.
		if n, err := d.Count(); err == nil {
			d.Retain(upTo(n))
		}
	}
	msg, _ := json.Marshal(ipcReply{}) // ready
	if _, _, err := conn.WriteMsgUnix(msg, nil, nil); err != nil {
		return 1
	}
	buf, oob := make([]byte, 4096), make([]byte, syscall.CmsgSpace(4))
	for {
		n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
		if err != nil || n == 0 {
			return 0
		}
		var req ipcRequest
		rep := ipcReply{}
		fd := -1
		if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) > 0 {
			if fds, err := syscall.ParseUnixRights(&msgs[0]); err == nil && len(fds) > 0 {
				fd = fds[0]
			}
		}
		switch {
		case initErr != nil:
			rep.Error = initErr.Error()
		case json.Unmarshal(buf[:n], &req) != nil:
			rep.Error = "bad request"
		default:
			out.id = req.ID
			if err := s.serve(req, fd); err != nil {
				rep.Error = err.Error()
			}
		}
		if fd >= 0 {
			syscall.Close(fd)
		}
		msg, _ := json.Marshal(rep)
		if _, _, err := conn.WriteMsgUnix(msg, nil, nil); err != nil {
			return 1
		}
	}
}

func (s *ipcServer) serve(req ipcRequest, fd int) error {
	d := s.d
	at := func(step string) { s.out.step(req.Path + ": " + step) }
	at("second process: setup")
	if err := d.Use(req.Dev); err != nil {
		return err
	}
	if s.host == nil || int64(len(s.host)) < req.Bytes {
		var err error
		if s.host, err = d.HostAlloc(req.Bytes); err != nil {
			return err
		}
		s.seed = 0
	}
	src, ok := s.src[req.Dev]
	if !ok {
		var err error
		if src, err = d.Alloc(req.Bytes); err != nil {
			return err
		}
		s.src[req.Dev] = src
	}
	host := s.host[:req.Bytes]
	if s.seed != req.Seed {
		fill(host, req.Seed)
		s.seed = req.Seed
	}
	if err := d.HtoD(src, host); err != nil {
		return err
	}
	st, err := s.stream(req.Dev)
	if err != nil {
		return err
	}
	var dst cuda.Ptr
	switch req.Path {
	case PathIPCLegacy:
		var h cuda.IpcHandle
		copy(h[:], req.Handle)
		at("second process: cuIpcOpenMemHandle")
		if dst, err = d.IpcOpen(h); err != nil {
			return err
		}
		defer d.IpcClose(dst)
	case PathIPCCuMem:
		if fd < 0 {
			return errors.New("no file descriptor arrived over the socket")
		}
		at("second process: cuMemImportFromShareableHandle")
		sh, err := d.Import(fd, req.Size, req.Dev)
		if err != nil {
			return err
		}
		defer d.Release(sh)
		dst = sh.Ptr
	default:
		return fmt.Errorf("unknown path %q", req.Path)
	}
	at("second process: copy")
	if err := d.CopyAsync(dst, src, req.Bytes, st); err != nil {
		return err
	}
	return d.StreamSync(st)
}

// stream is a stream of dev's context, made the first time.
func (s *ipcServer) stream(dev int) (cuda.Stream, error) {
	if st, ok := s.streams[dev]; ok {
		return st, nil
	}
	st, err := s.d.NewStream()
	if err != nil {
		return 0, err
	}
	s.streams[dev] = st
	return st, nil
}

// upTo is 0, 1, ..., n-1.
func upTo(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
