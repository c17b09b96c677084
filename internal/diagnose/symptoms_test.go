package diagnose

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/rules"
)

// A paste with no error line is answered from what it shows: each symptom
// at its line, with the entries whose conditions hold because of it, the
// most telling symptom first; a paste that shows none gets no message, and
// one with a known note is not answered from how the machine is set up.
func TestSymptoms(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../paste/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	rows := "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n" +
		"        1024           256     float     sum      -1    19.97    0.05    0.05      3    19.67    0.05    0.05      4\n"
	for _, c := range []struct {
		name, in string
		line     int
		first    string // the first cause; "" for no message
	}{
		{"setpci reads ACS redirect", "$ sudo setpci -s 00:01.0 ECAP_ACS+6.w\n001d\n", 2, "linux/acs-request-redirect-enabled"},
		{"setpci reads no redirect", "$ sudo setpci -s 00:01.0 ECAP_ACS+6.w\n0000\n", 0, ""},
		// PLX switches hold the ACS control word at 0xf2a (NVIDIA/caffe#10's
		// script writes f2a.w=0000); read in a loop over the ports, one word
		// each after sudo's prompt, the redirect shows on a later port
		// (pytorch/pytorch#24081).
		{"setpci loop over PLX ports reads ACS redirect", "$ for plx in $(lspci | grep -i plx | awk '{print $1}'); do sudo setpci -s ${plx} f2a.w; done\n[sudo] password for u:\n0000\n001d\n0000\n", 4, "linux/acs-request-redirect-enabled"},
		// Where the GPUs are, said in words: P2P cannot exist there.
		{"MIG slices said in words (NVIDIA/k8s-device-plugin#446)", "I tried giving 4 MIG instances (`1g.10gb`) to the container but couldn't start the distributed training.\n", 1, "cuda/peer-access-under-mig"},
		// A VM said by the person asking is what they think matters, and
		// answers when nothing else is known (paste.SaidOnly, paste.Weak);
		// nvidia-smi's Pass-Through is no fault by itself: the reference
		// H200 node passes its GPUs through and P2P works (below).
		{"GPUs passed through to a VM, said in words (NVIDIA/nccl#1674)", "I'm trying to do virtualized pcie passthrough on an A800 server; the topo of my VM is very different from that of the host\n", 1, "linux/qemu-vfio-bar-p2p-not-supported"},
		{"GPUs passed through to a VM, said beside a known note: the note answers", "I'm trying to do virtualized pcie passthrough on an A800 server\nnode1:1:1 [0] NCCL INFO NVLS multicast support is not available on dev 0\n", 0, ""},
		// GPUs split over containers and P2P wanted between them: CUDA IPC
		// cannot reach a GPU the container does not see.
		{"NVLink wanted between two containers, said in words (NVIDIA/nvidia-docker#1253)", "I run two containers which shares ipc, net,uts, pid namespace, but they are still connect through the net instead P2P.\n", 1, "nccl/p2p-between-containers"},
		{"one container with all GPUs and NVLink", "I run the job in a docker container with all 8 GPUs and NVLink works.\n", 0, ""},
		// A hang on an AMD host: the IOMMU these platforms boot with first.
		{"a hang after NCCL init on a Threadripper host (local-inference-lab/vllm#262)", "vLLM hangs after NCCL init with TP=2 on Blackwell (RTX PRO 6000).\nThe production stack runs on AMD Ryzen Threadripper 9970X (32-core) with 4x RTX 6000 Pro Blackwell (PCIe-only, no NVLink).\n", 1, "linux/amd-vi-io-page-fault-p2p"},
		{"an AMD host and nothing wrong", "Model name:                      AMD EPYC 7763 64-Core Processor\n", 0, ""},
		// Communication said to be slow where the GPUs sit under different
		// sockets: the path through the CPUs' interconnect.
		{"all-reduce slower, GPUs on two NUMA nodes, said in words", "All-reduce is slower with P2P forced on: the GPUs sit on two different NUMA nodes.\n", 1, "nccl/p2p-across-cpu-sockets-slow"},
		{"a slow test and lscpu of two sockets (NVIDIA/nccl-tests#307)", "Why is the NCCL performance test low on the RTX 4090?\nSocket(s):                       2\n", 1, "nccl/p2p-across-cpu-sockets-slow"},
		{"slow, said in words, on one socket", "Socket(s):                       1\nThe all-reduce is slow.\n", 0, ""},
		{"two sockets and nothing said to be slow", "Socket(s):                       2\nNUMA node(s):                    2\n", 0, ""},
		// Slow, with nothing shown of the path: not ACS, which needs to be
		// shown (1 of 13 such reports in the sets was ACS); a set-up that
		// gains nothing from more GPUs first, though the words name an
		// all-reduce.
		{"slow, said in words, the path unknown", "The all_reduce between the 4 GPUs is very slow, much slower than expected.\n", 1, "pytorch/multi-gpu-slower-than-one-gpu"},
		// Fabric Manager's systemctl status: down, the GPUs of an NVSwitch
		// machine do not finish their fabric registration.
		{"Fabric Manager failed in systemctl status (NVIDIA/NVSentinel#883)", "× nvidia-fabricmanager.service - NVIDIA fabric manager service\nLoaded: loaded (/usr/lib/systemd/system/nvidia-fabricmanager.service; enabled; preset: enabled)\nActive: failed (Result: exit-code) since Fri 2026-01-30 11:58:43 UTC; 2 weeks 4 days ago\n", 3, "fabricmanager/service-failed-to-start"},
		{"Fabric Manager running in systemctl status", "● nvidia-fabricmanager.service - NVIDIA fabric manager service\nLoaded: loaded (/usr/lib/systemd/system/nvidia-fabricmanager.service; enabled)\nActive: active (running)\n", 0, ""},
		// /dev/shm too small, said in words or shown by a Bus error in NCCL.
		{"docker's 64 MB /dev/shm said in words", "df -h shows /dev/shm is only 64M inside the container\n", 1, "deepspeed/dev-shm-too-small"},
		{"a Bus error in NCCL's frames (triton-inference-server/hugectr_backend#42)", "[qgpuvb813-cvision:1    :0:381] Caught signal 7 (Bus error: nonexistent physical address)\n==== backtrace (tid:    381) ====\n 2 0x0000000000068d6c ncclGroupEnd()  ???:0\n", 1, "ucx/bus-error-dev-shm"},
		// No NVLS channels asked about: normal without NVSwitch.
		{"no NVLS channels said in words (NVIDIA/nccl#892)", "H800, NVLS is not support? The log says 0 nvls channels.\n", 1, "nccl/nvls-multicast-not-available"},
		// Native Windows and a multi-GPU launch: PyTorch for Windows has no NCCL.
		{"two GPUs under Windows 11 said in words (hiyouga/LlamaFactory#4047)", "我win11下单机双卡训练还会出现本地网络接口问题：\n[INFO|2025-04-27 14:13:01] llamafactory.cli:143 >> Initializing 2 distributed tasks at: 127.0.0.1:53566\n", 1, "pytorch/distributed-no-nccl-built-in"},
		{"Windows and a two-GPU launch beside GeForce cards: Windows first, NCCL is not there at all (hiyouga/LlamaFactory#4047, #6667)", "- GPU type: NVIDIA GeForce RTX 2080 Ti\n我win11下单机双卡训练还会出现本地网络接口问题：\n[INFO|2025-04-27 14:13:01] llamafactory.cli:143 >> Initializing 2 distributed tasks at: 127.0.0.1:53566\n", 2, "pytorch/distributed-no-nccl-built-in"},
		{"Windows said beside a known message: the message answers (hiyouga/LlamaFactory#4359)", "windows多卡微调\nRuntimeError: Distributed package doesn't have NCCL built in\n", 2, "pytorch/distributed-no-nccl-built-in"},
		// A figure set against the data sheet's NVLink figure: what a healthy link gives.
		{"all_reduce_perf's algbw against NVIDIA's figure (NVIDIA/nccl-tests#212)", "We test the  `all_reduce_perf` in H100, the algbw is about 250GB/S.  But NV officials claim that the bandwidth of all reduce can reach 450GB/S.\n", 1, "nccl/nccl-tests-busbw-below-line-rate"},
		// Several GPUs said to be no faster than one: how the run is set up.
		{"several GPUs slower than one (lllyasviel/ControlNet#556)", "Multi GPU slower than One GPU several time\n", 1, "pytorch/multi-gpu-slower-than-one-gpu"},
		{"DataParallel said to be slow (salesforce/simpletod#15)", "Hi, I found that using Dataparallel is really slow, thus I'm looking at the distributeddataparallel part of the code.\n", 1, "pytorch/multi-gpu-slower-than-one-gpu"},
		{"per-GPU throughput falling as GPUs are added, the total rising (mlfoundations/open_clip#861)", "you see less samples per second per gpu as you increase the # of gpus, but the total samples / sec should increase until you saturate your interconnect.\n", 0, ""},
		// Several ranks on one GPU: older NCCL hangs, newer refuses.
		{"several processes on one GPU asked about (NVIDIA/nccl#32)", "Can nccl be used with multiple processes per GPU?\n", 1, "nccl/duplicate-gpu-detected"},
		{"each rank on its own GPU, cudaDev 0 in each process (two H200, ../shared/reference/h200x4/repro/torch-isolated.log)", "vm:2493:2493 [0] NCCL INFO ncclCommInitRankConfig comm 0xca547e0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0x88cfbf2526356990 - Init START\nvm:2494:2494 [0] NCCL INFO ncclCommInitRankConfig comm 0x3814a070 rank 1 nranks 2 cudaDev 0 nvmlDev 1 busId 70 commId 0x88cfbf2526356990 - Init START\n", 0, ""},
		{"bare metal said in words", "This is bare metal, not a VM, and MIG is disabled.\n", 0, ""},
		{"a copy between GPUs zeroed, said in words (pytorch/pytorch#87363)", "Moving a tensor across CUDA devices gets zero tensor, CUDA 11.0\n", 1, "cuda/p2p-silent-corruption-iommu"},
		{"setpci loop over PLX ports reads no redirect", "$ for plx in $(lspci -d 10b5: | awk '{print $1}'); do sudo setpci -s ${plx} f2a.w; done\n0000\n0000\n0000\n", 0, ""},
		{"BAR1 below memory", "    FB Memory Usage\n        Total                             : 24576 MiB\n    BAR1 Memory Usage\n        Total                             : 256 MiB\n", 4, "cuda/map-buffer-object-failed-bar1"},
		{"BAR1 covers memory (H200)", read("h200x2-nvidia-smi-q.txt"), 0, ""},
		// Healthy readings of a real 2xH200 node: none is a fault.
		{"a healthy NVLink topology", read("h200x2-topo-m.txt"), 0, ""},
		{"a healthy NCCL all-reduce, P2P over NVLink, to its teardown", read("h200x2-nccl-default.log"), 0, ""},
		{"a healthy NCCL all-reduce with P2P disabled", read("h200x2-nccl-p2p-disabled.log"), 0, ""},
		{"a complete nccl-tests run without wrong values", read("nccl-tests-ring-busbw.txt"), 0, ""},
		{"nccl-tests rows with wrong values", rows, 2, "nccl/nccl-tests-out-of-bounds-values"},
		{"a log that stops after NCCL's init", read("horovod-hang-after-init.log"), 11, "pytorch/nccl-watchdog-timeout"},
		{"NCCL init, then the program goes on", read("nccl-init-then-tensorflow.log"), 0, ""},
		{"P2P-enabled figures below the staged copy", read("p2pbandwidth-slow.txt"), 12, "cuda/p2p-bandwidth-below-link"},
		{"two GeForce cards and nothing wrong shown: GeForce has no P2P, the platform's entry first", "GPU models and configuration:\nGPU 0: NVIDIA GeForce RTX 3090\nGPU 1: NVIDIA GeForce RTX 3090\n", 2, "cuda/geforce-peer-access-no"},
		{"GeForce cards under WSL2: WSL first", read("collect-env-wsl.txt"), 0, "nccl/wsl-pci-path-not-found"},
		{"a hang said in words beside GeForce cards: the hang first (NVIDIA/nccl#257)", "#   Rank  0 Pid  15833 on jupyter-vmarkovtsev device  0 [0x02] GeForce GTX 1080 Ti\nI launch `all_reduce_perf` and it hangs with 100% volatile GPU usage reported.\n", 2, "pytorch/nccl-watchdog-timeout"},
		{"wrong output said in words: the silent corruption of P2P (vllm-project/vllm#19022)", "LLMs give gibberish outputs when ```--tensor-parallel-size 2```\n", 1, "cuda/p2p-silent-corruption-iommu"},
		{"a known note beside a TITAN card: the card answers nothing (horovod/horovod#82)", "name: TITAN Xp major: 6 minor: 1 memoryClockRate(GHz): 1.582\nThe call to cuIpcCloseMemHandle failed. This is a warning and the program will continue to run.\n", 0, ""},
		// A hang or wrong data on a release with a known hang that a later
		// release fixed: the release first; on another release, or with
		// nothing wrong shown, not it.
		{"a hang said in words on NCCL 2.4.2, said in words (NVIDIA/nccl#311)", "We integrate NCCL 2.4.2 in our framework and `ncclAllGather` hangs after training for at least one day which could be reproduced.\n", 1, "nccl/release-with-known-hang"},
		{"a hang said in words on PyTorch 2.7.0 from collect_env (pytorch/pytorch#153960's title; constructed with collect_env's line)", "Passing `device_id` to `torch.distributed.init_process_group()` results in NCCL randomly hanging during communications\nPyTorch version: 2.7.0+cu126\n", 1, "nccl/release-with-known-hang"},
		{"a hang on a release with no known hang in the table (NVIDIA/nccl#1936)", "[Issue]: NCCL hangs occasionally when using fixed port for repeated stress testing\n2e5hmh4t0q1th5f:205631:205631 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n", 1, "pytorch/nccl-watchdog-timeout"},
		// Beside a hang told of training that made progress, which reads
		// more of the paste for ranks out of step: the release the paste
		// states still first, what the reporters' fix changed.
		{"a hang after many steps of training on NCCL 2.4.2, from an issue template (horovod/horovod#1078)", "6. NCCL version: v2.4.2 for cuda10\n7. Python version: python 3.6\n\nI am using horovod to train a large model. The training can work properly as first. But after several steps(about 190k~220k steps), one process is died while other processes are hung for it (not sure).\n", 4, "nccl/release-with-known-hang"},
		{"the same hang on NCCL 2.27.5, a release outside the table", "6. NCCL version: v2.27.5\n7. Python version: python 3.6\n\nI am using horovod to train a large model. The training can work properly as first. But after several steps(about 190k~220k steps), one process is died while other processes are hung for it (not sure).\n", 4, "pytorch/collective-mismatch-across-ranks"},
		// A log that stops at an all-reduce after one step of training:
		// the entry of ranks out of step reads training only beside a hang
		// said or shown, so the watchdog's, which reads the stop, comes
		// first (SWivid/F5-TTS#728, whose cause was the path).
		{"a log that stops at an all-reduce after a step of training (SWivid/F5-TTS#728)", "Epoch 1/1742:   6%| | 1/18 [00:04<01:16, 4.52s/update, loss=0.452, update=1]\n0d0ebf8294f3:91788:91788 [0] NCCL INFO Broadcast: opCount 3c sendbuff 0x7767057ffa00 recvbuff 0x7767057ffa00 count 8 datatype 0 op 0 root 0 comm 0x5813c1f1b340 [nranks=2] stream 0x5813da6822f0\n0d0ebf8294f3:91788:94129 [0] NCCL INFO AllReduce: opCount 3e sendbuff 0x77653aa00000 recvbuff 0x77653aa00000 count 2202724 datatype 7 op 0 root 0 comm 0x5813c1f1b340 [nranks=2] stream 0x5813da6822f0\n", 3, "pytorch/nccl-watchdog-timeout"},
		{"NCCL 2.4.2 said and nothing wrong", "We integrate NCCL 2.4.2 in our framework.\n", 0, ""},
		{"a release of the table beside the watchdog's timeout, a line that says only that something hung: the release first (lines of NVIDIA/nccl#257 and pytorch/pytorch#118369)", "NCCL version 2.4.8+cuda10.0\n[E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=880, OpType=BROADCAST, NumelIn=131137536, NumelOut=131137536, Timeout(ms)=1800000) ran for 1800648 milliseconds before timing out.\nThe all_reduce hangs.\n", 2, "nccl/release-with-known-hang"},
		// A version said to work set against one said to fail names the
		// cause of the hang it comes with: the story answers first, with
		// what the story and the hang call for (the driver branch on
		// GeForce cards), else the regression between the versions.
		{"a driver said to work, another to hang at all_reduce, on GeForce cards", "Two NVIDIA GeForce RTX 3090 cards. It works with driver 535 but training hangs at all_reduce with 545.23.08\n", 1, "cuda/driver-branch-p2p-hang-geforce"},
		{"the same story on A100s", "8x NVIDIA A100-SXM4-80GB. It works with driver 535 but training hangs at all_reduce with 545.23.08\n", 1, "nccl/regression-between-versions"},
		{"an upgrade of PyTorch, then a hang (pytorch/pytorch#131952)", "We recently upgraded from PyTorch 2.1 to 2.4 and our training script hangs at the first collective, even though I can confirm all the ranks get there.\n", 1, "nccl/regression-between-versions"},
		{"a hang said in words beside nvidia-smi's 545 driver on GeForce cards (huggingface/text-generation-inference#1559's header)", "| NVIDIA-SMI 545.29.06              Driver Version: 545.29.06    CUDA Version: 12.3     |\n|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\nThe all_reduce hangs with tensor parallel on 2 GPUs.\n", 3, "cuda/driver-branch-p2p-hang-geforce"},
		// NCCL's own story: a release of the table answers first, another
		// release the regression between the versions.
		{"NCCL said to hang in one release and complete in the next, the first in the table (constructed)", "The pipeline hangs with NCCL 2.30.6 and completes with NCCL 2.30.7.\n", 1, "nccl/release-with-known-hang"},
		{"a downgrade of NCCL from a release of the table that fixed it, no hang said (constructed)", "Downgrading NCCL from 2.19.3 to 2.18.6 fixed it.\n", 1, "nccl/release-with-known-hang"},
		{"NCCL 2.19 said to hang at init at 16 nodes where 2.18.6 works (NVIDIA/nccl#1116's cuMem deadlock, constructed)", "alltoall_perf hangs at init on 16 nodes with NCCL 2.19.3, but works with NCCL 2.18.6\n", 1, "nccl/release-with-known-hang"},
		{"NCCL said to work in one release and hang in another outside the table (constructed)", "It works with NCCL 2.26.2 but hangs with NCCL 2.27.3\n", 1, "nccl/regression-between-versions"},
		{"the same hang beside the 535 driver: not the branch", "| NVIDIA-SMI 535.154.05             Driver Version: 535.154.05   CUDA Version: 12.2     |\n|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\nThe all_reduce hangs with tensor parallel on 2 GPUs.\n", 3, "pytorch/nccl-watchdog-timeout"},
	} {
		d := explainJSON(t, c.in)
		var errs []Message
		for _, m := range d.Messages {
			if m.Severity == "error" {
				errs = append(errs, m)
			}
		}
		switch {
		case c.first == "" && len(errs) > 0:
			t.Errorf("%s: %d error messages, want none (first %s at line %d)", c.name, len(errs), errs[0].Causes[0].ID, errs[0].Line)
		case c.first == "":
		case len(errs) == 0:
			t.Errorf("%s: no error message, want %s first", c.name, c.first)
		case c.line > 0 && errs[0].Line != c.line || errs[0].Causes[0].ID != c.first || errs[0].Causes[0].Verdict != "applies":
			t.Errorf("%s: line %d, first cause %s (%s); want line %d, %s (applies)", c.name, errs[0].Line, errs[0].Causes[0].ID, errs[0].Causes[0].Verdict, c.line, c.first)
		}
	}
}

