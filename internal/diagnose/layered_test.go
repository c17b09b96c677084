package diagnose

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// Lines of real public logs that name a layer and an error inside it. Where
// an entry names the line, it is the answer and the line's layer and inner
// error come with it; where none does, the answer is composed from the
// parts, says so, and lists the layer's entries before the inner error's.
func TestLayeredMessages(t *testing.T) {
	s := repoSite(t)
	for _, c := range []struct {
		src, line string
		composed  bool
		layer     string
		inner     string
		first     string // the first cause; "" for none
		firstVia  string
	}{
		// An exact NCCL line: NCCL's entry first, the generic CUDA ones after.
		{"https://github.com/ray-project/ray_lightning/issues/24", "gpu-1:1:2 [1] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices",
			false, "", "", "nccl/ipc-handle-peer-access-unsupported", ""},
		{"https://github.com/vllm-project/vllm/issues/5613", "Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 'invalid argument'",
			false, "custom_allreduce", "cudaErrorInvalidValue", "vllm/custom-allreduce-cuda-invalid-argument", ""},
		// No entry names an illegal address in NCCL: NCCL's entry of the error it returns first.
		{"https://github.com/NVIDIA/nccl/issues/629", "A03-R28-I49-2-6000166:104934:104934 [1] init.cc:204 NCCL WARN Cuda failure 'an illegal memory access was encountered'",
			true, "nccl", "cudaErrorIllegalAddress", "cuda/illegal-address-peer-memory", "inner_error"},
		{"https://github.com/NVIDIA/nccl/issues/629", "A03-R28-I49-3-9000018:46841:46987 [0] include/socket.h:428 NCCL WARN Net : Call to recv from 11.127.49.2<36048> failed : Connection reset by peer",
			true, "nccl", "ECONNRESET", "nccl/unhandled-system-error", "layer"},
		// A custom all-reduce kernel that no entry names, around an error that
		// generic entries name: composed, the CUDA error's own entries.
		{"https://github.com/deepseek-ai/DeepEP/issues/584", "RuntimeError: Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:200 'peer access is not supported between these two devices'",
			true, "deepep", "cudaErrorPeerAccessUnsupported", "cuda/peer-access-unsupported-by-hardware", "inner_error"},
		// PyTorch's plain wrapper: the generic entries name its line.
		{"https://github.com/ai-dynamo/dynamo/issues/1229", "RuntimeError: CUDA error: peer access is not supported between these two devices",
			false, "pytorch", "cudaErrorPeerAccessUnsupported", "cuda/peer-access-unsupported-by-hardware", ""},
		// UCC failing to open an IPC handle with 201: named by its own entry
		// (ucc/tl-cuda-ipc-cache-open-failed), which carries the layer and the error.
		{"https://github.com/openucx/ucc/issues/1041", "[1730117228.178968] [dgx1v-loki-23:3000 :0]   tl_cuda_cache.c:231  UCC  ERROR ipc-cache: failed to open ipc mem handle. addr:0x7f65a8000000 len:16777216 err:201",
			false, "ucc", "CUDA_ERROR_INVALID_CONTEXT", "ucc/tl-cuda-ipc-cache-open-failed", ""},
		// Libraries no shape names, that print a CUDA error by name or quote its message:
		// composed from the error's entries, here those of IPC.
		{"https://github.com/NVIDIA/DALI/issues/4817", "RuntimeError: CUDA runtime API error cudaErrorDeviceUninitialized (201):",
			true, "cuda_call", "cudaErrorDeviceUninitialized", "cuda/ipc-open-in-own-process", "inner_error"},
		{"https://github.com/openucx/ucx/pull/10618", "cuda_ipc_cache.c:132  UCX  WARN  cuIpcCloseMemHandle( (CUdeviceptr)region->mapped_addr) failed: invalid device context",
			true, "ucx", "CUDA_ERROR_INVALID_CONTEXT", "cuda/ipc-open-in-own-process", "inner_error"},
		{"https://github.com/efeslab/Nanoflow/issues/22", "I tried run llama3-70B, raise the error `peer access is not supported between these two device`",
			true, "cuda_text", "cudaErrorPeerAccessUnsupported", "cuda/peer-access-unsupported-by-hardware", "inner_error"},
		// The call that failed says which of the error's entries come first: those
		// that name IPC calls for an invalid argument from cuIpcOpenMemHandle.
		{"https://github.com/numba/numba/issues/9293", "thread/process ids, cid = 0, i = 0, [1] Call to call_cuIpcOpenMemHandle results in CUDA_ERROR_INVALID_VALUE",
			true, "numba", "CUDA_ERROR_INVALID_VALUE", "psm2/cuipcgetmemhandle-managed-memory", "inner_error"},
		// A program's own CUDA call with an invalid argument: the generic entry of
		// the error, whose usual cause is memory or a stream of another device,
		// before the entries of the same error inside NCCL, vLLM or PSM2.
		{"https://github.com/NVlabs/instant-ngp/issues/1340", "render_buffer.cu:587 cudaMemsetAsync(m_frame_buffer.data(), 0, m_frame_buffer.bytes(), stream) failed with error invalid argument",
			true, "cuda_call", "cudaErrorInvalidValue", "cuda/invalid-argument-another-device", "inner_error"},
		// The same error from an IPC call (Cray's GPU transport layer): the entries
		// that name IPC calls come before the generic one, which names no call.
		{"https://github.com/BLAST-WarpX/warpx/issues/6382", "(GTL DEBUG: 1) cuIpcOpenMemHandle: invalid argument, CUDA_ERROR_INVALID_VALUE, line no 360",
			true, "cuda_call", "CUDA_ERROR_INVALID_VALUE", "psm2/cuipcgetmemhandle-managed-memory", "inner_error"},
		{"https://github.com/pytorch/pytorch/issues/36594", "RuntimeError: CUDA error: invalid argument",
			false, "pytorch", "cudaErrorInvalidValue", "cuda/invalid-argument-another-device", ""},
		// An engine's own CUDA check that names the error: out of device memory is the
		// out-of-memory entry's, whose cause is which GPU the process allocated on.
		{"https://github.com/isaac-sim/IsaacLab/issues/1849", "2025-02-13 12:01:23 [10,436ms] [Error] [carb.cudainterop.plugin] CUDA error 2: cudaErrorMemoryAllocation - out of memory)",
			true, "cuda_call", "cudaErrorMemoryAllocation", "pytorch/cuda-out-of-memory-several-gpus", "inner_error"},
		// Numba's number for an error its table does not name: the inner error by its code.
		{"https://github.com/numba/numba/issues/7187", "numba.cuda.cudadrv.driver.CudaAPIError: [802] Call to cuInit results in UNKNOWN_CUDA_ERROR",
			true, "numba", "CUDA_ERROR_SYSTEM_NOT_READY", "cuda/system-not-yet-initialized", "inner_error"},
		// An Xid no entry names: composed, its meaning from NVIDIA's catalog in the note.
		{"https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/nvidia/debug.md",
			"NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to activate.",
			true, "nvrm", "INFOROM_DRAM_RETIREMENT_EVENT", "", ""},
		// One an entry names: the entry, with the layer and the catalog's name.
		{"https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log",
			"[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).",
			false, "nvrm", "GSP_RPC_TIMEOUT", "linux/xid-119-gsp-rpc-timeout", ""},
		// A program's own check of an NCCL call, with the bare result: composed, the
		// entries of an invalid usage, the program's check macro's first.
		{"https://github.com/laekov/fastmoe/issues/126", "NCCL Error at /home/xxx/fastmoe/cuda/global_exchange.cpp:127 value 5",
			true, "nccl_check", "ncclInvalidUsage", "nccl/invalid-usage-check-macro", "inner_error"},
		// NCCL's trace of an invalid argument: NCCL's entry of it.
		{"https://github.com/laekov/fastmoe/issues/149", "Trident-MS:1203254:1203254 [0] NCCL INFO init.cc:1577 -> 4",
			true, "nccl", "ncclInvalidArgument", "nccl/invalid-argument", "layer"},
		// A framework's wrapper around an error only the inner error's entry knows: composed, that entry.
		{"https://github.com/jaxleyverse/jaxley/issues/53", "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call 'xla.gpu.func.launch' failed: Failed to launch CUDA kernel: fusion_1560 with block dimensions: 160x1x1 and grid dimensions: 1x1x1: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered.",
			true, "xla", "CUDA_ERROR_ILLEGAL_ADDRESS", "cuda/illegal-address-peer-memory", "inner_error"},
	} {
		var out bytes.Buffer
		if _, err := Explain(&out, s, strings.NewReader(c.line+"\n"), nil, Options{Lang: "en", JSON: true}); err != nil {
			t.Fatal(err)
		}
		var d Diagnosis
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Messages) != 1 {
			t.Errorf("%s: %d messages", c.src, len(d.Messages))
			continue
		}
		m := d.Messages[0]
		if m.Composed != c.composed {
			t.Errorf("%s: composed %v", c.src, m.Composed)
		}
		if c.layer != "" && (m.Layered == nil || m.Layer.ID != c.layer || m.Inner == nil || m.Inner.Name != c.inner) {
			t.Errorf("%s: read as %+v", c.src, m.Layered)
		}
		first, via := "", ""
		if len(m.Causes) > 0 {
			first, via = m.Causes[0].ID, m.Causes[0].Via
		}
		if first != c.first || via != c.firstVia {
			t.Errorf("%s: first cause %q via %q; want %q via %q", c.src, first, via, c.first, c.firstVia)
		}
		if c.composed {
			// Never presented as a known entry: the answer says what it is made of.
			if !strings.Contains(m.Note, "No entry names this message") || !strings.Contains(m.Note, c.inner) || m.Severity != "error" {
				t.Errorf("%s: note %q, severity %s", c.src, m.Note, m.Severity)
			}
			for _, x := range m.Causes {
				if x.Via == "" {
					t.Errorf("%s: %s among the causes of a composed message without saying why", c.src, x.ID)
				}
			}
			if len(m.Causes) == 0 && len(m.Collect) == 0 {
				t.Errorf("%s: neither a cause nor what to collect next", c.src)
			}
			txt := explain(t, c.line+"\n", Options{Lang: "en"})
			if !strings.Contains(txt, "No entry names this message. The layer is ") {
				t.Errorf("%s: the text does not say the answer is composed:\n%s", c.src, txt)
			}
		}
	}
}

