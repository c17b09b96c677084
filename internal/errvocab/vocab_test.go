package errvocab

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Every runtime and driver error of the reference table is known by name,
// number and message, exactly as CUDA 13.0 printed them.
func TestCUDATable(t *testing.T) {
	f, err := os.Open("../../../shared/reference/cuda-13.0-error-strings.txt")
	if err != nil {
		t.Skip("the reference table is not beside the repository:", err)
	}
	defer f.Close()
	family, n := "", 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "== runtime"):
			family = CUDARuntime
			continue
		case strings.HasPrefix(line, "== driver"):
			family = CUDADriver
			continue
		case strings.HasPrefix(line, "=="):
			family = ""
		}
		cols := strings.Split(line, "\t")
		if family == "" || len(cols) != 3 || cols[1] == "unrecognized error code" {
			continue
		}
		e, ok := ByName(cols[1])
		if !ok || e.Family != family || e.Text != cols[2] || cols[0] != itoa(e.Code) {
			t.Errorf("%s: %+v %v, want %s %s %q", cols[1], e, ok, family, cols[0], cols[2])
		}
		n++
	}
	if n < 200 {
		t.Errorf("only %d errors read from the reference table", n)
	}
}

func itoa(n int) string {
	b := []byte{}
	if n == 0 {
		return "0"
	}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestLookups(t *testing.T) {
	if e, ok := ByCode(CUDARuntime, 217); !ok || e.Name != "cudaErrorPeerAccessUnsupported" {
		t.Errorf("runtime 217: %+v", e)
	}
	if got := Same(mustName(t, "cudaErrorPeerAccessUnsupported")); strings.Join(got, " ") != "cudaErrorPeerAccessUnsupported CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" {
		t.Errorf("same as 217: %v", got)
	}
	// NCCL before 2.8 printed its messages without the advice.
	if e, ok := ByText("unhandled cuda error", NCCL); !ok || e.Name != "ncclUnhandledCudaError" {
		t.Errorf("short NCCL message: %+v %v", e, ok)
	}
	if e, ok := ByText("Connection reset by peer", Errno); !ok || e.Name != "ECONNRESET" {
		t.Errorf("errno: %+v %v", e, ok)
	}
	if _, ok := ByText("invalid arguments galore", CUDARuntime); ok {
		t.Error("a message followed by more letters is not the message")
	}
}

func mustName(t *testing.T, n string) Error {
	e, ok := ByName(n)
	if !ok {
		t.Fatalf("%s unknown", n)
	}
	return e
}

// Lines of real public logs: the layer that printed each, where, and the
// inner error it carries.
func TestRead(t *testing.T) {
	for _, c := range []struct {
		src, line, layer, where, err string
	}{
		{"https://github.com/vllm-project/vllm/issues/5613", "Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 'invalid argument'",
			"custom_allreduce", "/home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310", "cudaErrorInvalidValue"},
		{"https://github.com/deepseek-ai/DeepEP/issues/584", "RuntimeError: Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:200 'peer access is not supported between these two devices'",
			"deepep", "/sgl-workspace/DeepEP/csrc/deep_ep.cpp:200", "cudaErrorPeerAccessUnsupported"},
		{"https://github.com/vllm-project/vllm/issues/19890", "enqueue.cc:1556 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'",
			"nccl", "enqueue.cc:1556", "cudaErrorIllegalAddress"},
		{"https://github.com/pytorch/pytorch/issues/131755", "n122-164-108:7400:7642 [1] include/alloc.h:125 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'",
			"nccl", "include/alloc.h:125", "cudaErrorIllegalAddress"},
		{"https://github.com/NVIDIA/nccl/issues/629", "A03-R28-I49-2-6000166:104934:104934 [1] init.cc:204 NCCL WARN Cuda failure 'an illegal memory access was encountered'",
			"nccl", "init.cc:204", "cudaErrorIllegalAddress"},
		{"https://github.com/NVIDIA/nccl/issues/629", "A03-R28-I49-3-9000018:46841:46987 [0] include/socket.h:428 NCCL WARN Net : Call to recv from 11.127.49.2<36048> failed : Connection reset by peer",
			"nccl", "include/socket.h:428", "ECONNRESET"},
		{"https://github.com/ray-project/ray_lightning/issues/24", "transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices",
			"nccl", "transport/p2p.cc:238", "cudaErrorPeerAccessUnsupported"},
		{"https://github.com/NVIDIA/nccl/issues/629", "A03-R28-I49-2-6000166: Test NCCL failure common.cu:497 'unhandled cuda error'",
			"nccl_tests", "common.cu:497", "ncclUnhandledCudaError"},
		{"https://github.com/NVIDIA/nccl/issues/1410", "[rank5]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",
			"pytorch_nccl", "../torch/csrc/distributed/c10d/NCCLUtils.hpp:275", "ncclUnhandledCudaError"},
		{"https://github.com/NVIDIA/nccl/issues/1410", "[rank6]: ncclUnhandledCudaError: Call to CUDA function failed.", "pytorch_nccl", "", "ncclUnhandledCudaError"},
		{"https://github.com/vllm-project/vllm/issues/3152", "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_INVALID_USAGE: invalid usage", "cupy_nccl", "", "ncclInvalidUsage"},
		{"https://github.com/vllm-project/vllm/issues/3222", "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_INTERNAL_ERROR: internal error", "cupy_nccl", "", "ncclInternalError"},
		{"https://github.com/NVIDIA/nccl/issues/1410", "[rank6]: Cuda failure 1 'invalid argument'", "nccl", "", "cudaErrorInvalidValue"},
		{"https://github.com/NVIDIA/nvbandwidth/issues/44", "[CUDA_ERROR_INVALID_VALUE] invalid argument in expression cuMemSetAccess(",
			"nvbandwidth", "cuMemSetAccess", "CUDA_ERROR_INVALID_VALUE"},
		{"https://github.com/openucx/ucx/pull/11603", "cuda_ipc_cache.c:284  UCX  ERROR cuIpcOpenMemHandle() failed: invalid device context",
			"ucx", "cuIpcOpenMemHandle", "CUDA_ERROR_INVALID_CONTEXT"},
		{"https://github.com/openucx/ucc/issues/1041", "[1730117228.178968] [dgx1v-loki-23:3000 :0]   tl_cuda_cache.c:231  UCC  ERROR ipc-cache: failed to open ipc mem handle. addr:0x7f65a8000000 len:16777216 err:201",
			"ucc", "ipc-cache", "CUDA_ERROR_INVALID_CONTEXT"},
		{"https://github.com/jax-ml/jax/issues/17399", "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:275: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error",
			"xla", "ncclCommInitRank", "ncclUnhandledCudaError"},
		{"https://github.com/jaxleyverse/jaxley/issues/53", "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call 'xla.gpu.func.launch' failed: Failed to launch CUDA kernel: fusion_1560 with block dimensions: 160x1x1 and grid dimensions: 1x1x1: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered.",
			"xla", "", "CUDA_ERROR_ILLEGAL_ADDRESS"},
		{"https://github.com/ggml-org/llama.cpp/issues/3230", "CUDA error 217 at ggml-cuda.cu:6292: peer access is not supported between these two devices",
			"llamacpp", "ggml-cuda.cu:6292", "cudaErrorPeerAccessUnsupported"},
		{"https://github.com/tinygrad/open-gpu-kernel-modules/issues/44", `CUDA error at p2pBandwidthLatencyTest.cu:138 code=205(cudaErrorMapBufferObjectFailed) "cudaDeviceEnablePeerAccess(gpuid[1], 0)"`,
			"cuda_samples", "p2pBandwidthLatencyTest.cu:138", "cudaErrorMapBufferObjectFailed"},
		{"https://github.com/ai-dynamo/dynamo/issues/1229", "RuntimeError: CUDA error: peer access is not supported between these two devices",
			"pytorch", "", "cudaErrorPeerAccessUnsupported"},
		{"https://github.com/meta-pytorch/torchcomms/pull/2399", `torch.AcceleratorError: CUDA error: peer access is already enabled`,
			"pytorch", "", "cudaErrorPeerAccessAlreadyEnabled"},
		{"https://github.com/ggml-org/llama.cpp/issues/10152", "CUDA error: peer access has not been enabled", "cuda_check", "", "cudaErrorPeerAccessNotEnabled"},
		// SGLang's runtime check names the custom all-reduce kernel's file before the CUDA error (seen in many training configs that disable it).
		{"https://github.com/sgl-project/sglang/pull/27948", "Exception: Capture cuda graph failed: Runtime check failed at /sgl-workspace/sglang/python/sglang/jit_kernel/include/sgl_kernel/distributed/custom_all_reduce.cuh:37: CUDA error: invalid argument",
			"custom_allreduce", "/sgl-workspace/sglang/python/sglang/jit_kernel/include/sgl_kernel/distributed/custom_all_reduce.cuh:37", "cudaErrorInvalidValue"},
		// UCX printing the call with its arguments.
		{"https://github.com/openucx/ucx/pull/10618", "cuda_ipc_cache.c:132  UCX  WARN  cuIpcCloseMemHandle( (CUdeviceptr)region->mapped_addr) failed: invalid device context",
			"ucx", "cuIpcCloseMemHandle", "CUDA_ERROR_INVALID_CONTEXT"},
		// PyTorch's THC check before 1.5, raised or printed: the error by its text, its number being of an older CUDA.
		{"https://github.com/pytorch/pytorch/issues/7096", "a=q.get() # error cuda runtime error (10) : invalid device ordinal at /pytorch/torch/csrc/generic/StorageSharing.cpp:304 !!!",
			"pytorch", "/pytorch/torch/csrc/generic/StorageSharing.cpp:304", "cudaErrorInvalidDevice"},
		{"https://github.com/pytorch/pytorch/issues/1707", "THCudaCheck FAIL file=/py/conda-bld/pytorch_1493670682084/work/torch/csrc/generic/StorageSharing.cpp line=248 error=11 : invalid argument",
			"pytorch", "/py/conda-bld/pytorch_1493670682084/work/torch/csrc/generic/StorageSharing.cpp", "cudaErrorInvalidValue"},
		{"https://github.com/matjesg/deepflash2/issues/10", `"RuntimeError: cuda runtime error (801) : operation not supported at ..\torch/csrc/generic/StorageSharing.cpp:247"`,
			"pytorch", `..\torch/csrc/generic/StorageSharing.cpp:247`, "cudaErrorNotSupported"},
		// Numba's driver check: the error by name, or by its number where Numba's table lacks the name.
		{"https://github.com/numba/numba/issues/9293", "thread/process ids, cid = 0, i = 0, [1] Call to call_cuIpcOpenMemHandle results in CUDA_ERROR_INVALID_VALUE",
			"numba", "cuIpcOpenMemHandle", "CUDA_ERROR_INVALID_VALUE"},
		{"https://github.com/numba/numba/issues/7187", "numba.cuda.cudadrv.driver.CudaAPIError: [802] Call to cuInit results in UNKNOWN_CUDA_ERROR",
			"numba", "cuInit", "CUDA_ERROR_SYSTEM_NOT_READY"},
		// Libraries no shape names: the call and the error by name, or by number.
		{"https://github.com/chelsea0x3b/cudarc/issues/521", "cuIpcGetMemHandle result: CUDA_ERROR_INVALID_VALUE", "cuda_call", "cuIpcGetMemHandle", "CUDA_ERROR_INVALID_VALUE"},
		{"https://github.com/NVIDIA/DALI/issues/4817", "RuntimeError: CUDA runtime API error cudaErrorDeviceUninitialized (201):", "cuda_call", "", "cudaErrorDeviceUninitialized"},
		{"https://github.com/eunomia-bpf/bpftime/issues/488", "[2025-11-03 15:02:47][error][2617448] Unable to map CUDA IPC memory for shared array map, error=201",
			"cuda_call", "CUDA IPC", "CUDA_ERROR_INVALID_CONTEXT"},
		// A call's error by its message: a runtime call with its arguments, a driver call.
		{"https://github.com/NVlabs/instant-ngp/issues/1340", "render_buffer.cu:587 cudaMemsetAsync(m_frame_buffer.data(), 0, m_frame_buffer.bytes(), stream) failed with error invalid argument",
			"cuda_call", "cudaMemsetAsync", "cudaErrorInvalidValue"},
		{"https://github.com/openucx/ucx/pull/10618", "cuIpcCloseMemHandle( (CUdeviceptr)region->mapped_addr) failed: invalid device context", "cuda_call", "cuIpcCloseMemHandle", "CUDA_ERROR_INVALID_CONTEXT"},
		// A call whose words after it are no known message: the next shape reads the message within.
		{"", "cudaMemcpyPeerAsync failed: err = peer access is not supported between these two devices", "cuda_text", "", "cudaErrorPeerAccessUnsupported"},
		// A program's own check of an NCCL call: the result by its message or its number, named
		// after the program where its file says which.
		{"https://github.com/InternLM/lmdeploy/issues/1267", "  Failed, NCCL error /lmdeploy/src/turbomind/utils/nccl_utils.cc:296 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'",
			"nccl_check", "/lmdeploy/src/turbomind/utils/nccl_utils.cc:296", "ncclUnhandledCudaError"},
		{"https://github.com/NVIDIA/TensorRT-LLM/issues/9263", "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error ../tensorrt_llm/runtime/ncclCommunicator.cpp:90 'invalid usage (run with NCCL_DEBUG=WARN for details)'",
			"trtllm_nccl", "../tensorrt_llm/runtime/ncclCommunicator.cpp:90", "ncclInvalidUsage"},
		{"https://github.com/laekov/fastmoe/issues/126", "NCCL Error at /home/xxx/fastmoe/cuda/global_exchange.cpp:127 value 5", "nccl_check", "/home/xxx/fastmoe/cuda/global_exchange.cpp:127", "ncclInvalidUsage"},
		{"https://github.com/NVIDIA/nccl-tests/issues/14", "NCCL failure common.cu:874 'unhandled system error'", "nccl_check", "common.cu:874", "ncclSystemError"},
		// NCCL's trace of an invalid argument whose check warned in other words.
		{"https://github.com/laekov/fastmoe/issues/149", "Trident-MS:1203254:1203254 [0] NCCL INFO init.cc:1577 -> 4", "nccl", "init.cc:1577", "ncclInvalidArgument"},
		// A message quoted in prose, without its plural s; in another case.
		{"https://github.com/efeslab/Nanoflow/issues/22", "I tried run llama3-70B, raise the error `peer access is not supported between these two device`",
			"cuda_text", "", "cudaErrorPeerAccessUnsupported"},
		{"https://github.com/efeslab/Nanoflow/issues/22", "Peer access is not supported between these two devices.", "cuda_text", "", "cudaErrorPeerAccessUnsupported"},
		// The kernel driver's Xid events, read against NVIDIA's catalog.
		{"https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log",
			"[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).",
			"nvrm", "PCI:0000:9b:00", "GSP_RPC_TIMEOUT"},
		{"https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1151", "May 18 19:02:39 kernel: NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.",
			"nvrm", "PCI:0000:2b:00", "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS"},
		{"https://pastebin.com/xJaypMZt", "NVRM: Xid (0000:01:00): 3, C 00000005 SC 00000007 M 00001ffc Data ffffffff", "nvrm", "0000:01:00", ""},
	} {
		r, ok := Read(c.line)
		got := ""
		if r.Error != nil {
			got = r.Error.Name
		}
		if !ok || r.Layer.ID != c.layer || r.Where != c.where && !strings.HasPrefix(r.Where, c.where) || got != c.err {
			t.Errorf("%s\n  %s\n  read as %q at %q carrying %q (%v); want %q at %q carrying %q", c.src, c.line, r.Layer.ID, r.Where, got, ok, c.layer, c.where, c.err)
		}
	}
	for _, line := range []string{"NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM", "host:1:1 [0] NCCL WARN NCCL_P2P_LEVEL is deprecated", "training step 10 loss 1.5",
		"cudaMemcpyAsync took 12 ms", "cuMemCreate size 2097152 granularity 2097152", "the operation completed in 3 s",
		// The trace of a CUDA failure: its WARN line above names the error better.
		"nickelpie-job-0:1:92 [0] NCCL INFO transport/p2p.cc:352 -> 1",
		// A check that prints no result says nothing of the error.
		"Failed, NCCL error src/CKKS/Context.cu:725"} {
		if r, ok := Read(line); ok {
			t.Errorf("%q read as %+v", line, r)
		}
	}
}

// Every trigger of a shape is in some line the shape matches: a trigger a
// line need not hold would hide the shape from it.
func TestTriggersAreRequired(t *testing.T) {
	for _, s := range shapes {
		if len(s.triggers) == 0 {
			t.Errorf("%s: a shape without a trigger is read on no line", s.re)
		}
	}
}

func TestBare(t *testing.T) {
	for msg, want := range map[string]bool{
		"peer access is not supported between these two devices":                                                   true,
		"CUDA_ERROR_PEER_ACCESS_UNSUPPORTED":                                                                       true,
		"cudaErrorInvalidDevice: invalid device ordinal":                                                           true,
		"CUDA error: invalid device ordinal":                                                                       true,
		"unhandled cuda error (run with NCCL_DEBUG=INFO for details)":                                              true,
		"transport/p2p.cc:290 NCCL WARN Cuda failure 217 'peer access is not supported between these two devices'": false,
		"Custom allreduce is disabled because your platform lacks GPU P2P capability":                              false,
	} {
		if Bare(msg) != want {
			t.Errorf("Bare(%q) = %v", msg, !want)
		}
	}
}

// A result's name or message alone is a wrapper's text, and so is PyTorch's
// line of a failed NCCL call up to its result; anything more, or another
// family's error, is not.
func TestResult(t *testing.T) {
	for text, want := range map[string]bool{
		"unhandled cuda error": true,
		"unhandled system error (run with NCCL_DEBUG=INFO for details)": true,
		"ncclSystemError": true,
		" internal error - please report this issue to the NCCL developers": true,
		"no error":              false,
		"ncclSuccess":           false,
		"invalid argument":      false, // CUDA's too, and NCCL's own is longer
		"cudaErrorInvalidValue": false,
		"Error while creating shared memory segment": false,
		// PyTorch's line (https://github.com/vllm-project/vllm/issues/1726):
		// the result there is NCCL's.
		"NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument":             true,
		"NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, peer access is not supported": false,
	} {
		if got := Result(text); got != want {
			t.Errorf("Result(%q) = %v", text, got)
		}
	}
}

// A message is found however people quote it: in another case, without its
// plural s or final full stop; never from a message that is too short to
// say what failed by itself.
func TestByTextAsQuoted(t *testing.T) {
	for text, want := range map[string]string{
		"peer access is not supported between these two device":   "cudaErrorPeerAccessUnsupported",
		"PEER ACCESS IS NOT SUPPORTED BETWEEN THESE TWO DEVICES.": "cudaErrorPeerAccessUnsupported",
		"Invalid device context (while opening the handle)":       "cudaErrorDeviceUninitialized",
		"an illegal memory access was encountered":                "cudaErrorIllegalAddress",
		"peer access": "",
	} {
		got := ""
		if e, ok := ByText(text, CUDARuntime, CUDADriver); ok {
			got = e.Name
		}
		if got != want {
			t.Errorf("ByText(%q) = %q, want %q", text, got, want)
		}
	}
}

// The Xid table holds the catalog's events the NVLink, bus, memory, GSP and
// timeout families are made of, each with its catalog description, and
// names an Xid as people do.
func TestXidTable(t *testing.T) {
	for code, text := range map[int]string{13: "Graphics Engine Exception", 31: "GPU memory page fault", 48: "Double Bit ECC Error", 74: "NVLINK Error",
		79: "GPU has fallen off the bus", 94: "Contained memory error", 95: "Uncontained memory error", 119: "GSP RPC Timeout", 120: "GSP Error",
		121: "C2C Error", 140: "ECC Unrecovered Error", 145: "NVLINK: RLW Error", 154: "GPU Recovery Action Changed"} {
		e, ok := ByCode(Xid, code)
		if !ok || e.Text != text {
			t.Errorf("Xid %d: %+v, want %q", code, e, text)
			continue
		}
		if s := Same(e); len(s) != 2 || s[1] != fmt.Sprintf("Xid %d", code) {
			t.Errorf("Xid %d: named %v", code, s)
		}
	}
}

// A call's kind, as the lines of real logs name the call.
func TestAPIKind(t *testing.T) {
	for name, want := range map[string]string{
		"cuIpcOpenMemHandle": APIIPC, "cudaIpcGetMemHandle": APIIPC, "CUDA IPC": APIIPC,
		"cudaDeviceEnablePeerAccess": APIPeer, "cuCtxEnablePeerAccess": APIPeer, "cudaMemcpyPeerAsync": APIPeer, "cuDeviceGetP2PAttribute": APIPeer,
		"cuMemCreate": APIVMM, "cuMemImportFromShareableHandle": APIVMM, "cuMulticastBindMem": APIVMM,
		"cuMemcpyAsync": "", "cuMemAlloc_v2": "", "cudaMalloc": "", "cuInit": "", "": "",
	} {
		if got := APIKind(name); got != want {
			t.Errorf("APIKind(%q) = %q, want %q", name, got, want)
		}
	}
	// An entry's text, its pattern's escapes included, names each kind once.
	if got := APIKinds(`cuda_ipc_cache.c:\d+ +UCX +ERROR cuIpcOpenMemHandle\(\) failed|cudaIpcOpenMemHandle|cuMemCreate`); len(got) != 2 || got[0] != APIIPC || got[1] != APIVMM {
		t.Errorf("APIKinds: %v", got)
	}
}
