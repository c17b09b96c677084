package errvocab

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Layer is who printed a line: the library or program whose own check
// reported the error it got from below.
type Layer struct {
	ID     string `json:"id"`     // nccl, custom_allreduce, ucx, ...
	Name   string `json:"name"`   // how a person calls it: NCCL, UCX
	Domain string `json:"domain"` // the software, as a knowledge base files its entries: nccl, vllm, ucx
}

// Plain tells whether a layer only wraps the error in the words every CUDA
// check prints ("RuntimeError: CUDA error: ..."): an entry whose signature
// is the bare error (Bare) names such a line, while for another layer it
// names only the error inside.
func (l Layer) Plain() bool { return l.ID == "pytorch" || l.ID == "cuda_check" || l.ID == "cuda_text" }

// Returns names the error a layer returns to its caller when a call below
// it fails with an error of a family: NCCL turns a CUDA failure into
// ncclUnhandledCudaError and a system call's into ncclSystemError. "" when
// the layer passes the error on as it is: nccl-tests' own CUDA check prints
// the CUDA error and exits, without NCCL between.
func (l Layer) Returns(family string) string {
	if l.ID != "nccl" {
		return ""
	}
	switch family {
	case CUDARuntime, CUDADriver:
		return "ncclUnhandledCudaError"
	case Errno:
		return "ncclSystemError"
	}
	return ""
}

// Reading is what a line says of itself.
type Reading struct {
	Layer Layer  `json:"layer"`
	Where string `json:"where,omitempty"` // the source file and line, or the call, that failed: transport/p2p.cc:275, cuIpcOpenMemHandle
	Error *Error `json:"error,omitempty"` // the inner error; nil when the line names none the vocabulary knows
	Shape string `json:"-"`               // what the layer's part of the line matched
}

// A shape is one way a layer prints an error: the literals that a line of
// it must hold (so that only such lines are read), and a pattern whose
// named groups say where (where), and what: an error's name (name), number
// (code, of the families in order) or message (text). A shape with
// byFile names its layer after the file in where.
type shape struct {
	layer    Layer
	triggers []string
	re       *regexp.Regexp
	families []string // where a code or a message is looked up
	byFile   map[string]Layer
	needErr  bool // a line of the shape says nothing without an error the vocabulary knows: the next shape is tried
}

var (
	cudaFamilies = []string{CUDARuntime, CUDADriver}
	driverFirst  = []string{CUDADriver, CUDARuntime}
)

// customAllReduce names the custom all-reduce kernels by their source file:
// vLLM's csrc/custom_all_reduce.cuh (also copied into SGLang's sgl-kernel),
// TensorRT-LLM's customAllReduceKernels, DeepEP's runtime.
var customAllReduce = map[string]Layer{
	"custom_all_reduce": {"custom_allreduce", "custom all-reduce kernel (vLLM, SGLang)", "vllm"},
	"custom_allreduce":  {"custom_allreduce", "custom all-reduce kernel (vLLM, SGLang)", "vllm"},
	"customAllReduce":   {"trtllm_allreduce", "TensorRT-LLM custom all-reduce", "tensorrt-llm"},
	"allReduceFusion":   {"trtllm_allreduce", "TensorRT-LLM custom all-reduce", "tensorrt-llm"},
	"deep_ep":           {"deepep", "DeepEP", "deepep"},
}

