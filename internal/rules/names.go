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

// DisplayName is how reasons name a fact: "P2P between all GPU pairs".
func DisplayName(fact string) string { return displayName(fact) }

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
	"hang.seen": "运行挂起", "output.wrong": "结果或输出错误",
}

// DisplayNameIn is DisplayName in a language: en or zh. An env.NAME or
// python.NAME fact is named by its NAME.
func DisplayNameIn(fact, lang string) string {
	if lang == "zh" {
		if d, ok := displayNamesZh[fact]; ok {
			return d
		}
		for _, p := range []string{"env.", "python."} {
			if n, ok := strings.CutPrefix(fact, p); ok && n != "" {
				return n
			}
		}
	}
	return displayName(fact)
}
