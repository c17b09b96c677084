package p2pcheck

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

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

// chunkBytes is the part of a buffer one pattern stream covers: chunks are
// filled and checked on several cores at once, since a pair's copies take
// milliseconds and writing and reading 64 MiB on one core takes tens of them.
const chunkBytes = 1 << 20

// chunkSeed starts chunk c of the pattern of seed; it is never zero, since
// xorshift32 from zero stays zero.
func chunkSeed(seed uint32, c int) uint32 {
	x := seed ^ uint32(c)*0x9e3779b9
	x ^= x >> 16
	x *= 0x85ebca6b
	x ^= x >> 13
	if x == 0 {
		x = seed | 1
	}
	return x
}

// fill writes the pattern of seed into buf: in each chunk, the xorshift32
// sequence from the chunk's seed, one little-endian word at a time. It never
// yields a zero word, so memory that was cleared and never written shows up
// as wrong.
func fill(buf []byte, seed uint32) {
	chunks(len(buf), func(c, lo, hi int) {
		x := chunkSeed(seed, c)
		b := buf[lo:hi]
		for i := 0; i+4 <= len(b); i += 4 {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			binary.LittleEndian.PutUint32(b[i:], x)
		}
	})
}

// compare checks got against want word by word.
func compare(got, want []byte) (wrong int64, first *facts.Mismatch) {
	type part struct {
		wrong int64
		first int // byte offset of the first wrong word, -1 for none
	}
	n := (len(want) + chunkBytes - 1) / chunkBytes
	parts := make([]part, n)
	chunks(len(want), func(c, lo, hi int) {
		p := part{first: -1}
		g, w := got[lo:hi], want[lo:hi]
		for i := 0; i+4 <= len(w); i += 4 {
			if binary.LittleEndian.Uint32(g[i:]) != binary.LittleEndian.Uint32(w[i:]) {
				if p.first < 0 {
					p.first = lo + i
				}
				p.wrong++
			}
		}
		parts[c] = p
	})
	for _, p := range parts {
		wrong += p.wrong
		if first == nil && p.first >= 0 {
			i := p.first
			first = &facts.Mismatch{Offset: int64(i),
				Expected: fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(want[i:])),
				Got:      fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(got[i:]))}
		}
	}
	return wrong, first
}

// chunks calls f for each chunk of a buffer of n bytes, on up to one
// goroutine per CPU (16 at most).
func chunks(n int, f func(c, lo, hi int)) {
	count := (n + chunkBytes - 1) / chunkBytes
	workers := min(count, runtime.NumCPU(), 16)
	if workers <= 1 {
		for c := 0; c < count; c++ {
			f(c, c*chunkBytes, min(n, (c+1)*chunkBytes))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := int(next.Add(1) - 1); c < count; c = int(next.Add(1) - 1) {
				f(c, c*chunkBytes, min(n, (c+1)*chunkBytes))
			}
		}()
	}
	wg.Wait()
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