// shapes are tried in order; the first that matches names the layer. The
// most specific come first: a custom all-reduce kernel's line says "CUDA
// error" too.
var shapes = []shape{
	// vLLM's CUDACHECK: "Failed: Cuda error %s:%d '%s'" (older: "Failed: %s:%d '%s'").
	// https://github.com/vllm-project/vllm/issues/5613
	// SGLang's JIT kernels' RuntimeCheck: "Runtime check failed at .../custom_all_reduce.cuh:37: CUDA error: invalid argument".
	// https://github.com/sgl-project/sglang/pull/27948
	{triggers: []string{"custom_all_reduce", "custom_allreduce", "customAllReduce", "allReduceFusion", "deep_ep."},
		re:       regexp.MustCompile(`(?P<where>[\w./-]*(?:custom_all_reduce|custom_allreduce|customAllReduce|allReduceFusion|deep_ep)\w*\.(?:cuh|cu|cpp|h|hpp):\d+)(?:['"]?\s*'(?P<text>[^']+)'|: CUDA error: (?P<text2>.+))`),
		families: cudaFamilies, byFile: customAllReduce},
	// TensorRT-LLM's check_cuda_error: "[TensorRT-LLM][ERROR] CUDA runtime error in cudaIpcOpenMemHandle(...): <text> (<file>:<line>)".
	{layer: Layer{"trtllm", "TensorRT-LLM", "tensorrt-llm"}, triggers: []string{"[TensorRT-LLM][ERROR]"},
		re:       regexp.MustCompile(`\[TensorRT-LLM\]\[ERROR\] (?:CUDA runtime error|\[TRT-LLM\]\[ERROR\] Assertion failed)? ?in (?P<where>\w+)[^:]*: (?P<text>[^(]+)`),
		families: cudaFamilies},
	// nvbandwidth's CU_ASSERT / CUDA_ASSERT: "[CUDA_ERROR_INVALID_VALUE] invalid argument in expression cuMemSetAccess(...)".
	// https://github.com/NVIDIA/nvbandwidth/issues/44
	{layer: Layer{"nvbandwidth", "nvbandwidth", "cuda"}, triggers: []string{" in expression "},
		re:       regexp.MustCompile(`\[(?P<name>CUDA_ERROR_\w+|cudaError\w+)\] (?P<text>.*?) in expression (?P<where>\w+)`),
		families: driverFirst},
	// UCX's CUDA-IPC transport: "cuda_ipc_cache.c:284  UCX  ERROR cuIpcOpenMemHandle() failed: invalid device context".
	// https://github.com/openucx/ucx/pull/11603
	{layer: Layer{"ucx", "UCX (CUDA IPC)", "ucx"}, triggers: []string{"UCX"},
		// The call may be printed with its arguments: "cuIpcCloseMemHandle( (CUdeviceptr)region->mapped_addr) failed".
		// https://github.com/openucx/ucx/pull/10618
		re:       regexp.MustCompile(`(?:(?P<file>\w+\.c):\d+\s+)?UCX\s+(?:ERROR|WARN|DIAG|Fatal:?)\s+(?:[\w ]*: )?(?P<where>cu\w+)\((?:[^()]|\([^()]*\))*\) failed: (?P<text>.+)`),
		families: driverFirst},
	// UCC's CUDA transport: "tl_cuda_cache.c:231  UCC  ERROR ipc-cache: failed to open ipc mem handle. addr:... len:... err:201".
	// https://github.com/openucx/ucc/issues/1041
	{layer: Layer{"ucc", "UCC (CUDA IPC)", "ucc"}, triggers: []string{"UCC"},
		re:       regexp.MustCompile(`UCC\s+ERROR\s+(?P<where>[\w-]+): failed to open ipc mem handle\..* err:(?P<code>\d+)`),
		families: driverFirst},
	// PSM2's CUDA check: "CUDA failure: cuIpcGetMemHandle() (at ...) returned 1".
	{layer: Layer{"psm2", "PSM2", "psm2"}, triggers: []string{"CUDA failure: cu"},
		re:       regexp.MustCompile(`CUDA failure: (?P<where>cu\w+)\(\) \(at [^)]*\) ?returned (?P<code>\d+)`),
		families: driverFirst},
	// Open MPI's common CUDA help: "The call to cuIpcOpenMemHandle failed." and "cuIpcOpenMemHandle return value:   217".
	{layer: Layer{"openmpi", "Open MPI (CUDA IPC)", "openmpi"}, triggers: []string{"The call to cu", " return value:"},
		re:       regexp.MustCompile(`The call to (?P<where>cu\w+) failed|^\s*(?P<where2>cu\w+) return value:\s+(?P<code>-?\d+)`),
		families: driverFirst},
	// NCCL's CUDACHECK: "transport/p2p.cc:275 NCCL WARN Cuda failure 217 'peer access is not supported between these two devices'"
	// (before 2.19 without the number). https://github.com/vllm-project/vllm/issues/19890, https://github.com/NVIDIA/nccl/issues/629
	{layer: Layer{"nccl", "NCCL", "nccl"}, triggers: []string{"NCCL WARN"},
		re:       regexp.MustCompile(`(?:(?P<where>[\w/.-]+\.(?:cc|h|cu|cpp):\d+) )?NCCL WARN (?:Cuda failure|CUDA failure|Cuda error) (?:(?P<code>\d+) )?'(?P<text>[^']*)'`),
		families: cudaFamilies},
	// NCCL's other warnings carry a system error: "include/socket.h:428 NCCL WARN Net : Call to recv from ... failed : Connection reset by peer".
	// https://github.com/NVIDIA/nccl/issues/629
	{layer: Layer{"nccl", "NCCL", "nccl"}, triggers: []string{"NCCL WARN"},
		re:       regexp.MustCompile(`(?:(?P<where>[\w/.-]+\.(?:cc|h|cu|cpp):\d+) )?NCCL WARN (?P<rest>.*)`),
		families: []string{Errno, CUDARuntime, CUDADriver}},
	// NCCL's last error, as PyTorch prints it under "Last error:": "Cuda failure 1 'invalid argument'".
	// https://github.com/NVIDIA/nccl/issues/1410
	{layer: Layer{"nccl", "NCCL", "nccl"}, triggers: []string{"Cuda failure "},
		re:       regexp.MustCompile(`Cuda failure (?:(?P<code>\d+) )?'(?P<text>[^']*)'`),
		families: cudaFamilies},
	// nccl-tests: "Test NCCL failure common.cu:497 'unhandled cuda error'", "Test CUDA failure common.cu:334 '...'".
	// https://github.com/NVIDIA/nccl/issues/629, https://github.com/NVIDIA/nccl/issues/393
	{layer: Layer{"nccl_tests", "nccl-tests", "nccl"}, triggers: []string{"Test NCCL failure", "Test CUDA failure"},
		re:       regexp.MustCompile(`Test (?:NCCL|CUDA) failure (?P<where>\S+:\d+) '(?P<text>[^']*)'`),
		families: []string{NCCL, CUDARuntime}},
	// A program's own check of an NCCL call: NCCL's examples' NCCLCHECK, copied into many
	// programs ("Failed, NCCL error %s:%d '%s'" with ncclGetErrorString: TensorRT-LLM's
	// ncclPlugin, LMDeploy's nccl_utils.cc, FlexFlow), and FastMoE's NCCL_SAFE_CALL, which
	// prints the bare ncclResult_t ("NCCL Error at %s:%d value %d", fastmoe cuda/stream_manager.h).
	// https://github.com/InternLM/lmdeploy/issues/1267, https://github.com/laekov/fastmoe/issues/126
	{layer: ncclCheck, triggers: []string{"NCCL Error at ", "NCCL error ", "NCCL failure "},
		re:       regexp.MustCompile(`NCCL (?:Error at|error|failure) (?P<where>[\w./-]+\.\w+:\d+)(?: value (?P<code>\d+)| '(?P<text>[^']*)')`),
		families: []string{NCCL}, byFile: ncclCheckers, needErr: true},
	// NCCL's trace of a failure up its own calls, the ncclResult_t it returns. Only an invalid
	// argument or usage: their checks warn in words that say neither "failed" nor "error" ("Send :
	// comm argument is NULL" of misc/argcheck.cc, followed by "NCCL INFO init.cc:1577 -> 4"), while
	// a CUDA or system failure's WARN names the error better than the number under it.
	// https://github.com/laekov/fastmoe/issues/149
	{layer: Layer{"nccl", "NCCL", "nccl"}, triggers: []string{" -> 4", " -> 5"},
		re:       regexp.MustCompile(`NCCL INFO (?P<where>[\w/.-]+\.(?:cc|h|cu|cpp):\d+) -> (?P<code>[45])\b`),
		families: []string{NCCL}},
	// PyTorch's ProcessGroupNCCL: "torch.distributed.DistBackendError: NCCL error in: .../NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5".
	// https://github.com/NVIDIA/nccl/issues/1410
	{layer: Layer{"pytorch_nccl", "PyTorch (ProcessGroupNCCL)", "pytorch"}, triggers: []string{"NCCL error in:", "NCCL error:"},
		re:       regexp.MustCompile(`NCCL error(?: in: (?P<where>\S+:\d+),)?:? (?P<text>[^,]+)`),
		families: []string{NCCL}},
	// CuPy's NcclError, its NCCL result's name and ncclGetErrorString: "cupy_backends.cuda.libs.nccl.NcclError:
	// NCCL_ERROR_INVALID_USAGE: invalid usage" (vLLM 0.3 and Ray's collectives call NCCL through CuPy).
	// https://github.com/vllm-project/vllm/issues/3152, https://github.com/vllm-project/vllm/issues/3222
	{layer: Layer{"cupy_nccl", "CuPy (NCCL)", "cupy"}, triggers: []string{"NcclError: NCCL_ERROR_"},
		re:       regexp.MustCompile(`NcclError: NCCL_ERROR_\w+: (?P<text>.+)`),
		families: []string{NCCL}},
	// PyTorch's detail line under it: "ncclUnhandledCudaError: Call to CUDA function failed.".
	{layer: Layer{"pytorch_nccl", "PyTorch (ProcessGroupNCCL)", "pytorch"}, triggers: []string{"ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError", "ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError"},
		re: regexp.MustCompile(`(?P<name>nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidArgument|InvalidUsage|RemoteError))\b`)},
	// XLA: "NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error".
	// https://github.com/jax-ml/jax/issues/17399
	{layer: Layer{"xla", "XLA (JAX)", "jax"}, triggers: []string{"NCCL operation "},
		re:       regexp.MustCompile(`NCCL operation (?P<where>\w+)\(.*?\) failed: (?P<text>.+)`),
		families: []string{NCCL}},
	// JAX: "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ... CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered".
	// https://github.com/jaxleyverse/jaxley/issues/53
	{layer: Layer{"xla", "XLA (JAX)", "jax"}, triggers: []string{"XlaRuntimeError", "JaxRuntimeError", "Failed to execute XLA Runtime executable"},
		re:       regexp.MustCompile(`(?:XlaRuntimeError|JaxRuntimeError|Failed to execute XLA Runtime executable)(?P<rest>.*)`),
		families: driverFirst},
	// TensorFlow: "tensorflow.python.framework.errors_impl.InternalError: ... CUDA_ERROR_..." and its stream executor's
	// "failed call to cuInit: CUDA_ERROR_NO_DEVICE".
	{layer: Layer{"tensorflow", "TensorFlow", "tensorflow"}, triggers: []string{"errors_impl.InternalError", "failed call to cu"},
		re:       regexp.MustCompile(`errors_impl\.InternalError:(?P<rest>.*)|failed call to (?P<where>cu\w+):(?P<rest2>.*)`),
		families: driverFirst},
	// llama.cpp: "CUDA error 217 at ggml-cuda.cu:6292: peer access is not supported between these two devices".
	// https://github.com/ggml-org/llama.cpp/issues/3230
	{layer: Layer{"llamacpp", "llama.cpp (ggml-cuda)", "llamacpp"}, triggers: []string{"CUDA error "},
		re:       regexp.MustCompile(`CUDA error (?P<code>\d+) at (?P<where>\S+:\d+): (?P<text>.+)`),
		families: cudaFamilies},
	// The CUDA samples' checkCudaErrors: "CUDA error at p2pBandwidthLatencyTest.cu:123 code=205(cudaErrorMapBufferObjectFailed) "cudaDeviceEnablePeerAccess(gpuid[1], 0)"".
	// https://github.com/tinygrad/open-gpu-kernel-modules/issues/44
	{layer: Layer{"cuda_samples", "CUDA samples (checkCudaErrors)", "cuda"}, triggers: []string{"CUDA error at "},
		re:       regexp.MustCompile(`CUDA error at (?P<where>\S+:\d+) code=(?P<code>\d+)\((?P<name>\w+)\)`),
		families: cudaFamilies},
	// PyTorch's THC checks before 1.5: "RuntimeError: cuda runtime error (801) : operation not supported at
	// /pytorch/aten/src/THC/THCCachingAllocator.cpp:296" and "THCudaCheck FAIL file=... line=47 error=802 : system not yet initialized".
	// https://github.com/pytorch/pytorch/issues/31939
	{layer: Layer{"pytorch", "PyTorch (CUDA)", "pytorch"}, triggers: []string{"cuda runtime error (", "THCudaCheck FAIL"},
		re:       regexp.MustCompile(`(?:cuda runtime error \((?P<code>\d+)\) : (?P<text>.+?)(?: at (?P<where>\S+:\d+)|$)|THCudaCheck FAIL file=(?P<where2>\S+) line=\d+ error=(?P<code2>\d+) : (?P<text2>.+))`),
		families: cudaFamilies},
	// PyTorch's C10_CUDA_CHECK: "torch.AcceleratorError: CUDA error: ..." (2.8 on), "RuntimeError: CUDA error: ...".
	// https://github.com/ai-dynamo/dynamo/issues/1229
	{layer: Layer{"pytorch", "PyTorch (CUDA)", "pytorch"}, triggers: []string{"CUDA error: "},
		re:       regexp.MustCompile(`(?:AcceleratorError|RuntimeError|CudaError)[:(]\s*["']?CUDA error: (?P<text>.+)`),
		families: cudaFamilies},
	// Any other program that prints cudaGetErrorString after "CUDA error: " (llama.cpp since 2024, many).
	// https://github.com/ggml-org/llama.cpp/issues/10152
	{layer: Layer{"cuda_check", "a CUDA error check", "cuda"}, triggers: []string{"CUDA error: "},
		re:       regexp.MustCompile(`CUDA error: (?P<text>.+)`),
		families: cudaFamilies},
	// The kernel driver's Xid events: "NVRM: Xid (PCI:0001:6c:00): 119, pid=10200, name=NvmlTaskRunner, Timeout after 45s ...",
	// before R470 without "PCI:". Read against NVIDIA's Xid catalog (xid.tsv).
	// https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1045
	{layer: Layer{"nvrm", "the NVIDIA kernel driver (NVRM)", "linux"}, triggers: []string{"NVRM: Xid"},
		re:       regexp.MustCompile(`NVRM: Xid \((?P<where>[^)]*)\):? (?P<code>\d+)\b`),
		families: []string{Xid}},
	// Numba's driver check: "CudaAPIError: [802] Call to cuInit results in UNKNOWN_CUDA_ERROR", the CUresult's number
	// first and its name after, or UNKNOWN_CUDA_ERROR where Numba's table lacks it; at driver init
	// "Call to cuInit results in UNKNOWN_CUDA_ERROR (804)"; its CUDA IPC calls "Call to call_cuIpcOpenMemHandle results in
	// CUDA_ERROR_ALREADY_MAPPED". https://github.com/numba/numba/issues/7187, https://github.com/numba/numba/issues/6157
	{layer: Layer{"numba", "Numba (CUDA driver)", "numba"}, triggers: []string{" results in "},
		re:       regexp.MustCompile(`(?:\[(?P<code>-?\d+)\] )?Call to (?:call_)?(?P<where>\w+) results in (?P<name>[A-Z][A-Z_]+)(?: \((?P<code2>\d+)\))?`),
		families: driverFirst},
	// A library no shape names that prints the error's name, often with the call that failed:
	// DALI's "CUDA runtime API error cudaErrorDeviceUninitialized (201):" (https://github.com/NVIDIA/DALI/issues/4817).
	{layer: unnamed, triggers: []string{"cudaError", "CUDA_ERROR_"},
		re:       regexp.MustCompile(`(?:(?P<where>` + apiRE + `)\b.*?)?(?P<name>cudaError[A-Z]\w*|CUDA_ERROR_[A-Z_]+)`),
		families: driverFirst},
	// Or its number after a runtime call, or after a driver call or CUDA IPC: "cudaIpcOpenMemHandle failed with error 201",
	// "Unable to map CUDA IPC memory for shared array map, error=201" (https://github.com/eunomia-bpf/bpftime/issues/488).
	{layer: unnamed, triggers: runtimeAPIs,
		re:       regexp.MustCompile(`(?P<where>cuda` + apiKinds + `\w*)\b[^0-9\n]*?\b(?:error|err|returned|returns|code|result)\s*[=:]?\s*\(?(?P<code>[1-9][0-9]{0,3})\b`),
		families: cudaFamilies},
	{layer: unnamed, triggers: append([]string{"CUDA IPC", "CUresult"}, driverAPIs...),
		re:       regexp.MustCompile(`(?P<where>cu` + apiKinds + `\w*|CUDA IPC)\b[^0-9\n]*?\b(?:error|err|returned|returns|code|result|CUresult)\s*[=:]?\s*\(?(?P<code>[1-9][0-9]{0,3})\b|\bCUresult\s*[=:]?\s*(?P<code2>[1-9][0-9]{0,3})\b`),
		families: driverFirst},
	// Or its message after the call: "render_buffer.cu:587 cudaMemsetAsync(...) failed with error invalid argument".
	// https://github.com/NVlabs/instant-ngp/issues/1340
	{layer: unnamed, triggers: runtimeAPIs, re: callMessage("cuda"), families: cudaFamilies, needErr: true},
	{layer: unnamed, triggers: driverAPIs, re: callMessage("cu"), families: driverFirst, needErr: true},
	// A CUDA error's message alone, as people quote it in prose, an exception's repr or a
	// program of their own: in another case or without its plural s ("raise the error
	// `peer access is not supported between these two device`"). Only the messages of five
	// words or more, which say what failed by themselves.
	{layer: Layer{"cuda_text", "a CUDA error message", ""}, triggers: messageTriggers,
		re: messageRE, families: cudaFamilies},
}