// NCCL's line that a setting was taken from the environment is often
// quoted alone, without the host and "NCCL INFO" prefix it is printed with
// (NVIDIA/nccl-tests#228: "NCCL_P2P_LEVEL set by environment to LOC", the
// cause of its slow all-reduce): it is the same note, as it is with the
// prefix; a level that is not such a line is none.
func TestEnvironmentNoteWithoutPrefix(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"has nvswitch, but uses 0 nvls channels\nNCCL_P2P_LEVEL set by environment to LOC\n", "nccl/p2p-level-set-by-environment"},
		{"host:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to LOC\n", "nccl/p2p-level-set-by-environment"},
		{"`NCCL_P2P_DISABLE set by environment to 1`\n", "nccl/p2p-disabled-by-environment"},
		{"export NCCL_P2P_LEVEL=LOC\n", ""},
	} {
		d := explainJSON(t, c.in)
		var got string
		if len(d.Messages) > 0 && len(d.Messages[0].Causes) > 0 {
			got = d.Messages[0].Causes[0].ID
		}
		if got != c.want {
			t.Errorf("%q: first cause %q, want %q", c.in, got, c.want)
		}
	}
}

// An input whose error lines all say only that something hung (a
// watchdog's timeout) is answered with what the rest of it says about why
// first: the entries that hold with the hang and the facts the software
// printed, before the line's own cause; with nothing else known, with a
// fact that does not hold or one a person wrote, beside a healthy note, or
// beside an error line that names a failure, the line's own cause stays
// first. A release's known hang follows the line's causes while no version
// the paste states rules it out, and goes with a version that does.
func TestHangFirst(t *testing.T) {
	// PyTorch's watchdog on the first all-reduce
	// (https://github.com/huggingface/picotron_tutorial/issues/6), and
	// nvidia-smi's header and a GeForce row with the 545 driver
	// (https://github.com/huggingface/text-generation-inference/issues/1559,
	// where the shards' first all-reduce timed out the same way).
	const (
		watchdog = "[E ProcessGroupNCCL.cpp:474] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=120000) ran for 120621 milliseconds before timing out.\n"
		smi545   = "| NVIDIA-SMI 545.29.06              Driver Version: 545.29.06    CUDA Version: 12.3     |\n|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\n"
		smi535   = "| NVIDIA-SMI 535.154.05             Driver Version: 535.154.05   CUDA Version: 12.2     |\n|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\n"
	)
	// The line's own causes: the entries that match it, as explain gives
	// them with nothing else in the paste.
	causes := func(in string) []string {
		var got []string
		for _, m := range explainJSON(t, in).Messages {
			if strings.Contains(m.LineText, "Watchdog caught") {
				for _, x := range m.Causes {
					got = append(got, x.ID)
				}
				if m.Causes[0].Verdict != "applies" {
					t.Errorf("%.60q: the first cause %s is %s, want applies", in, m.Causes[0].ID, m.Causes[0].Verdict)
				}
			}
		}
		return got
	}
	const release = "nccl/release-with-known-hang"
	alone := causes(watchdog)
	if !slices.Contains(alone, "pytorch/nccl-watchdog-timeout") || alone[len(alone)-1] != release {
		t.Fatalf("the watchdog's line alone: causes %v, want the watchdog's entry among them and %s last", alone, release)
	}
	own := alone[:len(alone)-1] // the entries that match the line
	for _, c := range []struct {
		name, in string
		ahead    []string // what comes before the line's own causes
		after    []string // what follows them
	}{
		{"the 545 driver on GeForce cards explains the timeout", smi545 + watchdog, []string{"cuda/driver-branch-p2p-hang-geforce"}, []string{release}},
		{"the 535 driver: nothing explains it", smi535 + watchdog, nil, []string{release}},
		{"a healthy note beside it: NCCL's P2P channel of a real H200 node (../shared/reference/h200x4)", "vm:2032:2032 [3] NCCL INFO Channel 00/0 : 3[3] -> 0[0] via P2P/CUMEM\n" + watchdog, nil, []string{release}},
		{"NCCL's release of the table in its own line (a version with a known hang)", "NCCL version 2.19.3+cuda12.3\n" + watchdog, []string{release}, nil},
		{"NCCL's and PyTorch's releases without a known hang", "PyTorch version: 2.5.1+cu124\nNCCL version 2.23.4+cuda12.6\n" + watchdog, nil, nil},
		{"the custom all-reduce's own log line, its graph buffers shared (https://github.com/sgl-project/sglang/pull/11275)", "[2025-10-06 20:05:27 DP0 TP0] Registering 0 cuda graph addresses\n" + watchdog, []string{"vllm/custom-allreduce-hang-or-wrong-output"}, []string{release}},
		// A person's words are a weaker witness than the program's line.
		{"the custom all-reduce said in words (constructed)", "The server runs with the custom all-reduce on 2 GPUs.\n" + watchdog, nil, []string{release}},
		{"an error line that names a failure beside it: that line's causes say more", smi545 + "RuntimeError: CUDA error: peer access is not supported between these two devices\n" + watchdog, nil, nil},
	} {
		want := append(append(slices.Clone(c.ahead), own...), c.after...)
		if got := causes(c.in); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: the watchdog's causes %v, want %v", c.name, got, want)
		}
	}
	// The words still order the line's own causes: a run said to hang after
	// it made progress (https://github.com/open-mmlab/mmdetection/issues/3563's
	// words beside the watchdog's line) puts ranks out of step first.
	const mismatch = "pytorch/collective-mismatch-across-ranks"
	if own[0] == mismatch {
		t.Fatalf("the watchdog's line alone: %s first, want the watchdog's own entry", mismatch)
	}
	later := causes("after some iterations the training program always stuck without any output\n" + watchdog)
	if len(later) == 0 || later[0] != mismatch || !slices.Contains(later, "pytorch/nccl-watchdog-timeout") {
		t.Errorf("a hang said to come after progress: the watchdog's causes %v, want %s first and the watchdog's entry after it", later, mismatch)
	}
}

