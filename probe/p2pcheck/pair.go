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

type pairRun struct {
	d        Driver
	j        job
	out      *emitter
	st       *pairState
	step     string
	a, b     cuda.Ptr // source on From, destination on To
	a2, b2   cuda.Ptr // the reverse direction's, for bidirectional figures
	tf, tt   *timer   // streams of From and To
	host     []byte   // the pattern sent
	hostSeed uint32   // the seed host holds
	back     []byte   // what arrived
	ipc      *net.UnixConn
	ipcCmd   *exec.Cmd
	reverse  error // enabling To's access to From
	peerDone bool
}

func (r *pairRun) at(s string) { r.step = s; r.out.step(s) }

func (r *pairRun) name() string { return fmt.Sprintf("GPU%d->GPU%d", r.j.From, r.j.To) }

func runPair(d Driver, j job, out *emitter) {
	st := &pairState{Pair: facts.TestPair{Src: j.From, Dst: j.To, Paths: []facts.TestPath{}}}
	r := &pairRun{d: d, j: j, out: out, st: st}
	defer func() {
		// The result goes out first: ending the second process and this
		// one (freeing their GPU memory) takes time the deadline may not give.
		st.Done = true
		out.state(st)
		r.closeIPC()
	}()
	if err := r.run(); err != nil {
		st.Pair.Status, st.Pair.Step = "failed", r.step
		st.Pair.Reason = fmt.Sprintf("%s: %s: %v", r.name(), r.step, err)
	}
}

