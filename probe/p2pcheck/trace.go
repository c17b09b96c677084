package p2pcheck

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/p2pkb/p2pkb/probe/cuda"
)

// TraceEnv names a file that the test's processes append a line to for each
// slow driver call and each scheduling event, with wall-clock times: how
// the fault-injection driver's latencies were read off real machines.
const TraceEnv = "P2P_PROBE_TRACE"

var traceMu sync.Mutex

// tracef appends one line to the trace file, if there is one.
func tracef(format string, args ...any) { traceTo(os.Getenv(TraceEnv), format, args...) }

// traceTo appends one line to the file name, unless name is "".
func traceTo(name, format string, args ...any) {
	if name == "" {
		return
	}
	traceMu.Lock()
	defer traceMu.Unlock()
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	now := time.Now()
	fmt.Fprintf(f, "%d.%03d %s %d %s\n", now.Unix(), now.Nanosecond()/1e6, os.Getenv(RoleEnv), os.Getpid(), fmt.Sprintf(format, args...))
}

// traced times the calls of a Driver that take long enough to matter.
type traced struct {
	Driver
	used map[int]bool
}

func traceDriver(d Driver) Driver {
	if os.Getenv(TraceEnv) == "" {
		return d
	}
	return &traced{Driver: d, used: map[int]bool{}}
}

func timed(call string, f func() error) error {
	start := time.Now()
	err := f()
	tracef("%s %.3f ms", call, float64(time.Since(start).Microseconds())/1000)
	return err
}

func (t *traced) Init() error { return timed("cuInit", t.Driver.Init) }

func (t *traced) Use(dev int) error {
	if t.used[dev] {
		return t.Driver.Use(dev)
	}
	t.used[dev] = true
	return timed(fmt.Sprintf("cuDevicePrimaryCtxRetain(%d)", dev), func() error { return t.Driver.Use(dev) })
}

func (t *traced) Retain(devs []int) error {
	for _, d := range devs {
		t.used[d] = true
	}
	return timed(fmt.Sprintf("cuDevicePrimaryCtxRetain(%d devices at once)", len(devs)), func() error { return t.Driver.Retain(devs) })
}

func (t *traced) EnablePeerAccess(peer int) error {
	return timed("cuCtxEnablePeerAccess", func() error { return t.Driver.EnablePeerAccess(peer) })
}

func (t *traced) DisablePeerAccess(peer int) error {
	return timed("cuCtxDisablePeerAccess", func() error { return t.Driver.DisablePeerAccess(peer) })
}

func (t *traced) Alloc(n int64) (p cuda.Ptr, err error) {
	timed("cuMemAlloc", func() error { p, err = t.Driver.Alloc(n); return err })
	return
}

func (t *traced) HostAlloc(n int64) (b []byte, err error) {
	timed("cuMemHostAlloc", func() error { b, err = t.Driver.HostAlloc(n); return err })
	return
}

func (t *traced) HtoD(dst cuda.Ptr, src []byte) error {
	return timed("cuMemcpyHtoD", func() error { return t.Driver.HtoD(dst, src) })
}

func (t *traced) DtoH(dst []byte, src cuda.Ptr) error {
	return timed("cuMemcpyDtoH", func() error { return t.Driver.DtoH(dst, src) })
}

func (t *traced) StreamSync(s cuda.Stream) error {
	return timed("cuStreamSynchronize", func() error { return t.Driver.StreamSync(s) })
}

func (t *traced) IpcOpen(h cuda.IpcHandle) (p cuda.Ptr, err error) {
	timed("cuIpcOpenMemHandle", func() error { p, err = t.Driver.IpcOpen(h); return err })
	return
}

func (t *traced) IpcClose(p cuda.Ptr) error {
	return timed("cuIpcCloseMemHandle", func() error { return t.Driver.IpcClose(p) })
}

func (t *traced) Export(dev int, n int64) (sh cuda.Shared, err error) {
	timed("export (cuMemCreate, map, cuMemExportToShareableHandle)", func() error { sh, err = t.Driver.Export(dev, n); return err })
	return
}

func (t *traced) Import(fd int, size int64, dev int) (sh cuda.Shared, err error) {
	timed("import (cuMemImportFromShareableHandle, map)", func() error { sh, err = t.Driver.Import(fd, size, dev); return err })
	return
}

func (t *traced) Release(sh cuda.Shared) error {
	return timed("release (cuMemUnmap, cuMemAddressFree, cuMemRelease)", func() error { return t.Driver.Release(sh) })
}
