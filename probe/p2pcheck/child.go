package p2pcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"

	"github.com/p2pkb/p2pkb/probe/cuda"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// RoleEnv, set in a child's environment, names the child's job: enum, worker or ipc.
const RoleEnv = "P2P_PROBE_CHILD"

// job is one pair the parent asks a worker to test (or, for the enum child
// and a worker's boot, only the size and seed).
type job struct {
	Size int64  `json:"size"`
	Seed uint32 `json:"seed"`
	From int    `json:"from"`
	To   int    `json:"to"`
	Peer bool   `json:"peer"`           // cuDeviceCanAccessPeer said yes: try the peer paths
	Enum bool   `json:"enum,omitempty"` // at boot: list and measure the GPUs before the first pair
}

// order is one line the parent writes to a worker: the boot settings, a
// pair to test, or leave to time copies.
type order struct {
	ID    int  `json:"id"`              // the pair's number in the run
	Boot  *job `json:"boot,omitempty"`  // the first order: size and seed
	Job   *job `json:"job,omitempty"`   // a pair
	Clock bool `json:"clock,omitempty"` // the worker may time its copies now
}

// line is one line a child writes: the step it starts, what it found so
// far, that it is ready for pairs, or that it wants or gives back the clock.
type line struct {
	ID    int             `json:"id"` // the pair it is about (workers and second processes)
	Step  string          `json:"step,omitempty"`
	State json.RawMessage `json:"state,omitempty"`
	Ready bool            `json:"ready,omitempty"`
	Clock string          `json:"clock,omitempty"` // "want" or "done"
}

// emitter writes lines whole, so a child killed mid-write loses at most the
// line; a worker and its second process share one pipe, and writes of less
// than a pipe buffer are not interleaved.
type emitter struct {
	mu *sync.Mutex
	w  io.Writer
	id int // the pair the lines are about; enumID for the GPUs' listing and figures
}

// enumID marks the lines about listing and measuring the GPUs, and a
// worker's readiness.
const enumID = -1

// about is an emitter of the same stream for lines about pair id.
func (e *emitter) about(id int) *emitter { return &emitter{mu: e.mu, w: e.w, id: id} }

func (e *emitter) write(l line) {
	l.ID = e.id
	b, _ := json.Marshal(l)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.w.Write(append(b, '\n'))
}

func (e *emitter) step(s string) { e.write(line{Step: s}) }

func (e *emitter) state(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	e.write(line{State: b})
}

// Child runs the job of a re-executed probe: role is RoleEnv's value, open
// loads the driver. It returns the exit status.
func Child(role string, open func() (Driver, error), stdin io.Reader, stdout io.Writer) int {
	// The driver's current context belongs to the OS thread.
	runtime.LockOSThread()
	out := &emitter{mu: &sync.Mutex{}, w: stdout, id: enumID}
	in := json.NewDecoder(stdin)
	tracef("start")
	defer tracef("end")
	out.step("load libcuda.so.1")
	d, err := open()
	if err == nil {
		d = traceDriver(d)
		out.step("cuInit")
		err = d.Init()
	}
	switch role {
	case "worker":
		return runWorker(d, err, in, out)
	case "ipc":
		return runIPC(d, err, out)
	default:
		fmt.Fprintf(os.Stderr, "p2p-probe: unknown child role %q\n", role)
		return 1
	}
}

// enumState is what the first worker found before its first pair: the devices, what the driver
// says of each ordered pair, and each device's own copies.
type enumState struct {
	Error   string             `json:"error,omitempty"` // the driver could not be loaded or started
	Driver  string             `json:"driver,omitempty"`
	Devices []facts.TestDevice `json:"devices"`
	Peers   []peerInfo         `json:"peers"`
	Done    bool               `json:"done"`
}

type peerInfo struct {
	From  int             `json:"from"`
	To    int             `json:"to"`
	Can   *bool           `json:"can"`
	Error string          `json:"error,omitempty"`
	Attrs *facts.P2PAttrs `json:"attrs,omitempty"`
}

func runEnum(d Driver, initErr error, j job, out *emitter) {
	st := enumState{Devices: []facts.TestDevice{}, Peers: []peerInfo{}}
	defer func() { st.Done = true; out.state(st) }()
	if initErr != nil {
		st.Error = initErr.Error()
		return
	}
	if v, err := d.Version(); err == nil {
		st.Driver = fmt.Sprintf("%d.%d", v/1000, v%1000/10)
	}
	out.step("cuDeviceGetCount")
	n, err := d.Count()
	if err != nil {
		st.Error = err.Error()
		return
	}
	for i := 0; i < n; i++ {
		dev := facts.TestDevice{Ordinal: i}
		name, err := d.Name(i)
		if err != nil {
			dev.Error = err.Error()
		}
		bus, err := d.PCIBusID(i)
		if err != nil && dev.Error == "" {
			dev.Error = err.Error()
		}
		dev.Name, dev.PCIBusID = name, bus
		st.Devices = append(st.Devices, dev)
	}
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			if i == k {
				continue
			}
			p := peerInfo{From: i, To: k}
			can, err := d.CanAccessPeer(i, k)
			if err != nil {
				p.Error = err.Error()
			} else {
				p.Can = &can
				p.Attrs = attrs(d, i, k)
			}
			st.Peers = append(st.Peers, p)
		}
	}
	out.state(st)
	// All contexts at once; one that fails fails again in its device's figures.
	out.step("cuDevicePrimaryCtxRetain")
	d.Retain(upTo(n))
	for i := range st.Devices {
		if st.Devices[i].Error != "" {
			continue
		}
		deviceFigures(d, &st.Devices[i], j, out)
		out.state(st)
	}
}