func (r *pairRun) run() error {
	d, n, from, to := r.d, r.j.Size, r.j.From, r.j.To
	p := &r.st.Pair
	r.at("setup")
	var err error
	if err = d.Use(from); err != nil {
		return err
	}
	if r.a, err = d.Alloc(n); err != nil {
		return err
	}
	if r.b2, err = d.Alloc(n); err != nil {
		return err
	}
	if r.tf, err = newTimer(d); err != nil {
		return err
	}
	if err = d.Use(to); err != nil {
		return err
	}
	if r.b, err = d.Alloc(n); err != nil {
		return err
	}
	if r.a2, err = d.Alloc(n); err != nil {
		return err
	}
	if r.tt, err = newTimer(d); err != nil {
		return err
	}
	if r.host, err = d.HostAlloc(n); err != nil {
		return err
	}
	if r.back, err = d.HostAlloc(n); err != nil {
		return err
	}

	// Peer access is off in a fresh process: this copy goes through host memory.
	r.at(PathStaged)
	r.addPath(r.copyPath(PathStaged))
	r.at("bandwidth with peer access off")
	bw, lat := &facts.Bandwidth{}, &facts.Latency{}
	if bw.P2POff, bw.BidirP2POff, lat.P2POff, err = r.figures(true); err != nil {
		return err
	}
	p.Bandwidth, p.LatencyUS = bw, lat
	r.out.state(r.st)
	if !r.j.Peer {
		return nil // the pair's reason says why
	}

	r.at("enable peer access")
	if err = d.Use(from); err != nil {
		return err
	}
	p.Enable = "OK"
	if err := d.EnablePeerAccess(to); err != nil {
		p.Enable = cuda.ErrorName(err)
	}
	if err = d.Use(to); err != nil {
		return err
	}
	if r.reverse = d.EnablePeerAccess(from); r.reverse != nil {
		r.note("GPU%d->GPU%d: cuCtxEnablePeerAccess: %s: no bidirectional figure with peer access on", to, from, cuda.ErrorName(r.reverse))
	}
	if p.Enable == "OK" {
		r.at(PathPeer)
		r.addPath(r.copyPath(PathPeer))
		r.at("bandwidth with peer access on")
		if bw.P2POn, bw.BidirP2POn, lat.P2POn, err = r.figures(r.reverse == nil); err != nil {
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
		if err := d.Use(r.j.To); err != nil {
			return err
		}
		if err := d.MemsetD32(r.b, 0, n/4); err != nil {
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
	if r.hostSeed != seed {
		fill(r.host, seed)
		r.hostSeed = seed
	}
}

// verify reads n bytes at p on To back and compares them with the pattern of seed.
func (r *pairRun) verify(res facts.TestPath, p cuda.Ptr, seed uint32) facts.TestPath {
	r.pattern(seed)
	if err := r.d.Use(r.j.To); err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	if err := r.d.DtoH(r.back, p); err != nil {
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
// socket pair as its descriptor 3, its stdout shared with this one's.
func (r *pairRun) startIPC() error {
	if r.ipc != nil {
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
	cmd.Stdout, cmd.Stderr = r.out.w, os.Stderr
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
	r.ipc, r.ipcCmd = c.(*net.UnixConn), cmd
	return nil
}

func (r *pairRun) closeIPC() {
	if r.ipc == nil {
		return
	}
	r.ipc.Close()
	r.ipcCmd.Wait()
	r.ipc = nil
}

// ask sends a request (and a descriptor when fd >= 0) and waits for the reply.
func (r *pairRun) ask(req ipcRequest, fd int) error {
	if err := r.startIPC(); err != nil {
		return err
	}
	msg, _ := json.Marshal(req)
	var oob []byte
	if fd >= 0 {
		oob = syscall.UnixRights(fd)
	}
	if _, _, err := r.ipc.WriteMsgUnix(msg, oob, nil); err != nil {
		return fmt.Errorf("send to the second process: %w", err)
	}
	buf := make([]byte, 4096)
	n, _, _, _, err := r.ipc.ReadMsgUnix(buf, nil)
	if err != nil || n == 0 {
		return fmt.Errorf("the second process did not answer: %v", orEOF(err))
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
		if err := r.d.Use(r.j.To); err != nil {
			return err
		}
		if err := r.d.MemsetD32(r.b, 0, r.j.Size/4); err != nil {
			return err
		}
		h, err := r.d.IpcHandle(r.b)
		if err != nil {
			return err
		}
		return r.ask(ipcRequest{Path: PathIPCLegacy, Dev: r.j.From, Size: r.j.Size, Bytes: r.j.Size, Seed: seed, Handle: h[:]}, -1)
	}()
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	return r.verify(res, r.b, seed)
}

// ipcCuMem: To's memory is made with cuMemCreate and exported as a POSIX
// descriptor, which the second process imports, maps for From and writes.
func (r *pairRun) ipcCuMem() facts.TestPath {
	res := facts.TestPath{Path: PathIPCCuMem, Bytes: r.j.Size}
	seed := seedFor(r.j.Seed, r.j.From, r.j.To, PathIPCCuMem)
	var sh cuda.Shared
	err := func() error {
		if err := r.d.Use(r.j.To); err != nil {
			return err
		}
		var err error
		if sh, err = r.d.Export(r.j.To, r.j.Size); err != nil {
			return err
		}
		defer syscall.Close(sh.FD)
		if err := r.d.MemsetD32(sh.Ptr, 0, r.j.Size/4); err != nil {
			return err
		}
		return r.ask(ipcRequest{Path: PathIPCCuMem, Dev: r.j.From, Size: sh.Size, Bytes: r.j.Size, Seed: seed}, sh.FD)
	}()
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	return r.verify(res, sh.Ptr, seed)
}

// runIPC is the second process: it answers requests on descriptor 3 until
// the pair's process closes the socket.
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
			if err := serveIPC(d, req, fd, out); err != nil {
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

func serveIPC(d Driver, req ipcRequest, fd int, out *emitter) error {
	at := func(s string) { out.step(req.Path + ": " + s) }
	at("second process: setup")
	if err := d.Use(req.Dev); err != nil {
		return err
	}
	src, err := d.Alloc(req.Bytes)
	if err != nil {
		return err
	}
	host, err := d.HostAlloc(req.Bytes)
	if err != nil {
		return err
	}
	fill(host, req.Seed)
	if err := d.HtoD(src, host); err != nil {
		return err
	}
	s, err := d.NewStream()
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
		dst = sh.Ptr
	default:
		return fmt.Errorf("unknown path %q", req.Path)
	}
	at("second process: copy")
	if err := d.CopyAsync(dst, src, req.Bytes, s); err != nil {
		return err
	}
	return d.StreamSync(s)
}
