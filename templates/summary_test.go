package templates

import (
	"regexp"
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

// A gist cut inside a code span or a link ends before it, so that the
// Markdown it is rendered from leaves nothing open.
func TestGist(t *testing.T) {
	words := strings.Repeat("word ", 36)
	for _, c := range []struct{ in, want string }{
		{"The copy fails unless `torch.cuda.set_device(rank)` runs before the group starts. More.", "The copy fails unless `torch.cuda.set_device(rank)` runs before the group starts."},
		{words + "then `a_very_long_function_name_that_is_cut(x)` returns.", words + "then…"},
		{words + "see [the NCCL documentation](https://docs.nvidia.com/x) for more", strings.TrimSpace(words) + " see…"},
		{words + "word word `done` and more words after it", words + "word word `done`…"},
	} {
		if got := gist(c.in); got != c.want {
			t.Errorf("gist(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// A plain text's files, paths and identifiers are told from its words.
func TestLiteralParts(t *testing.T) {
	for _, c := range []struct {
		in   string
		code []string
	}{
		{"无法初始化 GPU 测试：加载模块出错（gpu_burn-drv.cpp:243）：提供的 PTX 由不受支持的工具链编译。", []string{"gpu_burn-drv.cpp:243"}},
		{"os/linux_ipcsocket.cc:233 NCCL 警告：通过套接字 /tmp/nccl-socket-1 发送数据失败", []string{"os/linux_ipcsocket.cc:233", "/tmp/nccl-socket-1"}},
		{"跳过 device_to_device_memcpy_write_ce 测试。", []string{"device_to_device_memcpy_write_ce"}},
		{"见 kb/repro/ipc_errors.cu.", []string{"kb/repro/ipc_errors.cu"}},
		{"A / B, and nothing else", nil},
		{"transport.cc:39 NCCL 警告：找不到传输", []string{"transport.cc:39"}},
		{"NCCL 会打印完整的一句（“... to enable this configuration.”）。", []string{"... to enable this configuration."}},
		{`它打印 "Duplicate GPU detected"，而非“重复”。`, []string{"Duplicate GPU detected"}},
	} {
		var code []string
		var whole string
		for _, p := range LiteralParts(c.in) {
			whole += p.Text
			if p.Code {
				code = append(code, p.Text)
			}
		}
		if whole != c.in {
			t.Errorf("LiteralParts(%q) lost text: %q", c.in, whole)
		}
		if strings.Join(code, "|") != strings.Join(c.code, "|") {
			t.Errorf("LiteralParts(%q) code %q, want %q", c.in, code, c.code)
		}
	}
}

// stripTags removes what the pattern <[^>]*> removes, a < that no > follows
// included.
func TestStripTags(t *testing.T) {
	tags := regexp.MustCompile(`<[^>]*>`)
	for _, s := range []string{
		"", "plain", "<code>x</code> and <a href=\"u\">y</a>", "a < b", "a < b <code>c</code>",
		"<code>x</code> <", "<<>>", "> a <", "x <em>y</em> z &amp; <", "<", ">",
	} {
		if got, want := stripTags(s), tags.ReplaceAllString(s, ""); got != want {
			t.Errorf("stripTags(%q) = %q, want %q", s, got, want)
		}
	}
}
