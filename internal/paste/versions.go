package paste

import (
	"math/bits"
	"strings"

	"github.com/p2pkb/p2pkb/internal/rules"
)

// Versions as people write them rather than as a tool prints them: "NCCL
// version: v2.4.2 for cuda10", "NCCL版本为2.21.5" (a Chinese page's "NCCL's
// version is"), "I am using NCCL 2.5.6-2", "NCCL version:
// (2, 21, 5)" (torch.cuda.nccl.version()), "libnccl2=2.4.2-1+cuda10.0",
// dpkg's and conda's listings, "nvidia-nccl-cu12 2.20.5" as pip list shows
// it, "torch 2.7.0", "PyTorch 2.3.0". Reports tell a version story (a hang
// in a release that a later one fixed, a library too old for the GPU), and
// these are how the story names the release. Each is set below what a tool
// prints: NCCL's own INFO line and PyTorch's error or collect_env win.

var (
	// The name, then an optional "version", separators (is, :, =, ==), then
	// three numbers joined by dots, or by commas in Python's tuple. The
	// name stands alone: NCCL_VERSION_CODE, libnccl.so.2.18.1,
	// /opt/nccl/2.18 and nccl_2.18.3-1+cuda12.2.txz are not it, and a CUDA
	// version (+cuda12.2) follows the number rather than the name.
	reNCCLSaid  = pattern("ncclSaid", `(?i)(?:^|[^\w/.\-])(?:lib)?nccl2?(?:[ \t]{1,3}version|[ \t]{0,2}版本号?)?(?:[ \t]{0,3}(?:is|was|==|=|:|：|为|是)){0,2}[ \t]{0,40}\(?[ \t]{0,2}v?([1-3])[.,][ \t]{0,2}(\d{1,2})[.,][ \t]{0,2}(\d{1,3})\b`)
	reTorchSaid = pattern("torchSaid", `(?i)(?:^|[^\w/.\-])(?:py)?torch(?:[ \t]{1,3}version| ?版本号?)?(?:[ \t]{0,3}(?:is|was|==|=|:|：|为|是)){0,2}[ \t]{0,40}v?([0-9]\.\d{1,2}\.\d{1,3}(?:\.dev\d{1,8}|a0|rc\d)?(?:\+[a-z0-9.]{1,16})?)\b`)
	// pip list and collect_env's [conda] lines name NCCL's wheel without
	// "==": "nvidia-nccl-cu12 2.20.5", "[conda] nvidia-nccl-cu12 2.20.5 pypi_0 pypi".
	rePipNCCLList = pattern("pipNCCLList", `\bnvidia-nccl-cu\d{2}[ \t]{1,40}(\d{1,2}\.\d{1,3}\.\d{1,3})\b`)
	// Another version right after the one read ("NCCL 2.4.2 2.5.6",
	// "tested 2.27.5, 2.30.4", "2.18.1 -> 2.19.3"): only a separator or a
	// joining word between them, so that "+cuda11.0" or "and CUDA 12.1.0"
	// is not one.
	reVersionMore = pattern("versionMore", `(?i)^[\w.+\-]{0,24}(?:[ \t]{1,3}|[ \t]{0,3}(?:,|/|\(|;)[ \t]{0,3})(?:(?:and|or|vs\.?|->|to|then|nccl|torch|pytorch)[ \t]{1,3}){0,2}\(?v?(\d{1,2}\.\d{1,2}\.\d{1,3})\b`)
)

