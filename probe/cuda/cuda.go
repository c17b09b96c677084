// Package cuda calls the CUDA driver API in libcuda.so.1, loaded at run time
// with dlopen, as go-nvml loads NVML: the probe needs no CUDA toolkit, and a
// machine without the driver gets an error from Open rather than a binary
// that will not start. It binds only what the P2P test uses, one Go method
// per driver call, and names every failure by the driver's error name.
//
// The driver keeps the current context per OS thread: callers lock their
// goroutine to its thread (runtime.LockOSThread) before the first call.
package cuda

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// Ptr is a device address (CUdeviceptr); with unified addressing it also
// names the device that holds it.
type Ptr uint64

// Stream and Event name a driver stream and event of this Lib.
type (
	Stream int
	Event  int
)

// IpcHandle is a CUipcMemHandle: 64 bytes another process opens.
type IpcHandle [64]byte

// Shared is memory made by cuMemCreate and mapped into this process:
// exported, FD is a POSIX file descriptor another process imports.
type Shared struct {
	Ptr    Ptr
	Size   int64
	FD     int
	Handle uint64
}

// P2P attributes of cuDeviceGetP2PAttribute.
const (
	AttrPerformanceRank = 1
	AttrAccessSupported = 2
	AttrNativeAtomics   = 3
	AttrArrayAccess     = 4
)

// Error is a failed driver call: the call and the driver's error name.
type Error struct {
	Call string // cuCtxEnablePeerAccess
	Code int    // 217
	Name string // CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
}

func (e *Error) Error() string { return e.Call + ": " + e.Name }

// ErrorName is the driver's name of err, or err's text when it is no driver error.
func ErrorName(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Name
	}
	return err.Error()
}

// Lib is the loaded driver with one retained primary context per device.
// Its methods may be called from several threads at once.
type Lib struct {
	mu      sync.Mutex // guards the three tables below
	ctx     map[int]C.CUcontext
	streams []C.CUstream
	events  []C.CUevent
}

// Open loads libcuda.so.1 and looks up every function the probe calls.
func Open() (*Lib, error) {
	if msg := C.p2p_cuda_open(); msg != nil {
		return nil, errors.New(C.GoString(msg))
	}
	var buf [128]C.char
	if C.p2p_cuda_missing(&buf[0], C.int(len(buf))) != 0 {
		return nil, fmt.Errorf("libcuda.so.1 has no %s: the driver is older than this probe needs", C.GoString(&buf[0]))
	}
	return &Lib{ctx: map[int]C.CUcontext{}}, nil
}

func check(call string, r C.CUresult) error {
	if r == 0 {
		return nil
	}
	var name *C.char
	n := fmt.Sprintf("CUDA_ERROR_%d", int(r))
	if C.p2p_cuGetErrorName(r, &name) == 0 && name != nil {
		n = C.GoString(name)
	}
	return &Error{Call: call, Code: int(r), Name: n}
}

// Init is cuInit(0).
func (l *Lib) Init() error { return check("cuInit", C.p2p_cuInit(0)) }

// Version is cuDriverGetVersion: 13000 for CUDA 13.0.
func (l *Lib) Version() (int, error) {
	var v C.int
	err := check("cuDriverGetVersion", C.p2p_cuDriverGetVersion(&v))
	return int(v), err
}

// Count is cuDeviceGetCount.
func (l *Lib) Count() (int, error) {
	var n C.int
	err := check("cuDeviceGetCount", C.p2p_cuDeviceGetCount(&n))
	return int(n), err
}

func (l *Lib) device(ordinal int) (C.CUdevice, error) {
	var d C.CUdevice
	return d, check("cuDeviceGet", C.p2p_cuDeviceGet(&d, C.int(ordinal)))
}

// Name is cuDeviceGetName.
func (l *Lib) Name(dev int) (string, error) {
	d, err := l.device(dev)
	if err != nil {
		return "", err
	}
	var buf [256]C.char
	if err := check("cuDeviceGetName", C.p2p_cuDeviceGetName(&buf[0], C.int(len(buf)), d)); err != nil {
		return "", err
	}
	return C.GoString(&buf[0]), nil
}

// PCIBusID is cuDeviceGetPCIBusId: 0000:06:00.0.
func (l *Lib) PCIBusID(dev int) (string, error) {
	d, err := l.device(dev)
	if err != nil {
		return "", err
	}
	var buf [64]C.char
	if err := check("cuDeviceGetPCIBusId", C.p2p_cuDeviceGetPCIBusId(&buf[0], C.int(len(buf)), d)); err != nil {
		return "", err
	}
	return C.GoString(&buf[0]), nil
}

