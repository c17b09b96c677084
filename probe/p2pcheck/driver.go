// Package p2pcheck moves real data between every ordered pair of GPUs through
// the CUDA driver API, checks every word that arrives and times the copies:
// the `test` section of a p2p-probe report (facts.Test).
//
// A hung copy must not hang the probe, so the work runs in child processes,
// the probe re-executed with RoleEnv set: one that lists the devices and
// measures each alone, then long-lived workers that keep their CUDA
// contexts and test one pair after another. Pairs that share no GPU run at
// the same time on different workers; their copies are timed one pair at a
// time under a clock the parent hands out. Each pair has its own deadline:
// a worker past it is killed and a new one takes the pairs left. A worker
// has a second child, which opens the pair's destination memory over CUDA
// IPC (legacy handles, and the cuMem POSIX descriptor NCCL uses, passed
// over a Unix socket) and writes into it from the source GPU. Children
// report their step and findings as JSON lines on stdout, so a killed child
// still leaves what it found and where it was.
//
// The driver sits behind Driver, so tests inject faults with a fake.
package p2pcheck

import "github.com/p2pkb/p2pkb/probe/cuda"

// Driver is the part of the CUDA driver API the test uses; *cuda.Lib is the
// real one. Calls act on the current device's primary context (Use).
type Driver interface {
	Init() error
	Version() (int, error)
	Count() (int, error)
	Name(dev int) (string, error)
	PCIBusID(dev int) (string, error)
	CanAccessPeer(dev, peer int) (bool, error)
	P2PAttribute(attr, src, dst int) (int, error)
	Retain(devs []int) error
	Use(dev int) error
	Sync() error
	EnablePeerAccess(peer int) error
	DisablePeerAccess(peer int) error
	Alloc(n int64) (cuda.Ptr, error)
	HostAlloc(n int64) ([]byte, error)
	MemsetD32(p cuda.Ptr, v uint32, words int64) error
	HtoD(dst cuda.Ptr, src []byte) error
	DtoH(dst []byte, src cuda.Ptr) error
	HtoDAsync(dst cuda.Ptr, src []byte, s cuda.Stream) error
	DtoHAsync(dst []byte, src cuda.Ptr, s cuda.Stream) error
	CopyAsync(dst, src cuda.Ptr, n int64, s cuda.Stream) error
	CopyPeerAsync(dst cuda.Ptr, dstDev int, src cuda.Ptr, srcDev int, n int64, s cuda.Stream) error
	NewStream() (cuda.Stream, error)
	StreamSync(s cuda.Stream) error
	Wait(s cuda.Stream, e cuda.Event) error
	NewEvent() (cuda.Event, error)
	Record(e cuda.Event, s cuda.Stream) error
	Elapsed(start, stop cuda.Event) (float64, error)
	IpcHandle(p cuda.Ptr) (cuda.IpcHandle, error)
	IpcOpen(h cuda.IpcHandle) (cuda.Ptr, error)
	IpcClose(p cuda.Ptr) error
	Export(dev int, n int64) (cuda.Shared, error)
	Import(fd int, size int64, dev int) (cuda.Shared, error)
	Release(sh cuda.Shared) error
}

var _ Driver = (*cuda.Lib)(nil)
