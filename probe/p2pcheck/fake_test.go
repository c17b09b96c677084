package p2pcheck

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/p2pkb/p2pkb/probe/cuda"
)

// scenario is a fake machine and the faults it injects. Child processes of
// the test binary read it from scenarioEnv.
type scenario struct {
	GPUs      int               `json:"gpus"`
	NoLibrary bool              `json:"no_library,omitempty"`
	NoPeer    []string          `json:"no_peer,omitempty"`    // pairs "0->1" cuDeviceCanAccessPeer refuses
	Refuse    map[string]string `json:"refuse,omitempty"`     // "0->1": cuCtxEnablePeerAccess's error name
	Corrupt   map[string]string `json:"corrupt,omitempty"`    // "0->1/peer_copy" or "0->1/*" (every P2P path): "zeros" or "flip"
	Hang      string            `json:"hang,omitempty"`       // "0->1" or "0->1/ipc_cumem": waiting for a P2P copy (of that path) never returns
	SlowExit  bool              `json:"slow_exit,omitempty"`  // the second process that wrote from GPU0 takes a minute to exit
	Crash     string            `json:"crash,omitempty"`      // "0->1": the process aborts in its first P2P copy, if that is from 0 to 1; "0->1/staged_copy": in its first copy of that kind from 0 to 1
	Crashes   int               `json:"crashes,omitempty"`    // with a crash of one kind of copy: how many times in the whole run, not once a process
	HangTimed string            `json:"hang_timed,omitempty"` // "0->1": the timed copies of 0->1 with peer access on never finish (the pair holds the clock)
	Latency   *latency          `json:"latency,omitempty"`    // real time that calls take; none when nil
	IPCOpen   string            `json:"ipc_open,omitempty"`   // cuIpcOpenMemHandle's error name
	PeerGBps  float64           `json:"peer_gbps,omitempty"`  // P2P bandwidth; 350 when 0
}

const scenarioEnv = "P2PTEST_SCENARIO"

// latency is how long driver calls take in real time, as the trace of a
// real machine read them (probe/testdata/real/*-trace.txt): the scheduling
// is then tried against the costs it was made for.
type latency struct {
	InitMS      float64 `json:"init_ms"`       // cuInit
	ContextMS   float64 `json:"context_ms"`    // each primary context, one after another in a process
	HostAllocMS float64 `json:"host_alloc_ms"` // cuMemHostAlloc of 64 MiB
	Copies      bool    `json:"copies"`        // copies take their modelled time
	CopyScale   float64 `json:"copy_scale"`    // copies cost as if this many times the size moved (0 for 1)
	StagedGBps  float64 `json:"staged_gbps"`   // the staged copies' bandwidth; fakeRates' when 0
}

// sleep waits ms milliseconds of real time.
func sleep(ms float64) { time.Sleep(time.Duration(ms * float64(time.Millisecond))) }

func openFake() (Driver, error) {
	var sc scenario
	if err := json.Unmarshal([]byte(os.Getenv(scenarioEnv)), &sc); err != nil {
		return nil, err
	}
	// Every process of the scenario leaves its id, so a test can check
	// that none outlives the run.
	if f, err := os.OpenFile(filepath.Join(os.TempDir(), "pids"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
	if sc.NoLibrary {
		return nil, errors.New("libcuda.so.1: cannot open shared object file: No such file or directory")
	}
	if sc.PeerGBps == 0 {
		sc.PeerGBps = 350
	}
	return &fake{sc: sc, cur: map[int]int{}, now: map[int]float64{}, mem: map[cuda.Ptr]*region{}, peer: map[[2]int]bool{}, next: 1 << 32}, nil
}

// fake is a CUDA driver whose device memory is shared files, so a second
// process can open it as CUDA IPC would, and whose clock advances by a
// fixed cost per copy, so figures are the same on every run.
type fake struct {
	mu      sync.Mutex // the worker tests pairs on several threads
	sc      scenario
	cur     map[int]int // by thread: each has its own current device, as in CUDA
	peer    map[[2]int]bool
	mem     map[cuda.Ptr]*region
	next    uint64
	streams []*fstream
	events  []float64
	now     map[int]float64 // by thread, microseconds it has waited for: a stream idle since is caught up to it
	// p2pCopies counts copies between devices other than staged ones.
	p2pCopies int
	crashSeen int
}

type region struct {
	dev  int
	data []byte
	file *os.File
	kind string // how this process reaches it: "" (its own), PathIPCLegacy, PathIPCCuMem
}

type fstream struct {
	clock  float64 // microseconds
	synced float64 // the clock at the last sync
	hang   bool
}

// tid is the calling thread; the worker's pair goroutines are locked to theirs.
func tid() int { return syscall.Gettid() }

func fakeErr(call, name string) error { return &cuda.Error{Call: call, Name: name} }

func (f *fake) Init() error {
	if l := f.sc.Latency; l != nil {
		sleep(l.InitMS)
	}
	return nil
}

func (f *fake) Version() (int, error)    { return 13000, nil }
func (f *fake) Count() (int, error)      { return f.sc.GPUs, nil }
func (f *fake) Name(int) (string, error) { return "NVIDIA H200", nil }
func (f *fake) PCIBusID(dev int) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fmt.Sprintf("0000:00:%02x.0", 6+dev), nil // as the two H200s of testdata/real read
}

func pairKey(a, b int) string { return fmt.Sprintf("%d->%d", a, b) }

func (f *fake) can(a, b int) bool {
	for _, p := range f.sc.NoPeer {
		if p == pairKey(a, b) || p == pairKey(b, a) {
			return false
		}
	}
	return true
}

func (f *fake) CanAccessPeer(a, b int) (bool, error) { return f.can(a, b), nil }

func (f *fake) P2PAttribute(attr, a, b int) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch attr {
	case cuda.AttrAccessSupported, cuda.AttrNativeAtomics, cuda.AttrArrayAccess: // as the real H200s answer
		if f.can(a, b) {
			return 1, nil
		}
	}
	return 0, nil
}

