package build_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/diagnose"
	"github.com/p2pkb/p2pkb/internal/errvocab"
	"github.com/p2pkb/p2pkb/internal/kb"
	pastefacts "github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/server"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Lines of real public logs, each naming a layer and an error inside it.
var layeredLines = []string{
	"gpu-1:1:2 [1] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices", // https://github.com/ray-project/ray_lightning/issues/24
	"node1:2001:2101 [0] transport/p2p.cc:275 NCCL WARN Cuda failure 217 'peer access is not supported between these two devices'",
	"Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 'invalid argument'",                                                                                                                    // https://github.com/vllm-project/vllm/issues/5613
	"A03-R28-I49-2-6000166:104934:104934 [1] init.cc:204 NCCL WARN Cuda failure 'an illegal memory access was encountered'",                                                                                    // https://github.com/NVIDIA/nccl/issues/629
	"A03-R28-I49-3-9000018:46841:46987 [0] include/socket.h:428 NCCL WARN Net : Call to recv from 11.127.49.2<36048> failed : Connection reset by peer",                                                        // same
	"[rank5]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5",           // https://github.com/NVIDIA/nccl/issues/1410
	"[CUDA_ERROR_INVALID_VALUE] invalid argument in expression cuMemSetAccess(",                                                                                                                                // https://github.com/NVIDIA/nvbandwidth/issues/44
	"cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_INVALID_USAGE: invalid usage",                                                                                                                          // https://github.com/vllm-project/vllm/issues/3152
	"cuda_ipc_cache.c:284  UCX  ERROR cuIpcOpenMemHandle() failed: invalid device context",                                                                                                                     // https://github.com/openucx/ucx/pull/11603
	"INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:275: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error",                                                          // https://github.com/jax-ml/jax/issues/17399
	"CUDA error 217 at ggml-cuda.cu:6292: peer access is not supported between these two devices",                                                                                                              // https://github.com/ggml-org/llama.cpp/issues/3230
	"RuntimeError: CUDA error: peer access is not supported between these two devices",                                                                                                                         // https://github.com/ai-dynamo/dynamo/issues/1229
	`CUDA error at p2pBandwidthLatencyTest.cu:138 code=205(cudaErrorMapBufferObjectFailed) "cudaDeviceEnablePeerAccess(gpuid[1], 0)"`,                                                                          // https://github.com/tinygrad/open-gpu-kernel-modules/issues/44
	"cuda_ipc_cache.c:132  UCX  WARN  cuIpcCloseMemHandle( (CUdeviceptr)region->mapped_addr) failed: invalid device context",                                                                                   // https://github.com/openucx/ucx/pull/10618
	"thread/process ids, cid = 0, i = 0, [1] Call to call_cuIpcOpenMemHandle results in CUDA_ERROR_INVALID_VALUE",                                                                                              // https://github.com/numba/numba/issues/9293
	"numba.cuda.cudadrv.driver.CudaAPIError: [802] Call to cuInit results in UNKNOWN_CUDA_ERROR",                                                                                                               // https://github.com/numba/numba/issues/7187
	"RuntimeError: CUDA runtime API error cudaErrorDeviceUninitialized (201):",                                                                                                                                 // https://github.com/NVIDIA/DALI/issues/4817
	"[2025-11-03 15:02:47][error][2617448] Unable to map CUDA IPC memory for shared array map, error=201",                                                                                                      // https://github.com/eunomia-bpf/bpftime/issues/488
	"I tried run llama3-70B, raise the error `peer access is not supported between these two device`",                                                                                                          // https://github.com/efeslab/Nanoflow/issues/22
	"[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).", // https://github.com/leptonai/gpud (dmesg-with-xid-119.log)
	"NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to activate.",                                                                                             // https://github.com/stas00/ml-engineering (compute/accelerator/nvidia/debug.md)
	"Exception: Capture cuda graph failed: Runtime check failed at /sgl-workspace/sglang/python/sglang/jit_kernel/include/sgl_kernel/distributed/custom_all_reduce.cuh:37: CUDA error: invalid argument",       // https://github.com/sgl-project/sglang/pull/27948
	"NCCL Error at /home/xxx/fastmoe/cuda/global_exchange.cpp:127 value 5",                                                                                                                                     // https://github.com/laekov/fastmoe/issues/126
	"  Failed, NCCL error /lmdeploy/src/turbomind/utils/nccl_utils.cc:296 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'",                                                                       // https://github.com/InternLM/lmdeploy/issues/1267
	"Trident-MS:1203254:1203254 [0] NCCL INFO init.cc:1577 -> 4",                                                                                                                                               // https://github.com/laekov/fastmoe/issues/149
	"nickelpie-job-0:1:92 [0] NCCL INFO transport/p2p.cc:352 -> 1",                                                                                                                                             // https://github.com/NVIDIA/nccl/issues/1647
	"render_buffer.cu:587 cudaMemsetAsync(m_frame_buffer.data(), 0, m_frame_buffer.bytes(), stream) failed with error invalid argument",                                                                        // https://github.com/NVlabs/instant-ngp/issues/1340
	"Failed, NCCL error src/CKKS/Context.cu:725",
	"cudaMemcpyPeerAsync failed: err = peer access is not supported between these two devices",
	"training step 12 loss 0.5",
}

