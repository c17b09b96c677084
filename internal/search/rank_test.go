package search

import "testing"

// A wrapper (a match that is an NCCL result alone) ranks below every entry
// that names what failed, generic or not, whatever their lengths; the facts
// still come first.
func TestBeforeWrapper(t *testing.T) {
	wrapper := Candidate{ID: "nccl/unhandled-cuda-error", Tier: 1, Wrapper: true, Match: 200, Reports: 9}
	specific := Candidate{ID: "nccl/nvls-cuda-failure", Tier: 1, Match: 10}
	generic := Candidate{ID: "cuda/x", Tier: 1, Generic: true, Match: 5}
	if !Before(specific, wrapper) || Before(wrapper, specific) || !Before(generic, wrapper) {
		t.Error("a wrapper ranks above an entry that names the failure")
	}
	holds := wrapper
	holds.Tier = 0
	if !Before(holds, specific) {
		t.Error("a wrapper whose conditions hold ranks below an unknown cause")
	}
	// The index's score keeps the same order.
	if patternScore("unhandled cuda error", false, 9, 0.9) >= patternScore("peer access is not supported", true, 0, 0.1) {
		t.Error("patternScore ranks a wrapper's match above a generic entry's")
	}
}
