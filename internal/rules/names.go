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

// words are a name or a reason in each language of the site.
type words struct{ en, zh string }

// displayNames name facts in reasons, in English and for Chinese readers,
// who are shown no fact's dotted name.
var displayNames = map[string]words{
	"gpu.count":               {"GPU count", "GPU 数量"},
	"gpu.arch":                {"GPU architecture", "GPU 架构"},
	"p2p.all_pairs_ok":        {"P2P between all GPU pairs", "所有 GPU 对之间的 P2P"},
	"p2p.blocked_pairs":       {"pairs without P2P", "没有 P2P 的 GPU 对"},
	"nvlink.present":          {"NVLink", "NVLink"},
	"nvswitch.present":        {"NVSwitch", "NVSwitch"},
	"mig.enabled":             {"MIG", "MIG"},
	"virtualized":             {"virtual machine", "虚拟机"},
	"container":               {"container", "容器"},
	"iommu.enabled":           {"IOMMU", "IOMMU"},
	"acs.redirect":            {"ACS redirect", "ACS 重定向"},
	"nvml.available":          {"NVML", "NVML"},
	"driver.version":          {"driver", "驱动"},
	"cuda.version":            {"CUDA", "CUDA"},
	"cuda.build":              {"CUDA of the build", "构建所用的 CUDA"},
	"cuda.driver":             {"CUDA (driver)", "CUDA（驱动）"},
	"gpu.consumer":            {"consumer GPU", "消费级 GPU"},
	"gpu.amd":                 {"AMD GPU (Radeon, Instinct)", "AMD GPU（Radeon、Instinct）"},
	"collectives.differ":      {"ranks waiting in different collectives", "各 rank 在等待不同的集合通信"},
	"topo.sys_pairs":          {"pairs across CPU sockets (SYS)", "跨 CPU 插槽（SYS）的 GPU 对"},
	"wsl":                     {"WSL2", "WSL2"},
	"slurm":                   {"Slurm job", "Slurm 作业"},
	"iommu.passthrough":       {"IOMMU passthrough", "IOMMU 直通"},
	"iommu.faults":            {"IOMMU faults", "IOMMU 故障"},
	"xid.count":               {"Xid errors", "Xid 错误"},
	"xid.nvlink":              {"NVLink Xid", "NVLink Xid"},
	"nccl.version":            {"NCCL", "NCCL"},
	"nccl.p2p_used":           {"NCCL P2P transport", "NCCL P2P 传输"},
	"nccl.transport":          {"NCCL transport", "NCCL 传输方式"},
	"nccl.p2p_refused":        {"NCCL P2P refused", "NCCL 拒绝 P2P"},
	"p2p.test.ran":            {"P2P test", "P2P 测试"},
	"p2p.test.data_ok":        {"P2P data check", "P2P 数据校验"},
	"p2p.test.failed_pairs":   {"pairs failing the P2P test", "P2P 测试失败的 GPU 对"},
	"p2p.test.slow_pairs":     {"pairs where P2P is not faster", "P2P 不更快的 GPU 对"},
	"p2p.test.ipc_ok":         {"cross-process P2P", "跨进程 P2P"},
	"p2p.test.timeouts":       {"pairs timed out", "超时的 GPU 对"},
	"p2p.test.enable_error":   {"peer access error", "开启对等访问的错误"},
	"nccl.tests.wrong":        {"values nccl-tests found wrong", "nccl-tests 发现的错误值"},
	"nccl.tests.busbw":        {"nccl-tests bus bandwidth (GB/s)", "nccl-tests 总线带宽（GB/s）"},
	"p2p.waived":              {"P2P test waived", "P2P 测试被跳过"},
	"gpu.bar1_mib":            {"BAR1 size (MiB)", "BAR1 大小（MiB）"},
	"gpu.bar1_small":          {"BAR1 smaller than GPU memory", "BAR1 小于显存"},
	"nccl.stopped_after_init": {"log stops after NCCL set-up", "日志停在 NCCL 初始化之后"},
	"hang.at_init":            {"the run hangs at the process group's set-up", "运行卡在进程组初始化"},
	"hang.later":              {"the run hangs after it made progress", "运行在已有进展之后才卡住"},
	"hang.first":              {"the run said to hang at the first collective or step, or before it starts", "据称运行在第一次集合通信或第一步就挂起，或根本没有开始"},
	"ranks.diverge":           {"the ranks take different paths (uneven batches, rank 0 only)", "各 rank 走不同的路径（批次不均、仅 rank 0 执行）"},
	"launch.master_loopback":  {"a launch over several nodes whose master address is the local host (127.0.0.1)", "多节点启动的主节点地址写成了本机回环地址"},
	"gpu.unwanted_use":        {"memory or work on GPUs other than the one chosen, said in words", "据称显存或计算落在了所选之外的 GPU 上"},
	"devices.mixed":           {"tensors said to be on different devices", "据称张量不在同一个设备上"},
	"gpu.first_only":          {"works on the first GPU and fails on another, said in words", "据称在第一块 GPU 上正常、在另一块上失败"},
	"run.training":            {"a training run (training, epochs, a loss, fine-tuning), said or shown", "训练任务（训练、epoch、损失、微调），据称或见于日志"},
	"train.metric_by_gpus":    {"training said or shown to reach another accuracy or loss on several GPUs than on one, or as many steps an epoch", "据称或显示多卡训练的精度或损失与单卡不同，或每个 epoch 的步数相同"},
	"launch.second_job":       {"a second job said to run on the same machine", "据称在同一台机器上运行第二个作业"},
	"storage.node_local":      {"files one node wrote that another node cannot see (no storage shared between the nodes), said in words", "据称一个节点写的文件另一个节点看不到（节点之间没有共享存储）"},
	"p2p.off_works":           {"the run said to work with NCCL's P2P turned off (NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL)", "据称关闭 NCCL 的 P2P 后运行正常"},
	"nodes.multi_only":        {"the run works on one node and fails across nodes", "单机可以运行，跨节点时失败"},
	"output.close":            {"results that differ by rounding-sized amounts, or said to differ between one GPU and several", "结果只差舍入量级，或据说在单卡与多卡之间不同"},
	"host.power_loss":         {"the whole machine reboots, powers off or locks up under load", "整机在负载下重启、断电或死机"},
	"gpu.lost":                {"a GPU lost, fallen off the bus or gone from the machine, said in words", "据称某块 GPU 丢失、从总线上掉线或从机器中消失"},
	"memory.oom":              {"GPU memory said to run out (OOM), in words", "据称 GPU 显存不足（OOM）"},
	"pcie.riser":              {"riser or extension cable", "转接线或延长线"},
	"model.split":             {"a model split over several GPUs (device_map)", "模型拆分到多块 GPU 上"},
	"p2p.copy_zeros":          {"GPU-to-GPU copy came back as zeros", "GPU 间拷贝得到全零"},
	"p2p.link_gbs":            {"what the link allows (GB/s)", "链路允许的带宽（GB/s）"},
	"p2p.bw_below_link":       {"pairs far below their link", "远低于链路带宽的 GPU 对"},
	"nccl.tests.busbw_peak":   {"nccl-tests peak bus bandwidth (GB/s)", "nccl-tests 峰值总线带宽（GB/s）"},
	"nccl.tests.link_gbs":     {"what the GPUs' link allows each way (GB/s)", "GPU 链路单向允许的带宽（GB/s）"},
	"nccl.tests.busbw_pct":    {"nccl-tests peak busbw, % of the link", "nccl-tests 峰值 busbw 占链路的百分比"},
	"nccl.tests.nvlink":       {"nccl-tests ran over NVLink", "nccl-tests 经 NVLink 运行"},
	"nccl.tests.small_sizes":  {"nccl-tests sizes too small for peak bandwidth", "nccl-tests 的数据量太小，达不到峰值带宽"},
	"hang.seen":               {"the run hangs", "运行挂起"},
	"hang.said":               {"a hang said without where it happens", "据称运行挂起，未说在哪里"},
	"output.wrong":            {"wrong values or output", "结果或输出错误"},
	"loss.nan":                {"the loss said to become NaN", "据称损失变为 NaN"},
	"loss.zero":               {"the loss said or shown to fall to 0", "据称或显示损失降为 0"},
	"deepspeed.zero2":         {"DeepSpeed's ZeRO stage 2 or its overlapped reduction", "DeepSpeed ZeRO 第 2 阶段或其重叠归约"},
	"container.p2p":           {"P2P wanted between containers", "容器之间需要 P2P"},
	"cpu.amd":                 {"AMD CPU (EPYC, Ryzen, Threadripper)", "AMD CPU（EPYC、Ryzen、Threadripper）"},
	"cpu.sockets":             {"several CPU sockets or NUMA nodes", "多个 CPU 插槽或 NUMA 节点"},
	"perf.slow":               {"communication between GPUs said to be slow", "GPU 间通信据称很慢"},
	"shm.small":               {"/dev/shm too small (Bus error, no space, docker's 64 MB)", "/dev/shm 太小（Bus error、空间不足、docker 默认 64 MB）"},
	"fabricmanager.down":      {"Fabric Manager failed or not running", "Fabric Manager 启动失败或未运行"},
	"nvls.none":               {"no NVLS channels, said in words", "据称没有 NVLS 通道"},
	"nccl.nvls":               {"NCCL sets up NVLS (NVLink SHARP)", "NCCL 启用 NVLS（NVLink SHARP）"},
	"allreduce.custom":        {"custom all-reduce in use", "使用自定义 all-reduce"},
	"perf.vs_headline":        {"a bandwidth figure set against the link's headline figure, said in words", "据称带宽数值与链路标称值相比偏低"},
	"windows.distributed":     {"a distributed run on native Windows, said in words", "据称在原生 Windows 上运行分布式任务"},
	"perf.no_speedup":         {"several GPUs no faster than one, or only one of them used, said in words", "据称多块 GPU 并不比一块快，或只用到其中一块"},
	"perf.dataparallel":       {"several GPUs no faster than one with DataParallel or MXNet's kvstore, said in words", "据称使用 DataParallel 或 MXNet 的 kvstore 时多块 GPU 并不比一块快"},
	"ranks.same_gpu":          {"several ranks on one GPU, said in words or shown by NCCL's set-up lines", "多个 rank 使用同一块 GPU（据称，或见于 NCCL 的初始化行）"},
	"topo.known":              {"information on the path between GPUs (topology, an NCCL_DEBUG=INFO log, ACS, IOMMU, CPU sockets)", "GPU 之间路径的信息（拓扑、NCCL 调试日志、ACS、IOMMU、CPU 插槽）"},
	"p2p.already_enabled":     {"peer access already enabled, said in words or reported by a checker", "据称对等访问已经启用，或由检查工具报告"},
	"ibverbs.warning":         {"libibverbs's warning about a provider driver it could not load", "libibverbs 关于无法加载某个 provider 驱动的警告"},
	"fabric.not_supported":    {"the NVLink fabric state Not Supported or N/A, said in words", "据称 NVLink fabric 状态为 Not Supported 或 N/A"},
	"nccl.tests.error_column": {"nccl-tests' error column asked about, with no wrong values", "询问 nccl-tests 的 error 列，且没有错误值"},
	"llamacpp.split_mode":     {"llama.cpp's split mode (layer or row) named", "提到 llama-cpp 的多卡拆分模式（layer 或 row）"},
	"llamacpp.split_tensor":   {"llama.cpp's tensor split mode named", "提到 llama-cpp 的张量拆分模式（tensor）"},
	"version.regression":      {"one version works and another fails, said in words", "据称某个版本正常而另一个版本出错"},
	"version.component":       {"the component whose versions were compared", "比较了版本的组件"},
	"version.good":            {"the version said to work", "据称正常的版本"},
	"version.bad":             {"the version said to fail", "据称出错的版本"},
	"gpu.sharing":             {"a GPU-sharing layer intercepting CUDA (HAMi's libvgpu)", "拦截 CUDA 调用的 GPU 共享层（HAMi 的 `libvgpu`）"},
	"gpus.isolated":           {"each process sees only its own GPU (per-task GPU binding, enroot's device restriction)", "每个进程只能看到自己的 GPU（按任务绑定 GPU、enroot 的设备限制）"},
	"version.changed":         {"an upgrade, a downgrade, a new or old release or a change bisected said to break or fix it, no version said", "据称升级、降级、新旧版本或二分定位到的改动导致或解决了问题（未给出版本）"},
	"nccl.bundled":            {"NCCL of PyTorch's wheel (implied by its version)", "PyTorch wheel 自带的 NCCL（由其版本推断）"},
}

