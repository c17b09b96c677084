package diagnose

import (
	"strings"
	"testing"
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