// exitDelay is how long the process waits before it exits, as freeing a
// large GPU context can take.
var exitDelay time.Duration

func (f *fake) Use(dev int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if dev < 0 || dev >= f.sc.GPUs {
		return fakeErr("cuDeviceGet", "CUDA_ERROR_INVALID_DEVICE")
	}
	if f.sc.SlowExit && dev == 0 && os.Getenv(RoleEnv) == "ipc" {
		exitDelay = time.Minute
	}
	f.cur[tid()] = dev
	return nil
}

func (f *fake) EnablePeerAccess(peer int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if name := f.sc.Refuse[pairKey(f.cur[tid()], peer)]; name != "" {
		return fakeErr("cuCtxEnablePeerAccess", name)
	}
	if !f.can(f.cur[tid()], peer) {
		return fakeErr("cuCtxEnablePeerAccess", "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED")
	}
	f.peer[[2]int{f.cur[tid()], peer}] = true
	return nil
}

// mapFile maps a shared file as device memory of dev.
func (f *fake) mapFile(file *os.File, n int64, dev int, kind string) (cuda.Ptr, error) {
	data, err := syscall.Mmap(int(file.Fd()), 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return 0, err
	}
	p := cuda.Ptr(f.next)
	f.next += uint64(n) + 4096
	f.mem[p] = &region{dev: dev, data: data, file: file, kind: kind}
	return p, nil
}

// alloc makes memory of dev as a file named after dev, in the test's TMPDIR.
func (f *fake) alloc(n int64, dev int) (cuda.Ptr, error) {
	file, err := os.CreateTemp("", fmt.Sprintf("gpu%d-", dev))
	if err != nil {
		return 0, err
	}
	if err := file.Truncate(n); err != nil {
		return 0, err
	}
	return f.mapFile(file, n, dev, "")
}

func (f *fake) Alloc(n int64) (cuda.Ptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.alloc(n, f.cur[tid()])
}

func (f *fake) HostAlloc(n int64) ([]byte, error) {
	if l := f.sc.Latency; l != nil {
		sleep(l.HostAllocMS * float64(n) / (64 << 20))
	}
	return make([]byte, n), nil
}

func (f *fake) region(p cuda.Ptr) *region {
	r := f.mem[p]
	if r == nil {
		panic(fmt.Sprintf("fake: no memory at %#x", uint64(p)))
	}
	return r
}

func (f *fake) MemsetD32(p cuda.Ptr, v uint32, words int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := f.region(p).data
	for i := int64(0); i < words; i++ {
		binary.LittleEndian.PutUint32(d[4*i:], v)
	}
	return nil
}

func (f *fake) HtoD(dst cuda.Ptr, src []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	copy(f.region(dst).data, src)
	return nil
}

func (f *fake) DtoH(dst []byte, src cuda.Ptr) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	copy(dst, f.region(src).data)
	return nil
}

// fakeRates are a copy's fixed cost in microseconds and its GB/s, by kind;
// P2P kinds take the scenario's bandwidth.
var fakeRates = map[string][2]float64{"h2d": {2, 50}, "d2h": {2, 52}, "local": {1, 1500}, PathStaged: {10, 20}}