// A composed message is reported once per layer and inner error, however
// often the log repeats it, and a known message repeated is never taken for
// a composed one. The composed one, answered only by NCCL's wrapper entry,
// comes after the message an entry names.
func TestLayeredOncePerError(t *testing.T) {
	s := repoSite(t)
	var in strings.Builder
	for rank := 0; rank < 8; rank++ {
		in.WriteString("h:1:" + string(rune('0'+rank)) + " [0] enqueue.cc:1556 NCCL WARN Cuda failure 716 'misaligned address'\n")
		in.WriteString("h:1:2 [1] transport/p2p.cc:275 NCCL WARN Cuda failure 217 'peer access is not supported between these two devices'\n")
	}
	var out bytes.Buffer
	if _, err := Explain(&out, s, strings.NewReader(in.String()), nil, Options{Lang: "en", JSON: true}); err != nil {
		t.Fatal(err)
	}
	var d Diagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Messages) != 2 || d.Messages[0].Composed || !d.Messages[1].Composed || d.Messages[0].Causes[0].ID != "nccl/ipc-handle-peer-access-unsupported" {
		t.Errorf("messages: %d", len(d.Messages))
		for _, m := range d.Messages {
			t.Errorf("  line %d composed %v", m.Line, m.Composed)
		}
	}
}

