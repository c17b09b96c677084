// Package rules decides whether an entry, a workaround or a dead end applies
// to a machine described by p2p-probe: it parses the KB's conditions and
// version constraints and evaluates them over the probe's facts with
// three-valued logic, giving a reason in plain words. assets/rules.js
// evaluates the same language in the browser; testdata/cases.json holds the
// cases both must agree on.
//
// # Conditions
//
//	expr    = or
//	or      = and { "||" and }
//	and     = not { "&&" not }
//	not     = "!" not | compare
//	compare = operand [ ("==" | "!=" | "<" | "<=" | ">" | ">=") operand ]
//	operand = fact | number | version | string | "true" | "false" | "(" expr ")"
//
// A fact alone is true when it is true. Numbers compare as numbers, and a
// version fact compares with a number or a string as versions do
// (580.159.04 > 525, 13.0 >= 12.4). A fact the probe could not see is
// unknown, never false: unknown && false is false, unknown || true is true,
// and everything else with unknown stays unknown.
//
// # Facts
//
//	gpu.count          number of GPUs NVML lists
//	gpu.arch           architecture when all GPUs share it (hopper, ampere, ...), else "mixed"
//	p2p.all_pairs_ok   every ordered pair of GPUs can read and write over P2P
//	p2p.blocked_pairs  number of ordered pairs that cannot
//	nvlink.present     some GPU has an active NVLink
//	nvswitch.present   some NVLink goes to an NVSwitch
//	mig.enabled        some GPU has MIG mode on
//	virtualized        the host is a virtual machine
//	container          the probe ran in a container (false when none was detected)
//	iommu.enabled      the kernel has IOMMU groups
//	acs.redirect       a PCIe bridge above a GPU redirects peer requests (ACS RR or CR)
//	nvml.available     NVML answered
//	driver.version     NVIDIA driver, 580.159.04
//	cuda.version       the CUDA toolkit when found, else the highest CUDA the driver supports
//	cuda.build         the CUDA a program was built with as the paste shows it (NCCL's +cuda10.2, PyTorch's +cu118, Paddle's Runtime API Version), or said ("cuda 10.2")
//	cuda.driver        the highest CUDA the driver supports
//	python.NAME        version of a Python package the probe found: torch, tensorflow, jax, jaxlib, cupy, nccl
//	env.NAME           a variable the probe records (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER,
//	                   TF_GPU_ALLOCATOR, NCCL_*); "" when it is not set. An NCCL_* is
//	                   known only from a probe report or an NCCL_DEBUG=INFO log, which
//	                   list every one set; pasted output of anything else leaves it unknown
//	gpu.consumer       some GPU is a consumer part (GeForce, TITAN) rather than a data-centre one
//	topo.sys_pairs     number of GPU pairs whose path crosses the link between CPU sockets (SYS)
//	wsl                the host is Windows Subsystem for Linux 2
//	slurm              the process runs inside a Slurm job
//	iommu.passthrough  the IOMMU is in passthrough mode (iommu=pt, iommu.passthrough=1)
//	iommu.faults       number of IOMMU faults seen (AMD-Vi IO_PAGE_FAULT, DMAR faults)
//	xid.count          number of NVRM Xid errors seen
//	xid.nvlink         an Xid that reports an NVLink error (74, 144-150) was seen
//	nccl.version       NCCL version a log reports
//	nccl.p2p_used      some channel between GPUs of one node went via P2P
//	nccl.transport     the slowest transport between GPUs of one node: P2P, SHM or NET
//	nccl.p2p_refused   NCCL said P2P is disabled between connected GPUs, or could not enable it
//	p2p.test.ran       p2p-probe --test moved data between GPUs
//	p2p.test.data_ok   every pair and path it checked arrived intact
//	p2p.test.failed_pairs  number of ordered pairs where enabling, copying or checking failed
//	p2p.test.slow_pairs    number of ordered pairs where P2P is not faster than the copy staged through the host
//	p2p.test.ipc_ok    every cross-process path (CUDA IPC, cuMem handles) worked and verified
//	p2p.test.timeouts  number of ordered pairs killed at the deadline
//	p2p.test.enable_error  the first error name enabling peer access returned (CUDA_ERROR_TOO_MANY_PEERS); "" when none
//	nccl.tests.wrong   number of values nccl-tests found wrong (#wrong, Out of bounds values)
//	nccl.tests.busbw   the average bus bandwidth nccl-tests printed, GB/s
//	p2p.waived         a CUDA P2P test tool waived its test: no pair of GPUs has peer access
//	gpu.bar1_mib       the smallest BAR1 aperture nvidia-smi -q shows, MiB
//	gpu.bar1_small     some GPU's BAR1 is smaller than its memory (resizable BAR off or too small)
//	nccl.stopped_after_init a log ends with NCCL's init and connect lines and nothing after them (a hang)
//	p2p.copy_zeros     a tensor copied to another GPU printed as zeros where the source was not
//	p2p.link_gbs       what the link between two GPUs allows each way, GB/s: NVLinks x 25, PCIe generation x width, or else what nvbandwidth copied between the host and the slower GPU in the same run (the smallest pair)
//	p2p.bw_below_link  number of ordered GPU pairs whose P2P bandwidth is under half of what their link allows
//	nccl.tests.busbw_peak  the highest busbw of nccl-tests' result table, GB/s
//	nccl.tests.link_gbs    what one GPU's link carries each way, as the paste shows it (topo -m NV#, the GPU's name, nvidia-smi -q PCIe)
//	nccl.tests.busbw_pct   that peak as a share of that link, percent: about 80 on healthy NVLink, under 25 a slow path
//	nccl.tests.nvlink      the link nccl-tests is judged against is NVLink
//	nccl.tests.small_sizes nccl-tests' largest size is under 64 MiB, too small to reach peak bandwidth
//	hang.seen          the input says a run on GPUs hangs, or a P2P test stopped before its first figure
//	hang.said          the input says something hangs with no word of where (no GPUs, collective or launch named) and nothing else says a run hung
//	hang.at_init       the input says the hang is at the process group's set-up, or the launch's set-up lines are the last
//	hang.later         the input says the run made progress before it hung (after iterations, steps, epochs or hours, at evaluation)
//	hang.first         the input says the hang comes at the first collective, iteration or step, or before the run starts
//	ranks.diverge      the input says or shows ranks taking different paths: an uneven number of batches, an empty batch, LayerDrop, a collective under if rank == 0
//	launch.master_loopback  the input launches over several nodes with the master address 127.0.0.1 or localhost
//	gpu.unwanted_use   the input says memory or work lands on GPUs other than the one chosen (the others also hold memory, it defaults to the first GPU)
//	memory.oom         the input says GPU memory ran out in words (got CUDA OOM, an out of memory issue, 显存不足), not the host's, and not denied
//	gpu.first_only     the input says a run on one GPU chosen by its index works on the first GPU and fails on another (works with device 0, fails with device_id 1, other than 0)
//	devices.mixed      the input says tensors (inputs, weights, variables) are not on the same device, 不在同一个 device 上
//	run.training       the input says or shows a training run (train, epoch, loss, fine-tuning, 训练, 微调)
//	launch.second_job  the input says a second job (training, experiment) runs on the same machine, beside the first
//	storage.node_local the input says the nodes share no storage, or that another node cannot find what one saved (a checkpoint, a dataset index)
//	p2p.off_works      the input says the run works once NCCL's P2P is turned off (NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL=NVL or LOC)
//	nodes.multi_only   the input says a run works on one node and fails or hangs across nodes
//	train.metric_by_gpus  the input says or shows training reaching another accuracy or loss, or not converging, on several GPUs than on one (多卡掉点), or an epoch taking as many steps on several GPUs as on one
//	loss.nan           the input says the loss or the gradient norm became NaN (loss is nan, NaN loss, → nan, grad_norm: nan)
//	loss.zero          the input says or shows the loss fell to 0 (the loss has been 0, {'loss': 0.0, ...}, 损失为0)
//	deepspeed.zero2    the input names DeepSpeed's ZeRO stage 2 (zero2, ZeRO-2, ds_z2_config, "stage": 2) or the settings of its reduction: overlap_comm on, ZeRO++ (hpZ), use_multi_rank_bucket_allreduce
//	output.wrong       the input says results came back wrong (NaN, garbage, values other than expected), or NumPy's or PyTorch's array check prints Mismatched elements
//	container.p2p      the input says GPUs in different containers (or one GPU per container) should reach each other over P2P, NVLink or CUDA IPC
//	cpu.amd            the input names an AMD host CPU (EPYC, Ryzen, Threadripper, AuthenticAMD), whose platforms often boot with the IOMMU translating
//	cpu.sockets        the input says the host has several CPU sockets or NUMA nodes (two sockets, QPI/UPI, NPS4, lscpu's Socket(s): 2)
//	perf.slow          the input says in words that communication between GPUs is slow (slower all-reduce, low bandwidth, a performance drop)
//	shm.small          the input shows /dev/shm too small: a Bus error beside NCCL or UCX frames, UCX's shared-memory FIFO not allocated, /dev/shm out of space, docker's 64 MB (said, or a docker run for several GPUs without --shm-size or --ipc=host)
//	nvls.none          the input says in words that NCCL uses no NVLS channels ("0 nvls channels"), outside NCCL's own lines
//	nccl.nvls          NCCL found NVLink SHARP multicast on the GPU or bound memory to it (its NVLS INFO lines)
//	allreduce.custom   the custom all-reduce of vLLM, SGLang or TensorRT-LLM is named as in use (its log line, files, switches or words)
//	perf.vs_headline   the input sets a bandwidth figure against the link's headline in words ("480 GB/s ... the NVLink bw is 900 GB/s"), beside NVLink, NVSwitch or a bandwidth test
//	windows.distributed the input says the run is on native Windows (Platform: Windows-10, win32, C:\Users paths), not WSL, and starts a distributed or multi-GPU run; or says NCCL (a multi-GPU run) is not supported on Windows or macOS
//	perf.no_speedup    the input says in words that several GPUs are no faster than one (slower than one GPU, no speedup, does not scale, low utilization, slow without NVLink), that only one of them is used, or that a run (training, iterations, tokens) is slow on several GPUs with no word of what carries its data
//	perf.dataparallel  perf.no_speedup, with PyTorch's DataParallel or MXNet's kvstore named in the input
//	ranks.same_gpu     the input says several ranks or processes run on one GPU, or NCCL's set-up lines give two ranks of one host the same busId
//	topo.known         beside communication said to be slow: whether the input shows the path between the GPUs (nvidia-smi topo, NCCL's transport or P2P settings, ACS, the IOMMU, CPU sockets, a bandwidth test's link)
//	fabricmanager.down systemctl status shows nvidia-fabricmanager failed or inactive (dead), or its start exited with a failure
//	p2p.already_enabled the input says peer access was already enabled (in words, cudaErrorPeerAccessAlreadyEnabled), or names cuda-memcheck, compute-sanitizer or cuda-gdb beside the enable call
//	ibverbs.warning the input speaks of libibverbs's provider warnings (libibverbs: Warning, /etc/libibverbs.d), outside NCCL's own lines
//	fabric.not_supported the input says a GPU's NVLink fabric state is Not Supported or N/A (state=Not Supported)
//	llamacpp.split_mode the input names llama.cpp's or ollama's split mode (split_mode, --split-mode, -sm layer|row, splitting by layer), and nowhere its tensor mode
//	llamacpp.split_tensor the input names llama.cpp's tensor split mode (--split-mode tensor, -sm tensor, split_mode = tensor, SPLIT_MODE_TENSOR)
//	nccl.tests.error_column the input asks about nccl-tests' error column or says Out of bounds values is 0 in words, names nccl-tests, and shows no wrong values
//	version.regression the input says one version of a component works and another fails (hangs, is slow), or that an upgrade, downgrade or rollback broke or fixed it
//	version.component  that component: driver, nccl, cuda, torch, vllm, jax, aws-ofi-nccl, openmpi, ucx, deepspeed, tensorrt-llm, sglang
//	version.good       the version said to work; version.bad the version said to fail
//	gpu.sharing        the input names a GPU-sharing layer that intercepts CUDA in the process (HAMi, its libvgpu.so, Volcano's vGPU plugin, their limits)
//	gpus.isolated      the input says or sets each process to see only its own GPU (srun --gpus-per-task, --gpu-bind=single:1, ENROOT_RESTRICT_DEV, CUDA_VISIBLE_DEVICES=$LOCAL_RANK)
//	version.changed    the input says an upgrade, a downgrade, a rollback or a new or old release broke or fixed it, naming no version (version.component where it names the component, or a pip/apt line or image tag does); or that a bisection, a first bad commit or a change named (broken in PR #3110, caused by the recently merged MR) broke it
//	nccl.bundled       where no NCCL version is stated: the NCCL implied by PyTorch's version, the nvidia-nccl wheel that release's PyPI wheel requires; where one is, that one
//	gpu.amd            the input names an AMD GPU (Radeon, Instinct MI, a gfx target, llama.cpp's ROCm devices)
//	collectives.differ two ranks' PyTorch watchdog lines wait at one SeqNum in different collectives, or in one of a single size with different sizes
//
// Facts come from a p2p-probe report, from the --test section of one, or
// from a pasted log (nvidia-smi topo, NCCL_DEBUG=INFO, dmesg, lspci, the CUDA
// samples); a fact no source saw is unknown.
//
// # Versions
//
// An entry's versions are constraints when they have an operator
// (cuda>=11.8, nvidia-driver>=525, tensorflow>=2.13.0): the entry applies
// when every one holds. A version without an operator (CUDA 12.3) records
// what the error was seen with and constrains nothing. Component names map
// to facts: cuda -> cuda.version, nvidia-driver and driver -> driver.version,
// and torch, pytorch, tensorflow, jax, jaxlib, cupy, nccl -> python.NAME.
package rules

