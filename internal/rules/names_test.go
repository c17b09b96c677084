package rules

import (
	"slices"
	"strings"
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

// Every fact has a name in each language, and Chinese readers see no
// dotted or snake_case name.
func TestDisplayIn(t *testing.T) {
	for _, n := range factNames {
		zh := DisplayIn(n, "zh")
		if _, ok := displayNames[n]; !ok {
			t.Errorf("%s has no English name", n)
		}
		if zh == n || strings.ContainsAny(zh, "._") {
			t.Errorf("%s is named %q in Chinese", n, zh)
		}
	}
	for _, c := range []struct{ fact, lang, want string }{
		{"env.NCCL_P2P_LEVEL", "zh", "NCCL_P2P_LEVEL"},
		{"env.NCCL_P2P_LEVEL", "en", "NCCL_P2P_LEVEL"},
		{"python.torch", "en", "torch"},
		{"p2p.all_pairs_ok", "en", "P2P between all GPU pairs"},
		{"env.", "en", "env."},
	} {
		if got := DisplayIn(c.fact, c.lang); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.fact, c.lang, got, c.want)
		}
	}
}

// The first output that names a fact shows it; a fact no output shows has
// none.
func TestPasteFor(t *testing.T) {
	for fact, want := range map[string]string{
		"p2p.blocked_pairs": "nvidia-smi topo -p2p r", "topo.sys_pairs": "nvidia-smi topo -m", "cuda.driver": "nvidia-smi",
		"nccl.version": "NCCL_DEBUG=INFO", "env.NCCL_P2P_LEVEL": "NCCL_DEBUG=INFO", "env.CUDA_VISIBLE_DEVICES": "",
		"xid.nvlink": "sudo dmesg", "p2p.test.data_ok": "p2pBandwidthLatencyTest", "python.torch": "pip list", "virtualized": "",
	} {
		if got := PasteFor(fact); got != want {
			t.Errorf("PasteFor(%s) = %q, want %q", fact, got, want)
		}
	}
}