// A binary input is refused with the line and byte, never read in part.
func TestNotTextRefused(t *testing.T) {
	s := repoSite(t)
	for _, in := range []string{
		"NCCL INFO ok\n\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00",
		"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xed\xbd\x07`\x1cI\x96%&/m\xca{\x7fJ\xf5J\xd7\xe0t\xa1\x08\x80`\x13$",
	} {
		var out bytes.Buffer
		_, err := Explain(&out, s, strings.NewReader(in), nil, Options{Lang: "en"})
		var nt *NotTextError
		if !errors.As(err, &nt) || !strings.Contains(err.Error(), "not text: line") {
			t.Errorf("%q: %v", in[:8], err)
		}
	}
}

// Thousands of lines no entry and no layer knows: answered at once, with
// what to paste or run next.
func TestUnknownLines(t *testing.T) {
	s := repoSite(t)
	var in strings.Builder
	for i := 0; i < 20000; i++ {
		in.WriteString("worker 3 step 1234 loss 0.123 something unexplained happened here 0xdeadbeef\n")
	}
	start := time.Now()
	var out bytes.Buffer
	sum, err := Explain(&out, s, strings.NewReader(in.String()), nil, Options{Lang: "en"})
	if err != nil || sum.Errors+sum.Notes != 0 {
		t.Fatal(sum, err)
	}
	if d := time.Since(start); d > 10*time.Second { // generous: a shared machine
		t.Errorf("20000 unknown lines took %v", d)
	}
	for _, w := range []string{text("en", "no_match"), text("en", "collect"), "NCCL_DEBUG=INFO", "p2p-probe --test"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the answer lacks %q:\n%s", w, out.String())
		}
	}
}

