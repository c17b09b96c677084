package templates

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	long := strings.Repeat("word ", 60)
	for _, c := range []struct{ in, want string }{
		{"Short cause.", "Short cause."},
		{"The peer writes were lost in the PCIe fabric between the two GPUs. The usual cause is the IOMMU.", "The peer writes were lost in the PCIe fabric between the two GPUs."},
		// An abbreviation early on ends no sentence.
		{"E.g. the peer writes were lost in the PCIe fabric between the two GPUs. More.", "E.g. the peer writes were lost in the PCIe fabric between the two GPUs."},
		{"t.to('cuda:1') prints zeros while t.cpu().to('cuda:1') is right", "t.to('cuda:1') prints zeros while t.cpu().to('cuda:1') is right"},
		{long, strings.Repeat("word ", 39) + "word…"},
		{"两块 GPU 之间的复制没有报错，但到达的是零：对端写入在 PCIe 结构中丢失了。通常的原因是 IOMMU。", "两块 GPU 之间的复制没有报错，但到达的是零：对端写入在 PCIe 结构中丢失了。"},
		{strings.Repeat("零", 150), strings.Repeat("零", 100) + "…"},
	} {
		if got := summary(c.in); got != c.want {
			t.Errorf("summary(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
