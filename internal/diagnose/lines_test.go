package diagnose

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/p2pkb/p2pkb/internal/paste"
)

// A message across the boundary of two pieces of a long line is whole in
// one of them; short lines come whole, numbered, without their endings.
func TestEachLine(t *testing.T) {
	msg := "peer access is not supported between these two devices"
	long := strings.Repeat("a", pieceBytes-20) + msg + strings.Repeat("b", 2*pieceBytes)
	in := "one\r\ntwo\n" + long + "\nlast"
	var got []string
	var nums []int
	found := false
	var longs []int64
	err := eachLine(strings.NewReader(in), func(n int, line []byte) error {
		nums = append(nums, n)
		found = found || n == 3 && strings.Contains(string(line), msg)
		if n != 3 {
			got = append(got, string(line))
		}
		if len(line) > pieceBytes+overlapBytes {
			t.Errorf("line %d: a piece of %d bytes", n, len(line))
		}
		return nil
	}, func(n int, length int64) {
		if n != 3 {
			t.Errorf("long line %d", n)
		}
		longs = append(longs, length)
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "one|two|last" {
		t.Errorf("short lines %q", got)
	}
	if !found {
		t.Error("the message across two pieces was not seen whole")
	}
	if len(longs) != 1 || longs[0] != int64(len(long)) {
		t.Errorf("long lines reported: %v, want [%d]", longs, len(long))
	}
	if nums[0] != 1 || nums[1] != 2 || nums[len(nums)-1] != 4 {
		t.Errorf("numbers %v", nums)
	}
}

// Read ahead, the lines, their numbers, the long lines and each line's
// literals are those of reading in order; an error of fn, or of the input,
// ends the reading with it.
func TestEachLineAhead(t *testing.T) {
	s := repoSite(t)
	r := newLineReader(s, "en", nil)
	var in strings.Builder
	for i := 0; in.Len() < 3*batchBytes; i++ {
		fmt.Fprintf(&in, "vm:1:%d [0] NCCL INFO Channel %02d/0 : 0[0] -> 1[1] via P2P/CUMEM\n", i, i%32)
		if i%1000 == 0 {
			in.WriteString("\n[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\r\n")
		}
	}
	in.WriteString(strings.Repeat("peer access is not supported between these two devices ", 3*pieceBytes/50) + "\nlast")
	type call struct {
		n    int
		line string
		lits string
	}
	read := func(ahead bool) (calls []call, longs []int64) {
		each := eachLine
		if ahead {
			each = r.eachLineAhead
		}
		err := each(strings.NewReader(in.String()), func(n int, line []byte) error {
			var lits []string
			if ahead {
				if !r.ahead {
					t.Fatalf("line %d: no literals found ahead", n)
				}
				for _, l := range r.pre {
					lits = append(lits, fmt.Sprint(l))
				}
			} else {
				r.ac.Scan(line, func(l int) { lits = append(lits, fmt.Sprint(l)) })
			}
			sort.Strings(lits)
			calls = append(calls, call{n, string(line), strings.Join(lits, ",")})
			return nil
		}, func(n int, length int64) { longs = append(longs, int64(n), length) })
		if err != nil {
			t.Fatal(err)
		}
		return calls, longs
	}
	want, wantLong := read(false)
	got, gotLong := read(true)
	if len(want) < 3000 || len(wantLong) != 2 {
		t.Fatalf("%d lines, long lines %v: the input is not what the test needs", len(want), wantLong)
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotLong, wantLong) {
		t.Errorf("read ahead: %d lines, long %v; in order: %d lines, long %v", len(got), gotLong, len(want), wantLong)
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("first difference: %+v, want %+v", got[i], want[i])
			}
		}
	}

	stop := errors.New("stop")
	seen := 0
	err := r.eachLineAhead(strings.NewReader(in.String()), func(n int, line []byte) error {
		seen++
		if n == 2000 {
			return stop
		}
		return nil
	}, func(int, int64) {})
	if err != stop || seen != 2000 {
		t.Errorf("fn's error at line 2000: %v after %d lines", err, seen)
	}
	broken := io.MultiReader(strings.NewReader(in.String()[:2*batchBytes]), iotest.ErrReader(stop))
	if err := r.eachLineAhead(broken, func(int, []byte) error { return nil }, func(int, int64) {}); err != stop {
		t.Errorf("the input's error: %v", err)
	}
}

// Read ahead, the extractor reads every line on its own goroutine and finds
// the facts that reading the lines in order finds: here the reference
// node's nvidia-smi outputs and NCCL log, spread over several batches and a
// long line, with filler between them.
func TestEachLineAheadFacts(t *testing.T) {
	s := repoSite(t)
	var in strings.Builder
	filler := func() {
		for i := 0; i < batchBytes/60; i++ {
			fmt.Fprintf(&in, "step %d loss 1.%04d lr 3e-4 throughput 1234 tokens/s\n", i, i)
		}
	}
	for _, name := range []string{"nvidia-smi-q.txt", "nvidia-smi-topo-m.txt", "nccl-allreduce-default.log"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "reference", "h200x4", name))
		if err != nil {
			t.Fatal(err)
		}
		filler()
		in.Write(b)
	}
	in.WriteString(strings.Repeat("x", 2*pieceBytes) + " NCCL version 2.21.5+cuda12.4\n")
	filler()

	read := func(ahead bool) []paste.Fact {
		x := paste.New()
		r := newLineReader(s, "en", x)
		each := eachLine
		if ahead {
			each = r.eachLineAhead
		}
		err := each(strings.NewReader(in.String()), func(n int, line []byte) error {
			r.read(n, line, nil)
			return nil
		}, func(int, int64) {})
		if err != nil {
			t.Fatal(err)
		}
		return x.Facts()
	}
	want, got := read(false), read(true)
	if len(want) < 5 {
		t.Fatalf("%d facts read in order: the input is not what the test needs: %+v", len(want), want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read ahead, facts\n%+v\nin order\n%+v", got, want)
	}
}