// cost is the fake time of one copy in microseconds.
func (f *fake) cost(kind string, n int64) float64 {
	r, ok := fakeRates[kind]
	if !ok {
		r = [2]float64{2, f.sc.PeerGBps}
	}
	size := float64(n)
	if l := f.sc.Latency; l != nil {
		size *= max(1, l.CopyScale)
		if kind == PathStaged && l.StagedGBps > 0 {
			r[1] = l.StagedGBps
		}
	}
	return r[0] + size/(r[1]*1e3)
}

func (f *fake) HtoDAsync(dst cuda.Ptr, src []byte, s cuda.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	copy(f.region(dst).data, src)
	f.advance(s, f.cost("h2d", int64(len(src))))
	return nil
}

func (f *fake) DtoHAsync(dst []byte, src cuda.Ptr, s cuda.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	copy(dst, f.region(src).data)
	f.advance(s, f.cost("d2h", int64(len(dst))))
	return nil
}

// move copies n bytes as kind from device a to b, with the scenario's faults.
func (f *fake) move(dst, src *region, n int64, kind string, s cuda.Stream) {
	a, b := src.dev, dst.dev
	if a != b && kind != PathStaged {
		key := pairKey(a, b)
		mode := f.sc.Corrupt[key+"/"+kind]
		if mode == "" {
			mode = f.sc.Corrupt[key+"/*"]
		}
		switch mode {
		case "zeros": // the write is dropped, as a translated IOMMU drops it
		case "flip":
			copy(dst.data[:n], src.data[:n])
			if n >= 4 {
				i := (n / 4 / 3) * 4
				binary.LittleEndian.PutUint32(dst.data[i:], binary.LittleEndian.Uint32(dst.data[i:])^0x00010000)
			}
		default:
			copy(dst.data[:n], src.data[:n])
		}
		if f.sc.Hang == key || f.sc.Hang == key+"/"+kind {
			f.streams[s].hang = true
		}
		// Only as this process's first P2P copy: the other pair's
		// bidirectional copies in this direction stay unharmed.
		if f.sc.Crash == key && f.p2pCopies == 0 || f.crashAt(key, kind) {
			syscall.Kill(os.Getpid(), syscall.SIGABRT)
			select {}
		}
		f.p2pCopies++
	} else {
		if f.crashAt(pairKey(a, b), kind) {
			syscall.Kill(os.Getpid(), syscall.SIGABRT)
			select {}
		}
		copy(dst.data[:n], src.data[:n])
	}
	if a == b && kind == "" {
		kind = "local"
	}
	f.advance(s, f.cost(kind, n))
}

// crashAt reports whether this copy is the first of its kind from a to b
// in the process and the scenario crashes there.
func (f *fake) crashAt(key, kind string) bool {
	if f.sc.Crash != key+"/"+kind {
		return false
	}
	f.crashSeen++
	if f.sc.Crashes == 0 {
		return f.crashSeen == 1
	}
	// Counted across the processes of the run, in a file of the test's TMPDIR.
	name := filepath.Join(os.TempDir(), "crashes")
	data, _ := os.ReadFile(name)
	if strings.Count(string(data), "\n") >= f.sc.Crashes {
		return false
	}
	os.WriteFile(name, append(data, '\n'), 0o644)
	return true
}

// advance queues us microseconds of work on s, which starts no earlier
// than the host's time.
func (f *fake) advance(s cuda.Stream, us float64) {
	st := f.streams[s]
	st.clock = max(st.clock, f.now[tid()]) + us
}

func (f *fake) CopyAsync(dst, src cuda.Ptr, n int64, s cuda.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, r := f.region(dst), f.region(src)
	kind := d.kind
	if kind == "" && d.dev != r.dev {
		kind = PathStaged
		if f.peer[[2]int{r.dev, d.dev}] {
			kind = PathPeer
		}
	}
	f.move(d, r, n, kind, s)
	return nil
}

func (f *fake) CopyPeerAsync(dst cuda.Ptr, dstDev int, src cuda.Ptr, srcDev int, n int64, s cuda.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	kind := PathStaged
	if f.peer[[2]int{srcDev, dstDev}] {
		kind = PathPeer
	}
	f.move(f.region(dst), f.region(src), n, kind, s)
	return nil
}

func (f *fake) NewStream() (cuda.Stream, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.streams = append(f.streams, &fstream{})
	return cuda.Stream(len(f.streams) - 1), nil
}

func (f *fake) StreamSync(s cuda.Stream) error {
	f.mu.Lock()
	if f.streams[s].hang {
		f.mu.Unlock()
		select {} // the copy never completes; the parent's deadline ends this process
	}
	f.now[tid()] = max(f.now[tid()], f.streams[s].clock)
	st := f.streams[s]
	wait := st.clock - max(st.synced, 0)
	st.synced = st.clock
	f.mu.Unlock()
	if l := f.sc.Latency; l != nil && l.Copies {
		sleep(wait / 1000)
	}
	return nil
}