// Truth is a three-valued answer.
type Truth int

const (
	Unknown Truth = iota
	False
	True
)

func (t Truth) String() string {
	switch t {
	case True:
		return "applies"
	case False:
		return "does_not_apply"
	}
	return "unknown"
}

func (t Truth) not() Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// Verdict is an answer with the reasons behind it.
type Verdict struct {
	Truth   Truth
	Reasons []string // plain words: "driver 580.159.04 >= 525"
}

// Applies decides whether an entry fits a machine: every version constraint
// and the entry's own condition (applies_when) must hold.
func Applies(versions []string, when string, f Facts) (Verdict, error) {
	e, err := Compile(versions, when)
	if err != nil {
		return Verdict{}, err
	}
	return Eval(e, f), nil
}

// Compile joins an entry's version constraints and its condition into one
// expression, nil when nothing constrains the entry, so that a caller
// judging many machines parses each entry once.
func Compile(versions []string, when string) (Expr, error) {
	var e Expr
	for _, v := range versions {
		c, err := Constraint(v)
		if err != nil {
			return nil, err
		}
		if c != nil {
			e = and(e, c)
		}
	}
	w, err := Parse(when)
	if err != nil {
		return nil, err
	}
	if w != nil {
		e = and(e, w)
	}
	return e, nil
}

func and(a, b Expr) Expr {
	if a == nil {
		return b
	}
	return andExpr{a, b}
}