// The GPUs' generation from their names, as nvidia-smi, collect_env,
// nccl-tests and people write them ("NVIDIA H100 80GB HBM3", "GeForce RTX
// 5090", "8x A100"): each name gives the architecture p2p-probe reports
// (NVML's), by the compute capability the GPU has (A100/A800/A30 sm_80,
// RTX 30/A40/A6000 sm_86, L40/RTX 40 sm_89, H100/H200/H800/H20 sm_90,
// B200 sm_100, RTX 50/RTX PRO 6000 sm_120). A library built before the
// generation has no kernels for it: the conditions of the no-kernel-image
// entries read the architecture beside the NCCL or PyTorch version.
var (
	reGPUAmpere = pattern("gpuAmpere", `\b(?:A100|A800|A30|A40|A10|A16)(?:[- ]?(?:SXM\d?|PCIE|PCIe|\d{2}GB))?\b|\bRTX A\d{4}\b|\b(?:RTX|GeForce) ?30[5-9]0(?: ?Ti)?\b|\b30[5-9]0 ?Ti\b|\b(?:NVIDIA|[Nn]vidia|\d ?[x*]) ?30[5-9]0\b`)
	reGPUAda    = pattern("gpuAda", `\bL40S?\b|\b(?:NVIDIA|Tesla|\d ?[x*]|GPU:?) ?L(?:4|20)\b|\bL(?:4|20) GPUs?\b|\bRTX \d{4} Ada\b|\b(?:RTX|GeForce) ?40[5-9]0(?: ?Ti)?\b|\b(?:NVIDIA|[Nn]vidia|\d ?[x*]) ?40[5-9]0\b`)
	reGPUHopper = pattern("gpuHopper", `\b(?:H100|H200|H800|H20|GH200)\b`)
	// The data-centre names among them, GeForce never: a paste that names
	// one ("2 H800 servers") is not about GeForce cards, unless it names
	// one as well.
	reGPUDataCentre = pattern("gpuDataCentre", `\b(?:A100|A800|A30|A40|A10|A16|H100|H200|H800|H20|GH200|B200|B100|B300|GB200|GB300|L40S?|L20)\b`)
	reGPUBlackwell  = pattern("gpuBlackwell", `\b(?:B200|B100|B300|GB200|GB300|GB10)\b|\bRTX PRO [456]000\b|\b(?:RTX|GeForce) ?50[5-9]0(?: ?Ti)?\b|\b(?:NVIDIA|[Nn]vidia|\d ?[x*]) ?50[5-9]0\b`)
)

// gpuArchs are the architectures in the order gpuArchBits numbers them,
// each with the words, as written, one of which every match of its pattern
// holds: a line is matched only against the patterns whose words it holds,
// for a log names the same GPU on every line of a repeated block.
var gpuArchs = []struct {
	name  string
	re    *lazyRegexp
	words []string
}{
	{"ampere", reGPUAmpere, []string{"A100", "A800", "A30", "A40", "A10", "A16", "RTX A", "3050", "3060", "3070", "3080", "3090"}},
	{"ada", reGPUAda, []string{"L40", "L4", "L20", "Ada", "4050", "4060", "4070", "4080", "4090"}},
	{"hopper", reGPUHopper, []string{"H100", "H200", "H800", "H20", "GH200"}},
	{"blackwell", reGPUBlackwell, []string{"B200", "B100", "B300", "GB200", "GB300", "GB10", "RTX PRO", "5050", "5060", "5070", "5080", "5090"}},
}

// gpuNameWords are the words, as written, one of which every match of the
// gpu* patterns holds. NCCL's own lines name no GPU model.
var gpuNameWords = func() []string {
	var out []string
	for _, a := range gpuArchs {
		out = append(out, a.words...)
	}
	return out
}()

// gpuArchLine notes the architectures GPU names on stripped line s give.
func (x *Extractor) gpuArchLine(s string, n int, raw string) {
	if !containsAny(s, gpuNameWords...) || strings.Contains(s, "NCCL INFO") {
		return
	}
	if g := &x.gpuArch; len(g.read) < maxNameLines {
		if g.read == nil {
			g.read = map[string]bool{}
		}
		g.read[raw] = true
	}
	for i, a := range gpuArchs {
		if x.gpuArch.seen&(1<<i) == 0 && containsAny(s, a.words...) && a.re.MatchString(s) {
			x.gpuArch.seen |= 1 << i
			x.gpuArch.first.mark(n, raw)
		}
	}
	if !x.gpuArch.dc.set && reGPUDataCentre.MatchString(s) {
		x.gpuArch.dc.mark(n, raw)
	}
}

