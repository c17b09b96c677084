package paste

import (
	"os"
	"reflect"
	"testing"

	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/probe/facts"
)

func h200Probe(t *testing.T) rules.Facts {
	t.Helper()
	f, err := os.Open("../../probe/testdata/real/h200x2.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rules.FromReport(r)
}

// The probe's facts win; the paste fills in what the probe cannot see, and
// every disagreement is listed with the line of the paste.
func TestMerge(t *testing.T) {
	pasted := Extract("vm:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n" +
		"torch 2.11.0+cu130 cuda 13.0 devices 2\n" +
		"vm:1:1 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n" +
		"GPU0\tGPU1\nGPU0\t X \tPHB\nGPU1\tPHB\t X \n")
	merged, conflicts := Merge(h200Probe(t), pasted)
	want := []Conflict{{Name: "nccl.version", Log: "2.18.1", Probe: "2.28.9", Line: 1}, {Name: "nvlink.present", Log: "false", Probe: "true", Line: 4}}
	if !reflect.DeepEqual(conflicts, want) {
		t.Errorf("conflicts %+v, want %+v", conflicts, want)
	}
	for when, truth := range map[string]string{
		"nvlink.present":                   "applies", // the probe's NV18 wins over the paste's PHB
		"nvlink.present && !nccl.p2p_used": "applies", // nccl.p2p_used only the paste knows
		"nccl.transport == \"SHM\"":        "applies",
		"python.torch >= 2.11":             "applies",
		"gpu.count > 2":                    "does_not_apply", // both say 2
	} {
		v, err := rules.Applies(nil, when, merged)
		if err != nil || v.Truth.String() != truth {
			t.Errorf("%s: %v %v, want %s", when, v, err, truth)
		}
	}
	if _, c := Merge(nil, pasted); len(c) != 0 {
		t.Errorf("no probe, conflicts %v", c)
	}
}