// The whole reasons facts give of themselves (their yes and no) in each
// language; what follows one in a reason (the pairs, an error) stays as
// read. The facts write the English, ReasonIn puts the Chinese.
var (
	reasonAllPairs   = words{"P2P works between all GPU pairs", "所有 GPU 对之间 P2P 可用"}
	reasonBlocked    = words{"P2P blocked", "P2P 被阻断"}
	reasonTestNotRun = words{"P2P test did not run", "P2P 测试没有运行"}
	reasonTestRan    = words{"P2P test ran", "P2P 测试已运行"}
	reasonIPCWorks   = words{"cross-process P2P works", "跨进程 P2P 可用"}
	reasonIPCFailed  = words{"cross-process P2P failed", "跨进程 P2P 失败"}
	reasonIntact     = words{"every copy arrived intact", "每次拷贝的数据都完好"}
	reasonWrong      = words{"data arrived wrong", "数据到达时出错"}
	reasonNotRunWhy  = words{" (the test did not run", "（测试没有运行"} // after a fact's name
)

// ownReasons are the yes and no of the bool facts that say more of
// themselves than present or absent, when another source than a probe
// report holds them: a pasted "Verification error" makes the data check
// false because data arrived wrong, not because no check ran. FromReport
// starts its own reasons with the same words.
var ownReasons = map[string][2]words{
	"p2p.all_pairs_ok": {reasonAllPairs, reasonBlocked},
	"p2p.test.ran":     {reasonTestRan, reasonTestNotRun},
	"p2p.test.ipc_ok":  {reasonIPCWorks, reasonIPCFailed},
	"p2p.test.data_ok": {reasonIntact, reasonWrong},
}

// reasons are the reasons above, in the order ReasonIn tries them.
var reasons = []words{reasonAllPairs, reasonBlocked, reasonTestNotRun, reasonTestRan, reasonIPCWorks, reasonIPCFailed, reasonIntact, reasonWrong, reasonNotRunWhy}

// DisplayIn is Display in a language: en or zh.
func DisplayIn(fact, lang string) string {
	if d, ok := displayNames[fact]; ok && lang == "zh" {
		return d.zh
	}
	return Display(fact)
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
	for _, r := range reasons {
		if rest, ok := strings.CutPrefix(s, r.en); ok {
			return r.zh + rest
		}
	}
	best, zh := "", ""
	for _, name := range displayNames {
		if len(name.en) > len(best) && (s == name.en || strings.HasPrefix(s, name.en+" ")) {
			best, zh = name.en, name.zh
		}
	}
	if best == "" {
		return s
	}
	rest := s[len(best):]
	for _, r := range reasons {
		rest = strings.Replace(rest, r.en, r.zh, 1)
	}
	return zh + rest
}