func repoModel(t *testing.T) *site.Site {
	t.Helper()
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	return site.New(k, a, "")
}

// goOrder is explain's (or match's) causes of each message, by line, and
// the composed messages' causes with how each was found. A second message
// at a line (a symptom the line shows, beside the line's own error) is at
// line+dup, a third at line+2*dup, in explain's order, as the page's boxes
// are.
func goOrder(t *testing.T, s *site.Site, q string, match, pasted bool) (order map[int][]string, composed, layered map[int]string) {
	t.Helper()
	var out bytes.Buffer
	var err error
	var x *pastefacts.Extractor
	if pasted {
		x = pastefacts.New()
	}
	if match {
		_, err = diagnose.Match(&out, s, rules.Facts{}, strings.NewReader(q), diagnose.Options{Lang: "en", JSON: true, Paste: x})
	} else {
		_, err = diagnose.Explain(&out, s, strings.NewReader(q), nil, diagnose.Options{Lang: "en", JSON: true, Paste: x})
	}
	if err != nil {
		t.Fatal(err)
	}
	var d diagnose.Diagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	order, composed, layered = map[int][]string{}, map[int]string{}, map[int]string{}
	for _, m := range d.Messages {
		if m.ByWords {
			continue // no line's: the closest entries by words are compared apart
		}
		if m.Layered != nil && m.Inner != nil {
			layered[m.Line] = m.Layer.ID + " " + m.Inner.Name
		}
		var ids []string
		for _, c := range m.Causes {
			ids = append(ids, c.ID+" "+c.Via)
		}
		if m.Composed {
			composed[m.Line] = m.Layer.ID + " " + m.Inner.Name + ": " + strings.Join(ids, ",")
			continue
		}
		key := m.Line
		for order[key] != nil {
			key += dup
		}
		order[key] = ids
	}
	return order, composed, layered
}

// dup is the step between the keys of messages at one line (goOrder).
const dup = 1_000_000