// A release's known bug that waits only on a version the paste does not
// state follows the causes that hold, as what to check next; a version that
// rules it out leaves it out, and alone it answers nothing.
func TestVersionOpen(t *testing.T) {
	const release = "nccl/release-with-known-hang"
	// A hang said in words, no version stated
	// (https://github.com/flagos-ai/Megatron-LM-FL/issues/138).
	const hang = "We occasionally see distributed CUDA tests hang when using:\n\n```python\ntorch.distributed.init_process_group(\n    backend=\"nccl\",\n    device_id=torch.device(\"cuda\", local_rank),\n)\n```\n\nThe issue is intermittent: rerunning the same test may pass.\n"
	causes := func(in string) (ids, verdicts []string) {
		for _, m := range explainJSON(t, in).Messages {
			for _, c := range m.Causes {
				ids, verdicts = append(ids, c.ID), append(verdicts, c.Verdict)
			}
		}
		return ids, verdicts
	}
	ids, verdicts := causes(hang)
	if len(ids) < 2 || ids[0] != "pytorch/nccl-watchdog-timeout" || ids[len(ids)-1] != release || verdicts[0] != "applies" || verdicts[len(ids)-1] != "unknown" {
		t.Errorf("a hang with no version: causes %v (%v), want the watchdog's entry first, applying, and %s last, unknown", ids, verdicts, release)
	}
	if ids, _ := causes("PyTorch version: 2.5.1+cu124\nNCCL version 2.23.4+cuda12.6\n" + hang); slices.Contains(ids, release) {
		t.Errorf("releases without a known hang stated: causes %v, want no %s", ids, release)
	}
	if ids, verdicts := causes("PyTorch version: 2.7.0+cu126\n" + hang); !slices.Contains(ids, release) || verdicts[slices.Index(ids, release)] != "applies" {
		t.Errorf("PyTorch 2.7.0 stated: causes %v (%v), want %s applying", ids, verdicts, release)
	}
	// Several GPUs slower than one on GeForce cards, no driver stated
	// (https://github.com/apache/mxnet/issues/5697): the 545 driver's bug
	// waits on the driver's version, and answers no symptom by itself.
	const slow = "##Problem:\n4 GPUs(GTX1080) in one Server.\n\nMulti-GPUs is slower than One GPU. when kvstore='local'\n"
	for _, m := range explainJSON(t, slow).Messages {
		if len(m.Causes) > 0 && m.Causes[0].ID == "cuda/driver-branch-p2p-hang-geforce" {
			t.Errorf("line %d %q: answered first by the 545 driver's bug, whose driver is not stated", m.Line, m.LineText)
		}
	}
}

