package p2pcheck

import (
	"encoding/binary"
	"testing"
)

// The pattern never has a zero word (cleared memory that was never written
// must show), and differs between runs, directions and paths, so data left
// by an earlier copy never passes for the next.
func TestPatternDiffers(t *testing.T) {
	const n = 1 << 20
	buf := make([]byte, n)
	seen := map[uint32]string{}
	for _, c := range []struct {
		run      uint32
		from, to int
		path     string
	}{
		{1, 0, 1, PathPeer}, {2, 0, 1, PathPeer}, {1, 1, 0, PathPeer}, {1, 0, 1, PathStaged},
		{1, 0, 1, PathIPCLegacy}, {1, 0, 1, PathIPCCuMem}, {1, 0, 2, PathPeer}, {1, 3, 3, "local"},
	} {
		seed := seedFor(c.run, c.from, c.to, c.path)
		fill(buf, seed)
		first := binary.LittleEndian.Uint32(buf)
		name := c.path + " " + string(rune('0'+c.from)) + "->" + string(rune('0'+c.to))
		if other, dup := seen[first]; dup {
			t.Errorf("%s (run %d) starts like %s", name, c.run, other)
		}
		seen[first] = name
		for i := 0; i < n; i += 4 {
			if binary.LittleEndian.Uint32(buf[i:]) == 0 {
				t.Fatalf("%s: zero word at %d", name, i)
			}
		}
	}
}

func TestCompare(t *testing.T) {
	want := make([]byte, 64)
	fill(want, 7)
	got := append([]byte(nil), want...)
	if wrong, first := compare(got, want); wrong != 0 || first != nil {
		t.Fatalf("equal buffers: %d wrong, %+v", wrong, first)
	}
	binary.LittleEndian.PutUint32(got[8:], 0xdeadbeef)
	binary.LittleEndian.PutUint32(got[40:], 0)
	wrong, first := compare(got, want)
	if wrong != 2 || first.Offset != 8 || first.Got != "0xdeadbeef" || first.Expected == first.Got {
		t.Errorf("%d wrong, %+v", wrong, first)
	}
}

// Chunks are checked on several cores; the first mismatch is still the
// lowest offset, and every wrong word is counted.
func TestCompareChunks(t *testing.T) {
	const n = 5*chunkBytes + 12
	want := make([]byte, n)
	fill(want, 99)
	got := append([]byte(nil), want...)
	for _, off := range []int{4*chunkBytes + 8, 2*chunkBytes + 4, n - 4} {
		binary.LittleEndian.PutUint32(got[off:], ^binary.LittleEndian.Uint32(got[off:]))
	}
	wrong, first := compare(got, want)
	if wrong != 3 || first == nil || first.Offset != 2*chunkBytes+4 {
		t.Errorf("%d wrong, first %+v", wrong, first)
	}
	if binary.LittleEndian.Uint32(want[chunkBytes:]) == binary.LittleEndian.Uint32(want[0:]) {
		t.Error("two chunks start alike")
	}
}