// A wrapper's line (PyTorch's "NCCL error in: ..., unhandled system error",
// nccl-tests' "Test NCCL failure ... 'unhandled system error'") comes first
// in a log, but the line that names the failure ("Last error:", NCCL's WARN
// line) is the answer: its entry is the first cause, the wrapper's after.
func TestWrapperBelowTheFailure(t *testing.T) {
	s := repoSite(t)
	for _, c := range []struct {
		src, paste string
		first      string // the failure line's entry, first or second behind another of that line
		wrapper    string // the wrapper's entry, still among the causes, after the failure's
	}{
		{"https://github.com/hiyouga/LlamaFactory/issues/7233", `[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. 
[rank1]: Last error:
[rank1]: Error while creating shared memory segment /dev/shm/nccl-LeXlEJ (size 9637888)
`, "nccl/shm-segment-create-failed", "nccl/unhandled-system-error"},
		{"https://github.com/NVIDIA/nccl/issues/1410", `[rank7]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank7]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank7]: Last error:
[rank7]: Cuda failure 1 'invalid argument'
`, "nccl/cuda-failure-invalid-argument", "nccl/unhandled-cuda-error"},
		{"https://github.com/NVIDIA/nccl-tests/issues/166", `ubuntu: Test NCCL failure common.cu:958 'unhandled system error (run with NCCL_DEBUG=INFO for details) / '
ubuntu:9621:9685 [0] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-zTYolS (size 5967872)
`, "nccl/shm-segment-create-failed", "nccl/unhandled-system-error"},
		// "invalid argument" is CUDA's text too; after "NCCL error in:" it is NCCL's result.
		{"https://github.com/vllm-project/vllm/issues/1726", `DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument, NCCL version 2.14.3
ncclInvalidArgument: Invalid value for an argument.
Last error:
Invalid config blocking attribute value -2147483648
`, "nccl/config-blocking-invalid-older-library", "nccl/invalid-argument"},
	} {
		var out bytes.Buffer
		if _, err := Explain(&out, s, strings.NewReader(c.paste), nil, Options{Lang: "en", JSON: true}); err != nil {
			t.Fatal(err)
		}
		var d Diagnosis
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, m := range d.Messages {
			for _, x := range m.Causes {
				ids = append(ids, x.ID)
			}
		}
		if len(d.Messages) < 2 || !slices.Contains(ids[:min(2, len(ids))], c.first) || d.Messages[0].Line == 1 {
			t.Errorf("%s: causes %v, want %s first, from the failure's line", c.src, ids, c.first)
		}
		if i := slices.Index(ids, c.wrapper); i < 0 || i < slices.Index(ids, c.first) {
			t.Errorf("%s: causes %v: the wrapper %s missing or before the failure", c.src, ids, c.wrapper)
		}
	}
}

// Lines as the software prints them, case and line breaks included, find
// their entries.
func TestPrintedAsIs(t *testing.T) {
	s := repoSite(t)
	for _, c := range []struct{ src, paste, want string }{
		// The open kernel module's nv_printf breaks the message over three lines.
		{"https://github.com/NVIDIA/open-gpu-kernel-modules (rm_init_adapter: \"NVRM: fallen off the bus and is not responding to commands.\\n\")",
			"NVRM: The NVIDIA GPU 0000:02:00.0\nNVRM: (PCI ID: 10de:2bb5) installed in this system has\nNVRM: fallen off the bus and is not responding to commands.\n",
			"linux/xid-79-fallen-off-bus"},
		// nvidia-smi nvlink -s on a GPU whose links are all down, as GPUd's NVLink check quotes it.
		{"https://github.com/leptonai/gpud (components/accelerator/nvidia/nvlink)", "NVML: Unable to retrieve NVLink information as all links are inActive\n",
			"nvml/nvlink-link-down"},
	} {
		var out bytes.Buffer
		if _, err := Explain(&out, s, strings.NewReader(c.paste), nil, Options{Lang: "en", JSON: true}); err != nil {
			t.Fatal(err)
		}
		var d Diagnosis
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Messages) == 0 || len(d.Messages[0].Causes) == 0 || d.Messages[0].Causes[0].ID != c.want {
			t.Errorf("%s: %+v, want %s first", c.src, d.Messages, c.want)
		}
	}
}