// CanAccessPeer is cuDeviceCanAccessPeer.
func (l *Lib) CanAccessPeer(dev, peer int) (bool, error) {
	a, err := l.device(dev)
	if err != nil {
		return false, err
	}
	b, err := l.device(peer)
	if err != nil {
		return false, err
	}
	var can C.int
	err = check("cuDeviceCanAccessPeer", C.p2p_cuDeviceCanAccessPeer(&can, a, b))
	return can != 0, err
}

// P2PAttribute is cuDeviceGetP2PAttribute.
func (l *Lib) P2PAttribute(attr, src, dst int) (int, error) {
	a, err := l.device(src)
	if err != nil {
		return 0, err
	}
	b, err := l.device(dst)
	if err != nil {
		return 0, err
	}
	var v C.int
	err = check("cuDeviceGetP2PAttribute", C.p2p_cuDeviceGetP2PAttribute(&v, C.int(attr), a, b))
	return int(v), err
}

func (l *Lib) context(dev int) (C.CUcontext, error) {
	l.mu.Lock()
	c, ok := l.ctx[dev]
	l.mu.Unlock()
	if ok {
		return c, nil
	}
	d, err := l.device(dev)
	if err != nil {
		return nil, err
	}
	if err := check("cuDevicePrimaryCtxRetain", C.p2p_cuDevicePrimaryCtxRetain(&c, d)); err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.ctx[dev] = c
	l.mu.Unlock()
	return c, nil
}

