package rules

import (
	"slices"
	"testing"
)

// Holding names the facts of the part of a condition that holds, so that a
// fact read only in a clause that does not hold is not counted as read:
// pytorch/collective-mismatch-across-ranks reads run.training only beside
// a hang said or shown, not beside a log that stops after NCCL's set-up.
func TestHolding(t *testing.T) {
	const cond = "nccl.stopped_after_init || hang.seen || (hang.seen || hang.said) && run.training"
	e, err := Parse(cond)
	if err != nil {
		t.Fatal(err)
	}
	yes, no := boolean(true, ""), boolean(false, "")
	for _, c := range []struct {
		name  string
		facts Facts
		want  []string
	}{
		{"a log that stops, in training", Facts{"nccl.stopped_after_init": yes, "run.training": yes}, []string{"nccl.stopped_after_init"}},
		{"a hang shown, in training", Facts{"hang.seen": yes, "run.training": yes}, []string{"hang.seen", "run.training"}},
		{"a hang shown, not in training", Facts{"hang.seen": yes, "run.training": no}, []string{"hang.seen"}},
		{"nothing that holds", Facts{"run.training": yes}, nil},
	} {
		got := Holding(e, c.facts)
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: Holding = %v, want %v", c.name, got, want)
		}
	}
}