// Two ranks' watchdog lines at one SeqNum in all-reduces of different sizes
// (https://github.com/modelscope/FunASR/issues/2317) put the entry of ranks
// out of step before the watchdog's own; the same lines in agreement leave
// the watchdog's first.
func TestWatchdogLinesDisagree(t *testing.T) {
	line := func(rank, numel string) string {
		return "[rank" + rank + "]:[E ProcessGroupNCCL.cpp:563] [Rank " + rank + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3437, OpType=ALLREDUCE, NumelIn=" + numel + ", NumelOut=" + numel + ", Timeout(ms)=600000) ran for 600057 milliseconds before timing out.\n"
	}
	for _, c := range []struct {
		name, in, first string
	}{
		{"sizes differ", line("0", "4311252") + line("1", "1"), "pytorch/collective-mismatch-across-ranks"},
		{"sizes agree", line("0", "4311252") + line("1", "4311252"), "pytorch/nccl-watchdog-timeout"},
	} {
		d := explainJSON(t, c.in)
		if len(d.Messages) == 0 {
			t.Fatalf("%s: no message", c.name)
		}
		for _, m := range d.Messages {
			if m.Causes[0].ID != c.first || m.Verdict != "applies" {
				t.Errorf("%s: line %d: %s first (%s), want %s, applying", c.name, m.Line, m.Causes[0].ID, m.Verdict, c.first)
			}
		}
	}
}

