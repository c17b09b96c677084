package diagnose

import (
	"os"
	"strings"
	"testing"
)

// nccl-tests' busbw is judged against the link the paste shows: near one
// direction of NVLink it is what the hardware gives (the note on expected
// bandwidth), a quarter of it or less is a slow path (the entries on P2P
// bandwidth), and a run across hosts or without the GPUs is not judged.
func TestNCCLTestsBandwidth(t *testing.T) {
	read := func(names ...string) string {
		var b strings.Builder
		for _, n := range names {
			data, err := os.ReadFile("../paste/testdata/" + n)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
		return b.String()
	}
	// The table of the BM.GPU.H100.8 NCCL Tests tutorial of
	// oracle-japan/ocitutorials (peak busbw 464.79 GB/s), without its Rank
	// lines, which name two hosts.
	oci := strings.Split(read("nccl-tests-h100-2node.txt"), "\n")
	h100Table := strings.Join(oci[20:31], "\n") + "\n"
	for _, c := range []struct {
		name, in string
		want     []string // the causes of the first error message, in order; none for no message
	}{
		{"464.8 GB/s on two GPUs joined by NV18 (450 GB/s each way): expected",
			read("h200x2-topo-m.txt") + h100Table, []string{"nccl/nccl-tests-busbw-below-line-rate"}},
		{"97.5 GB/s on two GPUs joined by NV18: far below (rows: NVIDIA/nccl-tests#252)",
			read("h200x2-topo-m.txt", "nccl-tests-ring-busbw.txt"), []string{"nccl/p2p-off-shm-transport", "cuda/p2p-bandwidth-below-link"}},
		{"97.5 GB/s on GPUs named NVIDIA H200 by nvidia-smi -q: far below",
			read("h200x2-nvidia-smi-q.txt", "nccl-tests-ring-busbw.txt"), []string{"nccl/p2p-off-shm-transport", "cuda/p2p-bandwidth-below-link"}},
		{"a run across two hosts is not judged against NVLink",
			read("nccl-tests-h100-2node.txt"), nil},
		{"a run that stops at 8 bytes on 8 RTX 4090 (NVIDIA/nccl#1530): too small for peak",
			read("nccl-tests-4090x8-small.txt"), []string{"nccl/nccl-tests-busbw-below-line-rate"}},
		{"the table alone, with no GPU or link, is not judged",
			read("nccl-tests-ring-busbw.txt"), nil},
	} {
		d := explainJSON(t, c.in)
		var got []string
		for _, m := range d.Messages {
			if m.Severity != "error" {
				continue
			}
			for _, cs := range m.Causes {
				if cs.Verdict != "applies" {
					t.Errorf("%s: %s is %s", c.name, cs.ID, cs.Verdict)
				}
				got = append(got, cs.ID)
			}
			break
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: causes %v, want %v", c.name, got, c.want)
		}
	}
}