// maxNameLines bounds the lines naming a GPU that are kept to know them
// again (see done).
const maxNameLines = 64

// gpuArchFacts gives gpu.arch: the architecture when the names give one,
// "mixed" when they give several, as p2p-probe reports it; below what the
// probe reads from NVML.
func (x *Extractor) gpuArchFacts() {
	g := &x.gpuArch
	// Below the names nvidia-smi and the GeForce reader read (paste.go).
	x.setEvent("gpu.consumer", "bool", "false", 0, g.dc, "GPU name")
	switch bits.OnesCount8(g.seen) {
	case 0:
	case 1:
		x.setEvent("gpu.arch", "str", gpuArchs[bits.TrailingZeros8(g.seen)].name, 0, g.first, "GPU name")
	default:
		x.setEvent("gpu.arch", "str", "mixed", 0, g.first, "GPU name")
	}
}

// ncclSaidWords and torchSaidWords are the words, as written, one of which
// every line the readers act on holds. "NCCL " alone is in every line NCCL
// prints (NCCL INFO), so the words carry what follows the name.
var (
	ncclSaidWords = func() []string {
		var out []string
		for _, n := range []string{"NCCL", "nccl", "Nccl"} {
			for _, t := range []string{" 1.", " 2.", " 3.", " v2", " V2", ": ", ":2", "=2", "==", " (2", " is", " version", " Version", " VERSION", "  ", "\t", "版本", " 版本"} {
				out = append(out, n+t)
			}
		}
		return append(out, "libnccl2", "LIBNCCL2", "nvidia-nccl-cu")
	}()
	torchSaidWords = []string{"torch ", "torch=", "torch:", "Torch ", "Torch=", "Torch:", "TORCH ", "PyTorch version", "torch版本", "Torch版本", "TORCH版本"}
)

// versionProse reads stripped line s for versions said in words.
func (x *Extractor) versionProse(s string, n int, raw string) {
	if !containsAny(s, ncclSaidWords...) {
		// nothing of NCCL's
	} else if strings.Contains(s, "NCCL INFO") || strings.Contains(s, "NCCL WARN") {
		// NCCL's own lines are read by ncclLine.
	} else {
		if m := reNCCLSaid.FindStringSubmatchIndex(s); m != nil && x.prio["nccl.version"] < 1 {
			v := s[m[2]:m[3]] + "." + trimNum(s[m[4]:m[5]]) + "." + trimNum(s[m[6]:m[7]])
			if single(s[m[1]:], v) {
				x.set("nccl.version", "version", v, 0, n, raw, Said)
			}
		}
		if m := rePipNCCLList.FindStringSubmatchIndex(s); m != nil && x.prio["python.nccl"] < 1 && single(s[m[1]:], s[m[2]:m[3]]) {
			x.set("python.nccl", "version", s[m[2]:m[3]], 0, n, raw, "pip")
		}
	}
	if x.prio["python.torch"] < 1 && containsAny(s, torchSaidWords...) {
		if m := reTorchSaid.FindStringSubmatchIndex(s); m != nil && single(s[m[3]:], s[m[2]:m[3]]) {
			x.set("python.torch", "version", s[m[2]:m[3]], 0, n, raw, Said)
		}
	}
}

// single says whether rest, the line after version v was read, names no
// other version of the same thing. A line that names two ("NCCL 2.27.5,
// 2.30.4 tested", "nccl version: 2.4.2 2.5.6") is a comparison:
// which is the one in use is not said, and the first is as often the one
// that works as the one that fails, so such a line gives none rather than
// a version a known bug would then be judged by. The same version said
// twice is one.
func single(rest, v string) bool {
	for i := 0; i < 4 && rest != ""; i++ {
		m := reVersionMore.FindStringSubmatchIndex(rest)
		if m == nil {
			return true
		}
		if other := rest[m[2]:m[3]]; rules.CompareVersions(other, v) != 0 {
			return false
		}
		rest = rest[m[1]:]
	}
	return true
}