// unnamed is a library no shape knows, which names a CUDA call or error.
var unnamed = Layer{"cuda_call", "a CUDA call", ""}

// ncclCheck is a program's own check of the result of an NCCL call; the
// programs known by their source files are named after them.
var (
	ncclCheck    = Layer{"nccl_check", "a program's check of an NCCL call", ""}
	ncclCheckers = map[string]Layer{
		"tensorrt_llm": {"trtllm_nccl", "TensorRT-LLM's check of an NCCL call", "tensorrt-llm"},
	}
)

// callMessage is a call of the runtime (prefix cuda) or of the driver (cu),
// its arguments, and the message of the error it failed with.
func callMessage(prefix string) *regexp.Regexp {
	return regexp.MustCompile(`(?P<where>` + prefix + apiKinds + `\w*)(?:\((?:[^()\n]|\([^()\n]*\))*\))? (?:failed with error|failed with|failed:|returned) '?(?P<text>[A-Za-z][^'\n]*)`)
}

// apiKinds are the kinds of CUDA calls around peer-to-peer work, in the
// runtime (cuda...) and driver (cu...) spelling: IPC, memory and its
// virtual-memory calls, multicast, contexts and devices (peer access).
const apiKinds = `(?:Ipc|Mem|Malloc|Multicast|Ctx|Device|Init|Launch|Stream)`

