package rules

import (
	"slices"
	"testing"
)

func TestFactsIn(t *testing.T) {
	got, err := FactsIn(`gpu.count < 2 || p2p.all_pairs_ok && env.NCCL_P2P_LEVEL != "gpu.count" && !p2p.all_pairs_ok && true`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gpu.count", "p2p.all_pairs_ok", "env.NCCL_P2P_LEVEL"}; !slices.Equal(got, want) {
		t.Errorf("FactsIn = %v, want %v", got, want)
	}
	if _, err := FactsIn("gpu.count >"); err == nil {
		t.Error("a condition that does not parse gave no error")
	}
	if got, _ := FactsIn(""); got != nil {
		t.Errorf("empty condition: %v", got)
	}
}
