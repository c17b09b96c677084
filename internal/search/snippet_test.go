package search

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOneLine(t *testing.T) {
	long := "The two GPUs do not support direct peer-to-peer (P2P) memory access, typically due to hardware topology (e.g., different PCIe switches) or disabled P2P in the driver and a few more words to pass the width."
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"Set `NCCL_P2P_DISABLE=1`. Then run it again.", 100, "Set NCCL_P2P_DISABLE=1."},
		{"It fails, e.g. on GeForce cards. Then more.", 100, "It fails, e.g. on GeForce cards."},
		{"Version 2.18. 3 ranks fail.", 100, "Version 2.18."},
		{long, 60, "The two GPUs do not support direct peer-to-peer (P2P)…"},
		{"驱动不允许这两块 GPU 之间的 P2P。第二句。", 100, "驱动不允许这两块 GPU 之间的 P2P。"},
		{"驱动不允许这两块 GPU 之间的点对点访问，通常是因为硬件拓扑", 20, "驱动不允许这两块…"},
		{"[link](https://x.y/z) text", 100, "link text"},
	} {
		got := oneLine(c.in, c.width)
		if got != c.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		if strings.HasSuffix(got, "…") && !utf8.ValidString(got) {
			t.Errorf("oneLine(%q) cut a character: %q", c.in, got)
		}
	}
}