var (
	apiRE       = `cu(?:da)?` + apiKinds + `\w*`
	runtimeAPIs = []string{"cudaIpc", "cudaMem", "cudaMalloc", "cudaDevice", "cudaStream", "cudaLaunch"}
	driverAPIs  = []string{"cuIpc", "cuMem", "cuMulticast", "cuCtx", "cuDevice", "cuInit", "cuLaunch", "cuStream"}
)

// messageTriggers and messageRE find the CUDA messages of five words or
// more in a line, in either case of their first letter, with any spacing,
// the final s optional.
var messageTriggers, messageRE = messageShape()

func messageShape() ([]string, *regexp.Regexp) {
	seen := map[string]bool{}
	var trig, alts []string
	for _, e := range v.all {
		if e.Family != CUDARuntime && e.Family != CUDADriver || seen[e.Text] {
			continue
		}
		seen[e.Text] = true
		w := strings.Fields(e.Text)
		if len(w) < 5 {
			continue
		}
		first := w[0] + " " + w[1]
		for _, t := range []string{first, strings.ToUpper(first[:1]) + first[1:], strings.ToLower(first[:1]) + first[1:]} {
			if !seen["\x00"+t] {
				seen["\x00"+t] = true
				trig = append(trig, t)
			}
		}
		var b strings.Builder
		for i, x := range w {
			if i > 0 {
				b.WriteString(` +`)
			}
			if i == 0 {
				b.WriteString("[" + strings.ToLower(x[:1]) + strings.ToUpper(x[:1]) + "]")
				x = x[1:]
			}
			if i == len(w)-1 && strings.HasSuffix(x, "s") {
				b.WriteString(regexp.QuoteMeta(x[:len(x)-1]) + "s?")
				continue
			}
			b.WriteString(regexp.QuoteMeta(x))
		}
		alts = append(alts, b.String())
	}
	// The longest first, so that a message is not cut at a shorter one it starts with.
	sort.SliceStable(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	return trig, regexp.MustCompile(`(?P<text>` + strings.Join(alts, "|") + `)`)
}

// Triggers are the literals of every shape: a line that holds none of them
// is not read (Read would find nothing in it).
func Triggers() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range shapes {
		for _, t := range s.triggers {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// nameRE finds an error's name anywhere in a text.
var nameRE = regexp.MustCompile(`\b(?:cudaError[A-Z]\w*|CUDA_ERROR_[A-Z_]+|nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidArgument|InvalidUsage|RemoteError))\b`)

// Read tells which layer printed line and the error it carries; ok is false
// when the line has no shape of a layer.
func Read(line string) (r Reading, ok bool) {
	for _, s := range shapes {
		if !holdsAny(line, s.triggers) {
			continue
		}
		m := s.re.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		group := func(names ...string) string {
			for _, n := range names {
				if i := s.re.SubexpIndex(n); i > 0 && m[2*i] >= 0 {
					return line[m[2*i]:m[2*i+1]]
				}
			}
			return ""
		}
		r = Reading{Layer: s.layer, Where: group("where", "where2"), Shape: line[m[0]:m[1]]}
		if s.byFile != nil {
			for k, l := range s.byFile {
				if strings.Contains(r.Where, k) {
					r.Layer = l
				}
			}
		}
		if e, ok := inner(s, group("name"), group("code", "code2"), group("text", "text2"), group("rest", "rest2")); ok {
			r.Error = &e
		} else if s.needErr {
			continue
		}
		if r.Error == nil && r.Layer.ID == "nccl" && group("rest") != "" && !strings.Contains(group("rest"), "failed") && !strings.Contains(group("rest"), "rror") {
			continue // a warning that reports no failure is not an error of NCCL's
		}
		return r, true
	}
	return Reading{}, false
}

// inner finds the error a shape's groups name.
func inner(s shape, name, code, text, rest string) (Error, bool) {
	if name != "" {
		if e, ok := ByName(name); ok {
			return e, true
		}
	}
	if code != "" && text == "" {
		n, _ := strconv.Atoi(code)
		for _, f := range s.families {
			if e, ok := ByCode(f, n); ok {
				return e, true
			}
		}
	}
	if text != "" {
		if e, ok := ByText(text, s.families...); ok {
			return e, true
		}
	}
	if rest == "" {
		rest = text
	}
	if rest == "" {
		return Error{}, false
	}
	if n := nameRE.FindString(rest); n != "" {
		if e, ok := ByName(n); ok {
			return e, true
		}
	}
	// A message after a colon or "error": "failed : Connection reset by peer".
	for i := 0; i < len(rest); i++ {
		if rest[i] != ':' && !strings.HasPrefix(rest[i:], "error ") {
			continue
		}
		j := i + 1
		if rest[i] != ':' {
			j = i + len("error ")
		}
		after := strings.TrimLeft(rest[j:], " ")
		// NCCL before 2.8: "failed to open CUDA IPC handle : 217 peer access is not supported ...".
		if k := strings.IndexByte(after, ' '); k > 0 && strings.Trim(after[:k], "0123456789") == "" {
			after = after[k+1:]
		}
		if e, ok := ByText(after, s.families...); ok {
			return e, true
		}
	}
	return Error{}, false
}

func holdsAny(line string, lits []string) bool {
	for _, l := range lits {
		if strings.Contains(line, l) {
			return true
		}
	}
	return false
}