func (f *fake) Wait(s cuda.Stream, e cuda.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.streams[s].clock = max(f.streams[s].clock, f.events[e])
	return nil
}

func (f *fake) NewEvent() (cuda.Event, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, 0)
	return cuda.Event(len(f.events) - 1), nil
}

func (f *fake) Record(e cuda.Event, s cuda.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events[e] = max(f.streams[s].clock, f.now[tid()])
	return nil
}

func (f *fake) Elapsed(a, b cuda.Event) (float64, error) {
	f.mu.Lock()
	if k := f.sc.HangTimed; k != "" {
		var x, y int
		fmt.Sscanf(k, "%d->%d", &x, &y)
		if f.cur[tid()] == x && f.peer[[2]int{x, y}] {
			f.mu.Unlock()
			select {} // the parent's deadline ends this process
		}
	}
	defer f.mu.Unlock()
	return (f.events[b] - f.events[a]) / 1000, nil
}

// IpcHandle names the memory's file by this process's id and descriptor.
func (f *fake) IpcHandle(p cuda.Ptr) (cuda.IpcHandle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var h cuda.IpcHandle
	r := f.region(p)
	binary.LittleEndian.PutUint32(h[0:], uint32(os.Getpid()))
	binary.LittleEndian.PutUint32(h[4:], uint32(r.file.Fd()))
	binary.LittleEndian.PutUint64(h[8:], uint64(len(r.data)))
	return h, nil
}

// devOf reads the owning device from the memory file's name.
func devOf(file *os.File) int {
	name, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", file.Fd()))
	d, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(name), "gpu"), "-")
	n, _ := strconv.Atoi(d)
	return n
}

// IpcOpen maps the memory for the current device. Opening enables peer
// access as it needs (CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS), so a pair whose
// enable is refused is refused here the same way.
func (f *fake) IpcOpen(h cuda.IpcHandle) (cuda.Ptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sc.IPCOpen != "" {
		return 0, fakeErr("cuIpcOpenMemHandle", f.sc.IPCOpen)
	}
	pid, fd, n := binary.LittleEndian.Uint32(h[0:]), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint64(h[8:])
	file, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/%d", pid, fd), os.O_RDWR, 0)
	if err != nil {
		return 0, fakeErr("cuIpcOpenMemHandle", "CUDA_ERROR_INVALID_HANDLE")
	}
	if name := f.sc.Refuse[pairKey(f.cur[tid()], devOf(file))]; name != "" {
		file.Close()
		return 0, fakeErr("cuIpcOpenMemHandle", name)
	}
	return f.mapFile(file, int64(n), devOf(file), PathIPCLegacy)
}

func (f *fake) IpcClose(cuda.Ptr) error { return nil }

func (f *fake) Export(dev int, n int64) (cuda.Shared, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	size := (n + 65535) &^ 65535
	p, err := f.alloc(size, dev)
	if err != nil {
		return cuda.Shared{}, err
	}
	fd, err := syscall.Dup(int(f.region(p).file.Fd()))
	if err != nil {
		return cuda.Shared{}, err
	}
	return cuda.Shared{Ptr: p, Size: size, FD: fd}, nil
}

func (f *fake) Import(fd int, size int64, dev int) (cuda.Shared, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	nfd, err := syscall.Dup(fd)
	if err != nil {
		return cuda.Shared{}, fakeErr("cuMemImportFromShareableHandle", "CUDA_ERROR_INVALID_VALUE")
	}
	file := os.NewFile(uintptr(nfd), "imported")
	p, err := f.mapFile(file, size, devOf(file), PathIPCCuMem)
	return cuda.Shared{Ptr: p, Size: size, FD: fd}, err
}

func (f *fake) DisablePeerAccess(peer int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.peer[[2]int{f.cur[tid()], peer}] {
		return fakeErr("cuCtxDisablePeerAccess", "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED")
	}
	delete(f.peer, [2]int{f.cur[tid()], peer})
	return nil
}

func (f *fake) Release(sh cuda.Shared) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.region(sh.Ptr)
	delete(f.mem, sh.Ptr)
	syscall.Munmap(r.data)
	if r.kind != "" {
		r.file.Close()
	}
	return nil
}

func (f *fake) Retain(devs []int) error {
	if l := f.sc.Latency; l != nil {
		sleep(l.ContextMS * float64(len(devs))) // the driver makes them one at a time
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, d := range devs {
		if d < 0 || d >= f.sc.GPUs {
			return fakeErr("cuDeviceGet", "CUDA_ERROR_INVALID_DEVICE")
		}
	}
	return nil
}

func (f *fake) Sync() error { return nil }
