package rules

import (
	"fmt"
	"strings"
)

// FactsIn lists the facts a condition reads, in order of first use: what
// one would have to find out to decide it.
func FactsIn(src string) ([]string, error) {
	if _, err := Parse(src); err != nil {
		return nil, err
	}
	toks, _ := lex(src)
	var out []string
	seen := map[string]bool{}
	for _, t := range toks {
		if t.kind == "fact" && t.text != "true" && t.text != "false" && !seen[t.text] {
			seen[t.text] = true
			out = append(out, t.text)
		}
	}
	return out, nil
}

// Known tells whether the facts hold a value for name (an NCCL_* variable
// that a probe report or an NCCL_DEBUG=INFO log does not list counts as
// known and unset).
func (f Facts) Known(name string) bool { return f.get(name).known }

// Names lists the facts conditions can read, but for the env.NAME and
// python.NAME families.
func Names() []string { return append([]string(nil), factNames...) }

// Reads lists the facts an expression reads; nil for nil.
func Reads(e Expr) []string {
	if e == nil {
		return nil
	}
	names, _ := FactsIn(e.String())
	return names
}

// Seen is a fact as conditions read it, as text: what decides them, for a
// caller that keeps verdicts by the facts they read. "" when unknown.
func (f Facts) Seen(name string) string {
	v := f.get(name)
	if !v.known {
		return ""
	}
	return fmt.Sprintf("%s:%t:%s:%g", v.kind, v.b, v.s, v.n)
}

// displayNamesZh name facts for Chinese readers, who are shown no fact's
// dotted name.
var displayNamesZh = map[string]string{
	"gpu.count": "GPU 数量", "gpu.arch": "GPU 架构", "p2p.all_pairs_ok": "所有 GPU 对之间的 P2P",
	"p2p.blocked_pairs": "没有 P2P 的 GPU 对", "nvlink.present": "NVLink", "nvswitch.present": "NVSwitch",
	"mig.enabled": "MIG", "virtualized": "虚拟机", "container": "容器", "iommu.enabled": "IOMMU",
	"acs.redirect": "ACS 重定向", "nvml.available": "NVML", "driver.version": "驱动", "cuda.version": "CUDA",
	"cuda.driver": "CUDA（驱动）", "gpu.consumer": "消费级 GPU", "topo.sys_pairs": "跨 CPU 插槽（SYS）的 GPU 对",
	"wsl": "WSL2", "slurm": "Slurm 作业", "iommu.passthrough": "IOMMU 直通", "iommu.faults": "IOMMU 故障",
	"xid.count": "Xid 错误", "xid.nvlink": "NVLink Xid", "nccl.version": "NCCL", "nccl.p2p_used": "NCCL P2P 传输",
	"nccl.transport": "NCCL 传输方式", "nccl.p2p_refused": "NCCL 拒绝 P2P", "p2p.test.ran": "P2P 测试",
	"p2p.test.data_ok": "P2P 数据校验", "p2p.test.failed_pairs": "P2P 测试失败的 GPU 对",
	"p2p.test.slow_pairs": "P2P 不更快的 GPU 对", "p2p.test.ipc_ok": "跨进程 P2P", "p2p.test.timeouts": "超时的 GPU 对",
	"p2p.test.enable_error": "开启对等访问的错误",
	"nccl.tests.wrong":      "nccl-tests 发现的错误值", "nccl.tests.busbw": "nccl-tests 总线带宽（GB/s）",
	"p2p.waived": "P2P 测试被跳过", "gpu.bar1_mib": "BAR1 大小（MiB）", "gpu.bar1_small": "BAR1 小于显存",
	"nccl.stopped_after_init": "日志停在 NCCL 初始化之后", "p2p.copy_zeros": "GPU 间拷贝得到全零",
	"p2p.link_gbs": "链路允许的带宽（GB/s）", "p2p.bw_below_link": "远低于链路带宽的 GPU 对",
	"nccl.tests.busbw_peak": "nccl-tests 峰值总线带宽（GB/s）", "nccl.tests.link_gbs": "GPU 链路单向允许的带宽（GB/s）",
	"nccl.tests.busbw_pct": "nccl-tests 峰值 busbw 占链路的百分比", "nccl.tests.nvlink": "nccl-tests 经 NVLink 运行",
	"nccl.tests.small_sizes": "nccl-tests 的数据量太小，达不到峰值带宽",
	"hang.seen":              "运行挂起", "output.wrong": "结果或输出错误",
}

// DisplayIn is Display in a language: en or zh.
func DisplayIn(fact, lang string) string {
	if d, ok := displayNamesZh[fact]; ok && lang == "zh" {
		return d
	}
	return Display(fact)
}

// reasonPhrasesZh are the whole reasons facts give of themselves (their
// yes and no), in Chinese; what follows them (the pairs, an error) stays.
var reasonPhrasesZh = [][2]string{
	{"P2P works between all GPU pairs", "所有 GPU 对之间 P2P 可用"},
	{"P2P blocked", "P2P 被阻断"},
	{"P2P test did not run", "P2P 测试没有运行"},
	{"P2P test ran", "P2P 测试已运行"},
	{"cross-process P2P works", "跨进程 P2P 可用"},
	{"cross-process P2P failed", "跨进程 P2P 失败"},
	{"every copy arrived intact", "每次拷贝的数据都完好"},
	{"data arrived wrong", "数据到达时出错"},
	{" (the test did not run", "（测试没有运行"},
}

// ReasonIn words a verdict's reason for a reader of lang: in Chinese, the
// fact's name and the words Eval puts around it (unknown, present, no,
// is); the values themselves (versions, pairs, strings) stay as read.
func ReasonIn(reason, lang string) string {
	if lang != "zh" {
		return reason
	}
	switch {
	case strings.HasSuffix(reason, " unknown"):
		return nameZh(strings.TrimSuffix(reason, " unknown")) + " 未知"
	case strings.HasSuffix(reason, " present"):
		return "有 " + nameZh(strings.TrimSuffix(reason, " present"))
	case strings.HasPrefix(reason, "no "):
		return "没有 " + nameZh(strings.TrimPrefix(reason, "no "))
	}
	return strings.Replace(nameZh(reason), " is ", " 为 ", 1)
}

// nameZh puts the Chinese name for the fact an English reason starts with.
func nameZh(s string) string {
	for _, p := range reasonPhrasesZh {
		if rest, ok := strings.CutPrefix(s, p[0]); ok {
			return p[1] + rest
		}
	}
	best, zh := "", ""
	for fact, en := range displayNames {
		if len(en) > len(best) && (s == en || strings.HasPrefix(s, en+" ")) {
			if z, ok := displayNamesZh[fact]; ok {
				best, zh = en, z
			}
		}
	}
	if best == "" {
		return s
	}
	rest := s[len(best):]
	for _, p := range reasonPhrasesZh {
		rest = strings.Replace(rest, p[0], p[1], 1)
	}
	return zh + rest
}
