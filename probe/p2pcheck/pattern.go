package p2pcheck

import (
	"encoding/binary"
	"fmt"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// Paths, in the order a pair's child takes them.
const (
	PathStaged    = "staged_copy" // cuMemcpyPeerAsync before peer access is enabled: the driver stages it through host memory
	PathPeer      = "peer_copy"   // cuMemcpyPeerAsync with peer access enabled
	PathIPCLegacy = "ipc_legacy"  // a second process opens the memory with cuIpcOpenMemHandle and writes into it
	PathIPCCuMem  = "ipc_cumem"   // the same through cuMemCreate memory exported as a POSIX descriptor
)

var pathIndex = map[string]uint32{PathStaged: 1, PathPeer: 2, PathIPCLegacy: 3, PathIPCCuMem: 4, "local": 5}

// seedFor gives every run, ordered pair and path its own pattern, so data
// left over from an earlier copy never passes for a new one.
func seedFor(run uint32, from, to int, path string) uint32 {
	x := run ^ uint32(from+1)*0x9e3779b9 ^ uint32(to+1)*0x85ebca6b ^ pathIndex[path]*0xc2b2ae35
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	if x == 0 {
		x = 0x9e3779b9
	}
	return x
}

// fill writes the xorshift32 sequence from seed into buf, one little-endian
// word at a time. It never yields a zero word, so memory that was cleared
// and never written shows up as wrong.
func fill(buf []byte, seed uint32) {
	x := seed
	for i := 0; i+4 <= len(buf); i += 4 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		binary.LittleEndian.PutUint32(buf[i:], x)
	}
}

// compare checks got against want word by word.
func compare(got, want []byte) (wrong int64, first *facts.Mismatch) {
	for i := 0; i+4 <= len(want); i += 4 {
		g, w := binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:])
		if g == w {
			continue
		}
		if first == nil {
			first = &facts.Mismatch{Offset: int64(i), Expected: fmt.Sprintf("0x%08x", w), Got: fmt.Sprintf("0x%08x", g)}
		}
		wrong++
	}
	return wrong, first
}

// sizeText writes a byte count for people: 64 MiB, 256 KiB, 1000 bytes.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