// A hang line's own causes are ordered by the facts they read within their
// tier: an entry without a condition holds for any input, but ranks with
// those whose condition is unknown, not above them.
func TestByReadsKeepsTiers(t *testing.T) {
	own := rules.Facts{}
	for _, name := range []string{"hang.seen", "collectives.differ"} {
		if err := own.Set(name, "bool", "true"); err != nil {
			t.Fatal(err)
		}
	}
	cs := []Cause{
		{ID: "holds", Condition: "hang.seen", Verdict: "applies", rank: 0},
		{ID: "unconditional", Verdict: "applies", rank: 1},
		{ID: "reads-more", Condition: "hang.seen || collectives.differ || nccl.version >= 2.4.0", Verdict: "unknown", rank: 1},
	}
	byReads(cs, own)
	var got []string
	for _, c := range cs {
		got = append(got, c.ID)
	}
	if want := []string{"holds", "reads-more", "unconditional"}; !slices.Equal(got, want) {
		t.Errorf("causes %v, want %v", got, want)
	}
}

// A hang said in words beside a GeForce card named, with no word of the
// path between GPUs (Lightning-AI/pytorch-lightning#7336): the run's own
// story answers first, with the program's side first among its causes, and
// the card's causes follow in a message of their own.
func TestHangSaidBeforeConsumerGPU(t *testing.T) {
	const in = "However, when I launch the script, the code freezes there:\n" +
		"I tried to wait 10-15 minutes, but nothing happened.\n" +
		" - GPU models and configuration: 4 x TITAN Xp 12GB\n"
	ms := explainJSON(t, in).Messages
	if len(ms) < 2 || len(ms[0].Causes) == 0 {
		t.Fatalf("got %d messages, want the hang's and the card's: %+v", len(ms), ms)
	}
	if got := ms[0].Causes[0].ID; got != "pytorch/collective-mismatch-across-ranks" {
		t.Errorf("first cause shown %s (line %d), want pytorch/collective-mismatch-across-ranks", got, ms[0].Line)
	}
	card := false
	for _, m := range ms[1:] {
		card = card || len(m.Causes) > 0 && m.Causes[0].ID == "cuda/geforce-peer-access-no"
	}
	if !card {
		t.Errorf("no later message answers the GeForce card with cuda/geforce-peer-access-no: %+v", ms)
	}
}