// Retain makes the primary contexts of devs at once, each on its own
// thread: making one takes most of a second on some machines (0.6 s on an
// H200 in a virtual machine), and a process that uses eight would
// otherwise spend five seconds before its first copy.
func (l *Lib) Retain(devs []int) error {
	ctxs := make([]C.CUcontext, len(devs))
	errs := make([]error, len(devs))
	var wg sync.WaitGroup
	for i, dev := range devs {
		if _, err := l.known(dev); err == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := l.device(dev)
			if err == nil {
				err = check("cuDevicePrimaryCtxRetain", C.p2p_cuDevicePrimaryCtxRetain(&ctxs[i], d))
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	l.mu.Lock()
	for i, dev := range devs {
		if ctxs[i] != nil && errs[i] == nil {
			l.ctx[dev] = ctxs[i]
		}
	}
	l.mu.Unlock()
	return errors.Join(errs...)
}

// Sync waits until all work of the current context is done, including
// cuMemsetD32's, which runs on the legacy stream and is not ordered with
// the non-blocking streams of NewStream.
func (l *Lib) Sync() error { return check("cuCtxSynchronize", C.p2p_cuCtxSynchronize()) }

// Use makes dev's primary context current, retaining it the first time.
// Primary contexts avoid cuCtxCreate, whose signature changed in CUDA 13.
func (l *Lib) Use(dev int) error {
	c, err := l.context(dev)
	if err != nil {
		return err
	}
	return check("cuCtxSetCurrent", C.p2p_cuCtxSetCurrent(c))
}

// EnablePeerAccess lets the current context reach peer's memory.
func (l *Lib) EnablePeerAccess(peer int) error {
	c, err := l.context(peer)
	if err != nil {
		return err
	}
	return check("cuCtxEnablePeerAccess", C.p2p_cuCtxEnablePeerAccess(c, 0))
}

// DisablePeerAccess undoes EnablePeerAccess, so later copies between the
// two devices in this process are staged again.
func (l *Lib) DisablePeerAccess(peer int) error {
	c, err := l.context(peer)
	if err != nil {
		return err
	}
	return check("cuCtxDisablePeerAccess", C.p2p_cuCtxDisablePeerAccess(c))
}

// Alloc is cuMemAlloc_v2 on the current device.
func (l *Lib) Alloc(n int64) (Ptr, error) {
	var p C.CUdeviceptr
	err := check("cuMemAlloc", C.p2p_cuMemAlloc(&p, C.size_t(n)))
	return Ptr(p), err
}

// HostAlloc is page-locked host memory every context can copy from
// (cuMemHostAlloc with CU_MEMHOSTALLOC_PORTABLE). It lives until the
// process ends.
func (l *Lib) HostAlloc(n int64) ([]byte, error) {
	var p unsafe.Pointer
	if err := check("cuMemHostAlloc", C.p2p_cuMemHostAlloc(&p, C.size_t(n), 1)); err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

// MemsetD32 sets words 32-bit words at p to v.
func (l *Lib) MemsetD32(p Ptr, v uint32, words int64) error {
	return check("cuMemsetD32", C.p2p_cuMemsetD32(C.CUdeviceptr(p), C.uint(v), C.size_t(words)))
}

// HtoD copies host memory from HostAlloc to the device and waits.
func (l *Lib) HtoD(dst Ptr, src []byte) error {
	return check("cuMemcpyHtoD", C.p2p_cuMemcpyHtoD(C.CUdeviceptr(dst), unsafe.Pointer(&src[0]), C.size_t(len(src))))
}

// DtoH copies device memory into host memory from HostAlloc and waits.
func (l *Lib) DtoH(dst []byte, src Ptr) error {
	return check("cuMemcpyDtoH", C.p2p_cuMemcpyDtoH(unsafe.Pointer(&dst[0]), C.CUdeviceptr(src), C.size_t(len(dst))))
}

// HtoDAsync queues a copy from host memory from HostAlloc.
func (l *Lib) HtoDAsync(dst Ptr, src []byte, s Stream) error {
	return check("cuMemcpyHtoDAsync", C.p2p_cuMemcpyHtoDAsync(C.CUdeviceptr(dst), unsafe.Pointer(&src[0]), C.size_t(len(src)), l.stream(s)))
}

// DtoHAsync queues a copy into host memory from HostAlloc.
func (l *Lib) DtoHAsync(dst []byte, src Ptr, s Stream) error {
	return check("cuMemcpyDtoHAsync", C.p2p_cuMemcpyDtoHAsync(unsafe.Pointer(&dst[0]), C.CUdeviceptr(src), C.size_t(len(dst)), l.stream(s)))
}

// CopyAsync queues a copy between two device addresses (unified addressing).
func (l *Lib) CopyAsync(dst, src Ptr, n int64, s Stream) error {
	return check("cuMemcpyAsync", C.p2p_cuMemcpyAsync(C.CUdeviceptr(dst), C.CUdeviceptr(src), C.size_t(n), l.stream(s)))
}

// CopyPeerAsync queues cuMemcpyPeerAsync between two devices' primary
// contexts. With peer access off the driver stages it through host memory.
func (l *Lib) CopyPeerAsync(dst Ptr, dstDev int, src Ptr, srcDev int, n int64, s Stream) error {
	dc, err := l.context(dstDev)
	if err != nil {
		return err
	}
	sc, err := l.context(srcDev)
	if err != nil {
		return err
	}
	return check("cuMemcpyPeerAsync", C.p2p_cuMemcpyPeerAsync(C.CUdeviceptr(dst), dc, C.CUdeviceptr(src), sc, C.size_t(n), l.stream(s)))
}

// NewStream is a non-blocking stream of the current context.
func (l *Lib) NewStream() (Stream, error) {
	var s C.CUstream
	if err := check("cuStreamCreate", C.p2p_cuStreamCreate(&s, 1)); err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.streams = append(l.streams, s)
	return Stream(len(l.streams) - 1), nil
}

// StreamSync waits for everything queued on s.
func (l *Lib) StreamSync(s Stream) error {
	return check("cuStreamSynchronize", C.p2p_cuStreamSynchronize(l.stream(s)))
}

// Wait makes s wait for e, which may belong to another context.
func (l *Lib) Wait(s Stream, e Event) error {
	return check("cuStreamWaitEvent", C.p2p_cuStreamWaitEvent(l.stream(s), l.event(e), 0))
}

// NewEvent is a timing event of the current context.
func (l *Lib) NewEvent() (Event, error) {
	var e C.CUevent
	if err := check("cuEventCreate", C.p2p_cuEventCreate(&e, 0)); err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
	return Event(len(l.events) - 1), nil
}

// Record queues e on s.
func (l *Lib) Record(e Event, s Stream) error {
	return check("cuEventRecord", C.p2p_cuEventRecord(l.event(e), l.stream(s)))
}

// Elapsed is the time between two completed events, in milliseconds.
func (l *Lib) Elapsed(start, stop Event) (float64, error) {
	var ms C.float
	err := check("cuEventElapsedTime", C.p2p_cuEventElapsedTime(&ms, l.event(start), l.event(stop)))
	return float64(ms), err
}

// IpcHandle is cuIpcGetMemHandle of memory from Alloc.
func (l *Lib) IpcHandle(p Ptr) (IpcHandle, error) {
	var h C.CUipcMemHandle
	err := check("cuIpcGetMemHandle", C.p2p_cuIpcGetMemHandle(&h, C.CUdeviceptr(p)))
	return *(*IpcHandle)(unsafe.Pointer(&h)), err
}

// IpcOpen is cuIpcOpenMemHandle_v2 into the current context, enabling peer
// access as it needs (CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS).
func (l *Lib) IpcOpen(h IpcHandle) (Ptr, error) {
	var p C.CUdeviceptr
	err := check("cuIpcOpenMemHandle", C.p2p_cuIpcOpenMemHandle(&p, (*C.CUipcMemHandle)(unsafe.Pointer(&h)), 1))
	return Ptr(p), err
}

// IpcClose is cuIpcCloseMemHandle.
func (l *Lib) IpcClose(p Ptr) error {
	return check("cuIpcCloseMemHandle", C.p2p_cuIpcCloseMemHandle(C.CUdeviceptr(p)))
}

const (
	memPinned      = 1 // CU_MEM_ALLOCATION_TYPE_PINNED
	memLocDevice   = 1 // CU_MEM_LOCATION_TYPE_DEVICE
	memHandleFD    = 1 // CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
	memAccessRW    = 3 // CU_MEM_ACCESS_FLAGS_PROT_READWRITE
	memGranularity = 0 // CU_MEM_ALLOC_GRANULARITY_MINIMUM
)

// mapFor reserves an address range, maps h there and gives dev read and
// write access: the steps NCCL's cuMem path takes on both sides.
func (l *Lib) mapFor(h C.CUmemGenericAllocationHandle, size int64, dev int) (Ptr, error) {
	var p C.CUdeviceptr
	if err := check("cuMemAddressReserve", C.p2p_cuMemAddressReserve(&p, C.size_t(size), 0, 0, 0)); err != nil {
		return 0, err
	}
	if err := check("cuMemMap", C.p2p_cuMemMap(p, C.size_t(size), 0, h, 0)); err != nil {
		return 0, err
	}
	var desc C.CUmemAccessDesc
	desc.location._type = memLocDevice
	desc.location.id = C.int(dev)
	desc.flags = memAccessRW
	if err := check("cuMemSetAccess", C.p2p_cuMemSetAccess(p, C.size_t(size), &desc, 1)); err != nil {
		return 0, err
	}
	return Ptr(p), nil
}

// Export allocates at least n bytes on dev with cuMemCreate, maps them for
// dev, and exports them as a POSIX file descriptor.
func (l *Lib) Export(dev int, n int64) (Shared, error) {
	var prop C.CUmemAllocationProp
	prop._type = memPinned
	prop.requestedHandleTypes = memHandleFD
	prop.location._type = memLocDevice
	prop.location.id = C.int(dev)
	var g C.size_t
	if err := check("cuMemGetAllocationGranularity", C.p2p_cuMemGetAllocationGranularity(&g, &prop, memGranularity)); err != nil {
		return Shared{}, err
	}
	size := (n + int64(g) - 1) / int64(g) * int64(g)
	var h C.CUmemGenericAllocationHandle
	if err := check("cuMemCreate", C.p2p_cuMemCreate(&h, C.size_t(size), &prop, 0)); err != nil {
		return Shared{}, err
	}
	p, err := l.mapFor(h, size, dev)
	if err != nil {
		return Shared{}, err
	}
	var fd C.int
	if err := check("cuMemExportToShareableHandle", C.p2p_cuMemExportToShareableHandle(unsafe.Pointer(&fd), h, memHandleFD, 0)); err != nil {
		return Shared{}, err
	}
	return Shared{Ptr: p, Size: size, FD: int(fd), Handle: uint64(h)}, nil
}

// Import maps memory another process exported (the descriptor and its size)
// and gives dev access to it.
func (l *Lib) Import(fd int, size int64, dev int) (Shared, error) {
	var h C.CUmemGenericAllocationHandle
	if err := check("cuMemImportFromShareableHandle", C.p2p_importFD(&h, C.int(fd))); err != nil {
		return Shared{}, err
	}
	p, err := l.mapFor(h, size, dev)
	if err != nil {
		return Shared{}, err
	}
	return Shared{Ptr: p, Size: size, FD: fd, Handle: uint64(h)}, nil
}

// Release unmaps memory from Export or Import, frees its address range and
// drops this process's handle; the memory goes when no process holds it.
func (l *Lib) Release(sh Shared) error {
	if err := check("cuMemUnmap", C.p2p_cuMemUnmap(C.CUdeviceptr(sh.Ptr), C.size_t(sh.Size))); err != nil {
		return err
	}
	if err := check("cuMemAddressFree", C.p2p_cuMemAddressFree(C.CUdeviceptr(sh.Ptr), C.size_t(sh.Size))); err != nil {
		return err
	}
	return check("cuMemRelease", C.p2p_cuMemRelease(C.CUmemGenericAllocationHandle(sh.Handle)))
}

func (l *Lib) known(dev int) (C.CUcontext, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.ctx[dev]; ok {
		return c, nil
	}
	return nil, errors.New("no context")
}

func (l *Lib) stream(s Stream) C.CUstream {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.streams[s]
}

func (l *Lib) event(e Event) C.CUevent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events[e]
}