// The four ways of asking give the same causes in the same order for the
// same paste: explain, match (no facts), /api/search and the search page,
// from the client index (file://) and through the API (p2pkb serve). The
// page reads each line's layer and inner error as explain does, and answers
// a line no entry names with the same causes of its parts.
func TestBrowserSameOrderFourWays(t *testing.T) {
	s := repoModel(t)
	out := buildSite(t, "")
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	srv := httptest.NewServer(server.New(os.DirFS(out), ix))
	defer srv.Close()
	b, served := browsertest.New(t), browsertest.New(t)
	fileRoot := (&url.URL{Scheme: "file", Path: out + "/"}).String()

	// Each line read in the page as in Go.
	runQuery(t, b, fileRoot, "en", "x")
	for _, l := range layeredLines {
		want := ""
		if r, ok := errvocab.Read(l); ok && r.Error != nil {
			want = r.Layer.ID + " " + r.Where + " " + r.Error.Name
		}
		js, _ := json.Marshal(l)
		got := browsertest.Eval[string](b, `(r => r && r.error ? r.layer.id + " " + r.where + " " + r.error.name : "")(p2pkbSearch.readLine(`+string(js)+`))`)
		if got != want {
			t.Errorf("%s\n  page reads %q, Go %q", l, got, want)
		}
	}

	// A match that is only an NCCL result is a wrapper in the page as in Go,
	// PyTorch's line of a failed NCCL call up to its result too.
	for _, text := range []string{"unhandled cuda error", "invalid argument", "ncclSuccess",
		"NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument",
		"NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, peer access is not supported"} {
		js, _ := json.Marshal(text)
		if got, want := browsertest.Eval[bool](b, `p2pkbSearch.isResult(`+string(js)+`)`), errvocab.Result(text); got != want {
			t.Errorf("%q: the page reads a wrapper %v, Go %v", text, got, want)
		}
	}

	// Each line alone: the page lists an entry once, at the first line it
	// matches, as explain reports it once.
	pastes := []string{
		"[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\n",
		strings.Join(layeredLines[3:5], "\n") + "\n",
		"Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.\n",
		"tensor([0., 0.], device='cuda:1')\n",
		// PyTorch's "invalid argument" is NCCL's result there, a wrapper above
		// the line its Last error names (https://github.com/vllm-project/vllm/issues/1726).
		// The entry that names the first line names the second too, in other
		// words: neither explain nor the page composes an answer for it.
		"DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument, NCCL version 2.14.3\nncclInvalidArgument: Invalid value for an argument.\nLast error:\nInvalid config blocking attribute value -2147483648\n",
		// A wrapper above the line that names the failure: https://github.com/NVIDIA/nccl/issues/1410
		"[rank7]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n[rank7]: Last error:\n[rank7]: Cuda failure 1 'invalid argument'\n",
	}
	for _, l := range layeredLines {
		pastes = append(pastes, l+"\n")
	}
	// A program's own check that only an entry of its shape answers
	// (https://github.com/xdit-project/mochi-xdit/issues/5), before a line
	// an entry names.
	pastes = append(pastes, "AssertionError: Visual sequence length (14310) must be divisible by cp_size (4).\n[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\n")
	// Pastes with no error line, of real public output and prose: explain
	// answers each from what it shows, a symptom at its line, and the page
	// shows the same causes in a box whatever their number.
	symptomPastes := map[string]bool{
		"Moving a tensor across CUDA devices gets zero tensor, CUDA 11.0\n":                                          true, // https://github.com/pytorch/pytorch/issues/87363
		"I tried giving 4 MIG instances (`1g.10gb`) to the container but couldn't start the distributed training.\n": true, // https://github.com/NVIDIA/k8s-device-plugin/issues/446
		// A hang beside what is more specific than a hang alone: the custom
		// all-reduce named (https://github.com/vllm-project/vllm/issues/5854)
		// and NVLS set up (https://github.com/NVIDIA/nccl-tests/issues/216)
		// rank above the hang's generic causes.
		"[Misc]: CUDAGraph captured generation stuck with custom_all_reduce and tensor_parallel=2\n":                                                          true,
		"it seems that it always hangs when running on more than 2 GPUs\nc2ce1c877ea3:1023:1032 [0] NCCL INFO NVLS multicast support is available on dev 0\n": true,
	}
	// A program's own check beside MIG said in words: what the paste shows
	// first (https://github.com/vllm-project/vllm/issues/7211).
	symptomPastes["I found a bug when trying to run a model with vllm across 2 GPU MIG partitions.\n\nThus i get: \n\nValueError: invalid literal for int() with base 10: 'MIG-2e782cfd-36f2-55ff-a7d5-c6734444be2b'\n"] = true
	// A hang said in words with no version: a release's known hang follows
	// the hang's causes (https://github.com/flagos-ai/Megatron-LM-FL/issues/138).
	symptomPastes["We occasionally see distributed CUDA tests hang when using:\n\n```python\ntorch.distributed.init_process_group(\n    backend=\"nccl\",\n    device_id=torch.device(\"cuda\", local_rank),\n)\n```\n"] = true
	// A hang and a release with a known hang, both said in words: https://github.com/NVIDIA/nccl/issues/311
	// The same beside a hang in training that made progress, which reads
	// more of the paste for ranks out of step: the release the paste
	// states first (https://github.com/horovod/horovod/issues/1078).
	symptomPastes["6. NCCL version: v2.4.2 for cuda10\n7. Python version: python 3.6\n\nI am using horovod to train a large model. The training can work properly as first. But after several steps(about 190k~220k steps), one process is died while other processes are hung for it (not sure).\n"] = true
	// A log that stops at an all-reduce after a step of training: only the
	// part of a condition that holds counts as read
	// (https://github.com/SWivid/F5-TTS/issues/728).
	symptomPastes["Epoch 1/1742:   6%| | 1/18 [00:04<01:16, 4.52s/update, loss=0.452, update=1]\n0d0ebf8294f3:91788:91788 [0] NCCL INFO Broadcast: opCount 3c sendbuff 0x7767057ffa00 recvbuff 0x7767057ffa00 count 8 datatype 0 op 0 root 0 comm 0x5813c1f1b340 [nranks=2] stream 0x5813da6822f0\n0d0ebf8294f3:91788:94129 [0] NCCL INFO AllReduce: opCount 3e sendbuff 0x77653aa00000 recvbuff 0x77653aa00000 count 2202724 datatype 7 op 0 root 0 comm 0x5813c1f1b340 [nranks=2] stream 0x5813da6822f0\n"] = true
	symptomPastes["We integrate NCCL 2.4.2 in our framework and `ncclAllGather` hangs after training for at least one day which could be reproduced.\n"] = true
	// A line that says only that something hung, answered with what the
	// rest of the paste says about why first: PyTorch's watchdog on the first
	// all-reduce (https://github.com/huggingface/picotron_tutorial/issues/6)
	// beside nvidia-smi's header of the 545 driver on a GeForce RTX 3090
	// (https://github.com/huggingface/text-generation-inference/issues/1559,
	// whose shards' first all-reduce timed out the same way): the driver
	// branch first. With nothing else known, the line's own entries, in the
	// order explain gives them without the paste's facts.
	watchdog := "[E ProcessGroupNCCL.cpp:474] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=120000) ran for 120621 milliseconds before timing out.\n"
	hangPastes := map[string]string{
		"| NVIDIA-SMI 545.29.06              Driver Version: 545.29.06    CUDA Version: 12.3     |\n|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\n" + watchdog: "cuda/driver-branch-p2p-hang-geforce",
		watchdog: "",
		// Two ranks' watchdog lines that disagree on the collective's size
		// (https://github.com/modelscope/FunASR/issues/2317): ranks out of step.
		"[rank0]:[E ProcessGroupNCCL.cpp:563] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3437, OpType=ALLREDUCE, NumelIn=4311252, NumelOut=4311252, Timeout(ms)=600000) ran for 600057 milliseconds before timing out.\n" +
			"[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3437, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600076 milliseconds before timing out.\n": "pytorch/collective-mismatch-across-ranks",
	}
	for q, first := range hangPastes {
		pastes = append(pastes, q)
		order, _, _ := goOrder(t, s, q, false, true)
		// The first watchdog line, where explain lists the line's entries.
		n := strings.Count(q[:strings.Index(q, "Watchdog caught")], "\n") + 1
		got := order[n]
		if first == "" {
			// The line's own entries, then a release's known hang, which no
			// version in the paste rules out.
			own, _, _ := goOrder(t, s, watchdog, false, false)
			want := append(slices.Clone(own[1]), "nccl/release-with-known-hang ")
			if strings.Join(got, ",") != strings.Join(want, ",") || !slices.Contains(got, "pytorch/nccl-watchdog-timeout ") {
				t.Errorf("%.60q: explain answers the watchdog's line with %v, want its own entries and a release's known hang %v", q, got, want)
			}
		} else if len(got) == 0 || got[0] != first+" " {
			t.Errorf("%.60q: explain answers the watchdog's line with %v, want %s first", q, got, first)
		}
	}
	for _, f := range []string{"collect-env-wsl.txt", "torch-copy-zeros-2gpu.txt", "torch-copy-differs-4090.txt", "topo-5090x2-gns.txt", "horovod-hang-after-init.log"} {
		data, err := os.ReadFile("../paste/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		symptomPastes[string(data)] = true
	}
	for q := range symptomPastes {
		pastes = append(pastes, q)
	}
	for _, q := range pastes {
		explainOrder, explainComposed, explainLayered := goOrder(t, s, q, false, true)
		matchOrder, _, _ := goOrder(t, s, q, true, true)
		// The API does not judge: explain without the facts the paste gives.
		unjudged, _, _ := goOrder(t, s, q, false, false)
		for line, ids := range explainOrder {
			if strings.Join(matchOrder[line], ",") != strings.Join(ids, ",") {
				t.Errorf("line %d: match %v, explain %v", line, matchOrder[line], ids)
			}
		}

		// /api/search: the results a line's patterns matched, in their order.
		resp, err := http.Get(srv.URL + "/api/search?limit=100&q=" + url.QueryEscape(q))
		if err != nil {
			t.Fatal(err)
		}
		var api server.APIResponse
		json.NewDecoder(resp.Body).Decode(&api)
		resp.Body.Close()
		lines := strings.Split(q, "\n")
		for line, ids := range unjudged {
			line %= dup
			var got []string
			for _, r := range api.Results {
				if r.Match != "" && strings.Contains(lines[line-1], r.Match) {
					got = append(got, r.ID+" ")
				}
			}
			if strings.Join(got, ",") != strings.Join(ids, ",") {
				t.Errorf("line %d: /api/search %v, explain %v", line, got, ids)
			}
		}
		for line := range explainComposed {
			found := false
			for _, r := range api.Lines {
				found = found || r.Line == line && r.Composed
			}
			if !found {
				t.Errorf("line %d: explain composes it, /api/search does not say so: %+v", line, api.Lines)
			}
		}

		// The search page, from the client index and through the API.
		for _, root := range []string{fileRoot, srv.URL + "/"} {
			b := b
			if root != fileRoot {
				b = served
			}
			runQuery(t, b, root, "en", q)
			var boxes []struct {
				Line     int      `json:"line"`
				Composed string   `json:"composed"`
				Layered  string   `json:"layered"`
				Symptom  bool     `json:"symptom"`
				Causes   []string `json:"causes"`
			}
			raw := browsertest.Eval[json.RawMessage](b, `[...document.querySelectorAll("#search-causes .causes:not(.by-words)")].map(b => ({line: +b.dataset.line, symptom: !!b.dataset.symptom,
				composed: b.dataset.composed ? b.dataset.layer + " " + b.dataset.inner : "",
				layered: b.dataset.layer ? b.dataset.layer + " " + b.dataset.inner : "",
				causes: [...b.querySelectorAll("li[data-cause-id]")].map(li => li.dataset.causeId + " " + (li.dataset.via || ""))}))`)
			if err := json.Unmarshal(raw, &boxes); err != nil {
				t.Fatal(err)
			}
			shown := map[int]bool{}
			seen := map[int]int{} // boxes so far at each line
			for _, box := range boxes {
				shown[box.Line] = true
				key := box.Line + dup*seen[box.Line]
				seen[box.Line]++
				if box.Symptom && !symptomPastes[q] {
					t.Errorf("%s line %d of %.60q: the page answers a paste with an error line from a symptom", root, box.Line, q)
				}
				if box.Composed != "" {
					got := box.Composed + ": " + strings.Join(box.Causes, ",")
					if want := explainComposed[box.Line]; got != want {
						t.Errorf("%s line %d: the page composes %q, explain %q", root, box.Line, got, want)
					}
					continue
				}
				if box.Layered != explainLayered[box.Line] {
					t.Errorf("%s line %d: the page reads the layer %q, explain %q", root, box.Line, box.Layered, explainLayered[box.Line])
				}
				if want := explainOrder[key]; strings.Join(box.Causes, ",") != strings.Join(want, ",") {
					t.Errorf("%s line %d: the page %v, explain %v (%.80q)", root, box.Line, box.Causes, want, q)
				}
			}
			if hangPastes[q] == "cuda/driver-branch-p2p-hang-geforce" && root == fileRoot {
				b.Screenshot("four_ways_hang_first")
			}
			for line, ids := range explainOrder {
				line %= dup
				if (len(ids) > 1 || symptomPastes[q]) && !shown[line] {
					t.Errorf("%s line %d: explain lists %d causes, the page shows none", root, line, len(ids))
				}
			}
			for line := range explainComposed {
				if !shown[line] {
					t.Errorf("%s line %d: explain composes an answer, the page shows none", root, line)
				}
			}
		}
	}
	b.Screenshot("layered_four_ways")

	// eachPage runs fn on the search page from file:// and served, in
	// English and Chinese.
	eachPage := func(fn func(b *browsertest.Browser, root, lang string)) {
		for _, root := range []string{fileRoot, srv.URL + "/"} {
			pb := b
			if root != fileRoot {
				pb = served
			}
			for _, lang := range []string{"en", "zh"} {
				fn(pb, root, lang)
			}
		}
	}

	// A paste with no known line: explain answers with the entries closest
	// to its prose, /api/search ranks the same for explain's query, and the
	// page shows them in a box marked by words, in the same order, from the
	// client index and through the API, in English and Chinese. Real prose
	// of https://github.com/NVIDIA/nvtrust/issues/55 and
	// https://github.com/siderolabs/pkgs/issues/720; the longer story of
	// https://github.com/wilicc/gpu-burn/issues/92 is answered under the
	// floor of long descriptions (search.LongWords).
	for _, q := range []string{
		"gpu_burn fails to test _NVIDIA H100 80GB HBM3_. I'll provide a successful test on a similar _NVIDIA H100 PCIe_ with the same OS configuration.\n* Why does the test fail? NVLink vs PCIe?\n* How do I interpret this error message where gpu_burn fails to exit properly? It throws itself into an infinite loop.\n",
		"I tried to install nvidia-fabricmanager-550 on the host. But it gives error to start the service with the mismatch with driver version.\n",
		"After building proprietary driver there is an error from Fabric Manager service:\nIt might make sense to release drivers based on datacenter documentation in a bundle with FabricManager.\n",
	} {
		d := explainPaste(t, s, q)
		if len(d.Messages) != 1 || !d.Messages[0].ByWords {
			t.Fatalf("%q: explain gives %d messages, want one by words", q, len(d.Messages))
		}
		var want []string
		for _, c := range d.Messages[0].Causes {
			want = append(want, c.ID)
		}
		closest, after, err := ix.Closest(d.Messages[0].Words.Query, "en")
		if err != nil {
			t.Fatal(err)
		}
		var api []string
		for _, r := range closest {
			api = append(api, r.ID)
		}
		if len(want) == len(api)+1 {
			// One more, first: the closest on the program's side, when
			// none of the closest is (diagnose's byWords).
			for _, r := range after {
				if r.ProgramSide {
					api = append([]string{r.ID}, api...)
					break
				}
			}
		}
		if strings.Join(api, ",") != strings.Join(want, ",") {
			t.Errorf("%q: the built site's index %v, explain %v", q, api, want)
		}
		// In Chinese too: English prose is ranked by the English pages'
		// words whoever reads it (search.WordsLang), and the entries link
		// to Chinese pages.
		eachPage(func(b *browsertest.Browser, root, lang string) {
			runQuery(t, b, root, lang, q)
			got := browsertest.Eval[[]string](b, `[...document.querySelectorAll('#search-causes .causes[data-by-words="true"] li[data-cause-id]')].map(li => li.dataset.causeId)`)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s %s %q: the page by words %v, explain %v", root, lang, q, got, want)
			}
			for _, href := range browsertest.Eval[[]string](b, `[...document.querySelectorAll('#search-causes .causes[data-by-words="true"] li[data-cause-id] a')].map(a => a.getAttribute("href"))`) {
				if !strings.Contains(href, lang+"/kb/") {
					t.Errorf("%s %s: the page by words links to %s", root, lang, href)
				}
			}
		})
	}
	b.Screenshot("by_words")

	// A description a person wrote beside a recognized line: explain adds
	// the entries closest to its words that are not already causes, and the
	// page shows the same after the line's causes, in a box marked beside
	// them. The first post of https://github.com/EleutherAI/gpt-neox/issues/1147.
	const told = "hi\ni started training on two nodes and used 125M.yml config file and only changed the directories for data and tokenizer files. also added my own hostfile. now during training it gives me this error:\n" +
		"```\nNCCL error in: ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.14.3\n```\n" +
		"i run the code again with `NCCL_DEBUG=INFO` and got this:\n```\nnode2: Last error:\nnode2: Net : Call to recv from NODE2_IP<56843> failed : Connection refused\n```\n"
	var beside []string
	for _, m := range explainPaste(t, s, told).Messages {
		if m.Beside {
			for _, c := range m.Causes {
				beside = append(beside, c.ID)
			}
		}
	}
	if len(beside) == 0 {
		t.Fatalf("explain adds nothing beside the recognized line of %q", told)
	}
	eachPage(func(b *browsertest.Browser, root, lang string) {
		runQuery(t, b, root, lang, told)
		got := browsertest.Eval[[]string](b, `[...document.querySelectorAll('#search-beside .causes[data-beside="true"] li[data-cause-id]')].map(li => li.dataset.causeId)`)
		if strings.Join(got, ",") != strings.Join(beside, ",") {
			t.Errorf("%s %s: the page beside the recognized line %v, explain %v", root, lang, got, beside)
		}
		// After the recognized causes, never before them.
		if order := browsertest.Eval[bool](b, `(() => { const box = document.querySelector('#search-beside .causes[data-beside="true"]'), list = document.getElementById('search-results'); return !!box && !!(list.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING) && !document.querySelector('#search-causes .causes[data-beside]'); })()`); !order {
			t.Errorf("%s %s: the box beside the recognized line is not after the results, or is among the causes above them", root, lang)
		}
	})
	b.Screenshot("beside_words")
	checkQuiet(t, b, fileRoot)
}

// explainPaste is explain --json of q in English, with the facts of the paste.
func explainPaste(t *testing.T, s *site.Site, q string) diagnose.Diagnosis {
	t.Helper()
	var out bytes.Buffer
	if _, err := diagnose.Explain(&out, s, strings.NewReader(q), nil, diagnose.Options{Lang: "en", JSON: true, Paste: pastefacts.New()}); err != nil {
		t.Fatal(err)
	}
	var d diagnose.Diagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}
