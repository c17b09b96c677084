package diagnose

import (
	"strings"
	"testing"
)

// A release read from the paste (NCCL's line, collect_env, or said in
// words) and the GPUs' generation read from their names pick the
// workaround of that release: the row whose condition holds comes first,
// and a row for another release does not apply.
func TestReleaseRowsFirst(t *testing.T) {
	for _, c := range []struct {
		name, in, cause string
		first           string // words of the first workaround
		notApplies      string // words of a workaround that must not apply
	}{
		{"NCCL 2.4.2 and a hang, said in words (NVIDIA/nccl#311)",
			"We integrate NCCL 2.4.2 in our framework and `ncclAllGather` hangs after training for at least one day which could be reproduced.\n",
			"nccl/release-with-known-hang", "NCCL 2.4.0 to 2.4.6", "NCCL 2.7.0 to 2.8.3"},
		{"PyTorch 2.7.0 from collect_env and a hang (pytorch/pytorch#153960)",
			"Passing `device_id` to `torch.distributed.init_process_group()` results in NCCL randomly hanging during communications\nPyTorch version: 2.7.0+cu126\n",
			"nccl/release-with-known-hang", "TORCH_NCCL_USE_COMM_NONBLOCKING=0", ""},
		{"NCCL 2.25.1 on two RTX 5090 and no kernel image (lines of NVIDIA/nccl-tests#287 and #79)",
			"#  Rank  0 Group  0 Pid   4766 on   GENOA-06 device  0 [0x21] NVIDIA GeForce RTX 5090\nGENOA-06:4766:4766 [0] NCCL INFO NCCL version 2.25.1+cuda12.8\nTest CUDA failure common.cu:253 'no kernel image is available for execution on the device'\n",
			"cuda/no-kernel-image-for-device", "NCCL before 2.26.2", "On Ampere"},
		{"NCCL's 'invalid device function' (pytorch/pytorch#554)",
			"`Cuda failure src/broadcast.cu:144 'invalid device function'`\n",
			"cuda/no-kernel-image-for-device", "", ""},
	} {
		d := explainJSON(t, c.in)
		var found *Cause
		for i := range d.Messages {
			if cs := d.Messages[i].Causes; len(cs) > 0 && cs[0].ID == c.cause {
				found = &cs[0]
				break
			}
		}
		if found == nil {
			t.Errorf("%s: no message with %s first", c.name, c.cause)
			continue
		}
		if c.first != "" && (len(found.Workarounds) == 0 || !strings.Contains(found.Workarounds[0].Text, c.first) || found.Workarounds[0].Verdict != "applies") {
			t.Errorf("%s: first workaround %+v, want the one with %q, applying", c.name, found.Workarounds[0], c.first)
		}
		for _, w := range found.Workarounds {
			if c.notApplies != "" && strings.Contains(w.Text, c.notApplies) && w.Verdict == "applies" {
				t.Errorf("%s: %q applies", c.name, w.Text)
			}
		}
	}
}

// The release table reads the version as NCCL prints it, with the CUDA it
// was built for (VERSION_STRING in NCCL's src/init.cc), not as a
// framework's error quotes it, whose own entry answers. Both lines are
// written in the shape those programs print.
func TestReleaseTableReadsNCCLsOwnLine(t *testing.T) {
	has := func(in string) bool {
		for _, m := range explainJSON(t, in).Messages {
			for _, c := range m.Causes {
				if c.ID == "nccl/release-with-known-hang" {
					return true
				}
			}
		}
		return false
	}
	if !has("ip-10-0-1-10:2843:2843 [0] NCCL INFO NCCL version 2.4.8+cuda10.1\n") {
		t.Error("NCCL's own version line of a release of the table: not read")
	}
	if has("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:784, unhandled system error, NCCL version 2.7.8\n") {
		t.Error("a framework's quote of the version read as NCCL's own line")
	}
}