func attrs(d Driver, src, dst int) *facts.P2PAttrs {
	var a facts.P2PAttrs
	var v [4]int
	for i, attr := range []int{cuda.AttrPerformanceRank, cuda.AttrAccessSupported, cuda.AttrNativeAtomics, cuda.AttrArrayAccess} {
		x, err := d.P2PAttribute(attr, src, dst)
		if err != nil {
			return nil
		}
		v[i] = x
	}
	a.PerformanceRank, a.AccessSupported, a.NativeAtomics, a.ArrayAccess = v[0], v[1] != 0, v[2] != 0, v[3] != 0
	return &a
}

// reps is how many copies of size n a bandwidth figure averages: enough to
// move about 1 GiB, at least 2, at most 10.
func reps(n int64) int {
	return int(max(2, min(10, (1<<30)/max(n, 1))))
}

const latencyReps = 100

// timer times work queued on one stream with two events of its context.
type timer struct {
	d           Driver
	s           cuda.Stream
	start, stop cuda.Event
}

func newTimer(d Driver) (*timer, error) {
	t := &timer{d: d}
	var err error
	if t.s, err = d.NewStream(); err != nil {
		return nil, err
	}
	if t.start, err = d.NewEvent(); err != nil {
		return nil, err
	}
	if t.stop, err = d.NewEvent(); err != nil {
		return nil, err
	}
	return t, nil
}

// ms queues n calls of op between the events and returns the milliseconds
// between them. One call before the first event keeps set-up costs of the
// first copy out of the figure.
func (t *timer) ms(n int, op func() error) (float64, error) {
	if err := op(); err != nil {
		return 0, err
	}
	if err := t.d.Record(t.start, t.s); err != nil {
		return 0, err
	}
	for i := 0; i < n; i++ {
		if err := op(); err != nil {
			return 0, err
		}
	}
	if err := t.d.Record(t.stop, t.s); err != nil {
		return 0, err
	}
	if err := t.d.StreamSync(t.s); err != nil {
		return 0, err
	}
	return t.d.Elapsed(t.start, t.stop)
}

// best is the shorter of two runs of ms: a GPU's copies to and from host
// memory vary by some percent from run to run on a machine that has just
// started, and its figure is taken once.
func (t *timer) best(n int, op func() error) (float64, error) {
	a, err := t.ms(n, op)
	if err != nil {
		return 0, err
	}
	b, err := t.ms(n, op)
	return min(a, b), err
}

// gbps turns n copies of size bytes in ms milliseconds into GB/s (1e9 B/s), to 0.1.
func gbps(n int, size int64, ms float64) float64 {
	if ms <= 0 {
		return 0
	}
	return math.Round(float64(n)*float64(size)/(ms*1e6)*10) / 10
}

// deviceFigures copies within one GPU and to and from pinned host memory,
// times each and checks that the pattern survives all three.
func deviceFigures(d Driver, dev *facts.TestDevice, j job, out *emitter) {
	step := ""
	fail := func(err error) { dev.Error = fmt.Sprintf("%s: %v", step, err) }
	at := func(s string) { step = fmt.Sprintf("GPU%d: %s", dev.Ordinal, s); out.step(step) }
	n := j.Size
	at("setup")
	if err := d.Use(dev.Ordinal); err != nil {
		fail(err)
		return
	}
	a, err := d.Alloc(n)
	if err != nil {
		fail(err)
		return
	}
	b, err := d.Alloc(n)
	if err != nil {
		fail(err)
		return
	}
	host, err := d.HostAlloc(n)
	if err != nil {
		fail(err)
		return
	}
	back, err := d.HostAlloc(n)
	if err != nil {
		fail(err)
		return
	}
	t, err := newTimer(d)
	if err != nil {
		fail(err)
		return
	}
	fill(host, seedFor(j.Seed, dev.Ordinal, dev.Ordinal, "local"))
	r := reps(n)
	at("host to device")
	ms, err := t.best(r, func() error { return d.HtoDAsync(a, host, t.s) })
	if err != nil {
		fail(err)
		return
	}
	dev.H2DGBps = gbps(r, n, ms)
	at("local copy")
	if err := d.MemsetD32(b, 0, n/4); err != nil {
		fail(err)
		return
	}
	if err := d.Sync(); err != nil {
		fail(err)
		return
	}
	ms, err = t.best(r, func() error { return d.CopyAsync(b, a, n, t.s) })
	if err != nil {
		fail(err)
		return
	}
	dev.LocalGBps = gbps(r, n, ms)
	at("device to host")
	ms, err = t.best(r, func() error { return d.DtoHAsync(back, b, t.s) })
	if err != nil {
		fail(err)
		return
	}
	dev.D2HGBps = gbps(r, n, ms)
	wrong, first := compare(back, host)
	ok := wrong == 0
	dev.DataOK = &ok
	if !ok {
		dev.Error = fmt.Sprintf("GPU%d: %s copied to the GPU, within it and back, %d words wrong, first at offset %d: expected %s, got %s",
			dev.Ordinal, sizeText(n), wrong, first.Offset, first.Expected, first.Got)
	}
}
