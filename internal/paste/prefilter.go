package paste

import (
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/p2pkb/p2pkb/internal/ahocorasick"
)

// Nearly every line of a training log is one no reader acts on, or one a
// reader has already taken all it can from (the hundredth NCCL channel line
// of the same host). One pass of an automaton over the line finds the
// words every reader needs; a line is skipped, unstripped and untouched by
// regular expressions, when none is there, or when each reader whose word
// is there has nothing left to learn from such a line. Each word below must
// be in every line its reader acts on: a word of scan's own tests, or a part
// of what its pattern requires.

// reader is a part of scan that a trigger word sets off.
type reader uint8

const (
	anyTime         reader = iota // may act on any line with its word
	ncclVersion                   // nccl.version
	ncclDriver                    // cuda.driver from NCCL
	ncclEnv                       // env.NCCL_*
	channelP2P                    // NCCL channels, by transport
	channelSHM                    //
	channelNET                    //
	ncclNodes                     // nNodes of the first communicator
	ncclRefused                   // P2P refused by NCCL
	torchVersion                  // python.torch
	tfVersion                     // python.tensorflow
	vllmVersion                   // python.vllm
	pipNCCL                       // python.nccl
	wslHost                       // wsl
	containerHost                 // container
	slurmHost                     // slurm
	consumerGPU                   // a GeForce or TITAN name
	dataCentreGPU                 // a Tesla or data-centre NVIDIA name
	amdGPU                        // an AMD GPU's name (amdGPUWords)
	ncclTestRow                   // a row of nccl-tests' table
	ncclSetUp                     // NCCL's set-up ended (the hang reader)
	tensorPrint                   // a CUDA tensor as PyTorch prints it
	proseHang                     // a line that says a run hangs
	distCall                      // a torch.distributed call, for an interrupted run
	proseWrong                    // a line that says results are wrong
	proseMIG                      // a line that says the GPUs are MIG slices
	proseVM                       // a line that says the GPUs are in a VM
	proseContainers               // a line that says GPUs are split over containers
	proseP2P                      // a line that speaks of P2P, NVLink or CUDA IPC, or says turning NCCL's P2P off made it work (reP2POff)
	proseAMD                      // a line that names an AMD host CPU
	proseSockets                  // a line that says the host has several CPU sockets
	proseSlow                     // a line that says communication is slow
	proseSHM                      // a Bus error, NCCL or UCX frames, /dev/shm's size
	proseFM                       // Fabric Manager's systemctl status
	proseNVLS                     // no NVLS channels, said in words
	proseWindows                  // native Windows or WSL said
	proseWinLaunch                // a distributed or multi-GPU launch, for the Windows reader
	proseBWFigure                 // a bandwidth figure against the link's headline
	proseBWCarrier                // NVLink, NVSwitch or a bandwidth test named
	testRank                      // nccl-tests' "#  Rank" lines (nccltests.go)
	gpuNameLine                   // a GPU's name as nvidia-smi prints it, for nccl-tests' link
	gpuArchName                   // a GPU's name that gives its architecture (versions.go)
	customARName                  // the custom all-reduce named (customar.go)
	proseScaling                  // several GPUs no faster than one, DataParallel, kvstore (scaling.go), work on GPUs other than the one chosen (reElsewhere), tensors on different devices (reMixedDevices)
	sameGPU                       // several ranks on one GPU, said or shown by NCCL's set-up lines (scaling.go)
	proseACS                      // ACS said to be on
	proseIOMMU                    // the IOMMU said to be on, or GRUB's command line
	proseAlready                  // peer access already enabled, said or reported by a checker (noise.go); a peer check and its answer (rePeerCheck): one bit for two
	proseIbv                      // libibverbs's provider warnings, the fabric state Not Supported (noise.go): one bit for two rare readers
	proseErrCol                   // nccl-tests' error column asked about, nccl-tests named (noise.go)
	proseNoNCCL                   // NCCL said to be missing on Windows or macOS (noise.go)
	proseSplit                    // llama.cpp's split mode named (noise.go)
	proseStory                    // a version story: one version works, another fails (verstory.go)
	prosePlatform                 // where the GPUs run, said (platform.go)
	hangLine                      // a collective, a set-up or a barrier timed out (hangline.go)
	proseInit                     // the launch printing the process group's set-up (reInitLog)
	prosePower                    // the whole machine rebooting or powering off (reHostReset), a riser or extension cable said (reRiser), a GPU said lost (reGPULost), GPU memory said to run out (reOOMSaid), several GPUs named (reSeveralGPUs): rare words
	cudaBuild                     // the CUDA of a build, a compute capability (cudabuild.go)
	proseTraining                 // a training run said or shown (reTraining)
	proseLossNaN                  // a loss said to become NaN (reLossNaN) or 0 (reLossZero), DeepSpeed's ZeRO stage 2 (reZeRO2)
	proseNodes                    // a run said to work on one node or to fail across nodes (reOneNodeOK, reMultiNodeFail), a master address on the local host (reMasterLoopback), files not shared between nodes (reNodeLocal), a second job on the same machine (reSecondJob)
	proseDiverge                  // ranks said or shown to take different paths (reRanksDiverge)
	proseClose                    // results said to differ only a little (reCloseSaid), training said or shown to end elsewhere on several GPUs than on one (scaling.go)
	proseFirstOnly                // a run said to work on the first GPU and to fail on another (reFirstOnly): GPU 0 and cuda:1 are in many lines that say nothing of it

	readers // how many there are: a line's woken readers are the bits of a uint64
)

// A reader past the 64th would share a bit with another: the build fails
// instead, and the readers' bits need a wider set.
var _ [64 - readers]struct{}

// mark says that a line holds one of the words the hang reader asks of
// every line while it watches (watchHang), or of every set-up line
// (armsHang): found in the same pass as the readers' words, they cost no
// search of their own.
type mark uint8

const (
	markQuiet    mark = 1 << iota // one of ncclQuietWords
	markTeardown                  // one of ncclTeardownWords
	markSetUp                     // one of ncclSetUpWords
	markNCCLInfo                  // NCCL INFO
	markTFBatch                   // tfAllReduceWords[0]
	markTFNCCL                    // tfAllReduceWords[1]
	markPyNCCL                    // pyncclWords
)

// trigger is a word and the reader it sets off.
type trigger struct {
	word string
	r    reader
}

var triggers = append(append(append(append(append(append(append(append(append(append([]trigger{
	{"\x1b", anyTime}, // Strip removes colour codes, which may hide any word

	// Line: the header of a GPU matrix.
	{"GPU0", anyTime},
	// gpuLine
	{"MIG ", anyTime}, {"MIG-", anyTime}, {"MiB /", anyTime}, {"Virtualization Mode", anyTime},
	// scan
	{"-p2p", anyTime},
	{"Peer-to-Peer", anyTime}, {"P2P Connectivity", anyTime}, {"P2P=", anyTime},
	{"Access Peer", anyTime}, // reCanAccess
	{"Peer access from", anyTime},
	{"CUDA-capable", anyTime},
	{"Verification error @ element", anyTime},
	{"Test passed", anyTime}, {"Test failed", anyTime},
	{"cudaMemcpyPeer / cudaMemcpy between", anyTime}, {"Run kernel on GPU", anyTime},
	// ncclLine
	{"NCCL version", ncclVersion},
	{"cudaDriverVersion", ncclDriver},
	{"set by environment", ncclEnv},
	{"via P2P/", channelP2P}, {"via SHM/", channelSHM}, {"via NET/", channelNET}, // reChannel
	{"nNodes", ncclNodes},
	{"P2P is disabled", ncclRefused}, {"Could not enable P2P", ncclRefused},
	// kernelLine
	{"ACSCtl:", anyTime}, {"AMD-Vi", anyTime}, {"DMAR", anyTime}, {"NVLS multicast support is available", anyTime}, {"NVLS Bind mem", anyTime},
	{"IOMMU", anyTime}, {"iommu", anyTime}, {"NVRM", anyTime}, {"SXid", anyTime}, {"BOOT_IMAGE=", anyTime},
	{"WSL", wslHost}, {"/wsl/", wslHost}, {"/mnt/", wslHost}, {"@DESKTOP-", wslHost}, {"@LAPTOP-", wslHost},
	{"docker", containerHost}, {"container-cli", containerHost}, {"podman", containerHost},
	{"pptainer", containerHost}, {"ingularity", containerHost}, {"enroot", containerHost}, {"pyxis", containerHost},
	{"SLURM_", slurmHost}, {"srun: ", slurmHost}, {"slurmstepd: ", slurmHost}, {"salloc: ", slurmHost},
	{"device_map", anyTime}, // reModelSplit
	// versionLine
	{"Driver Version", anyTime}, {"CUDA Version", anyTime}, {"driver version", anyTime}, {"untime", anyTime},
	{"Cuda compilation tools", anyTime},
	{"PyTorch version", torchVersion}, {"torch==", torchVersion}, {"torch ", torchVersion}, // reTorch
	{"ensor", tfVersion},
	{"jax", anyTime},
	{"LLM", vllmVersion}, {"vllm", vllmVersion},
	{"nvidia-nccl-cu", pipNCCL},
	{"GeForce", consumerGPU}, {"TITAN", consumerGPU}, {"RTX", consumerGPU}, {"GTX", consumerGPU}, {"090", consumerGPU}, {"0Ti", consumerGPU}, {"0 Ti", consumerGPU}, {"0ti", consumerGPU}, {"0 ti", consumerGPU}, {"0TI", consumerGPU}, {"080", consumerGPU}, {"070", consumerGPU}, {"060", consumerGPU}, // consumerWords
	{"Tesla ", dataCentreGPU}, {"NVIDIA ", dataCentreGPU},
	{"Radeon", amdGPU}, {"RADEON", amdGPU}, {"Instinct", amdGPU}, {"MI5", amdGPU}, {"MI6", amdGPU}, {"MI1", amdGPU}, {"MI2", amdGPU}, {"MI3", amdGPU}, {"gfx", amdGPU}, {"ROCm", amdGPU}, // amdGPUWords
	// symptomScan
	{"Memory Usage", anyTime},
	{"Init COMPLETE", ncclSetUp}, {"Connected all rings", ncclSetUp}, {"Connected all trees", ncclSetUp}, // ncclSetUpWords
	{": opCount ", ncclSetUp}, {"batch_all_reduce: ", ncclSetUp}, {"Channel ", ncclSetUp}, {"Trees [", ncclSetUp}, {"Pattern ", ncclSetUp},
	{" is using nccl==", ncclSetUp}, // pyncclWords
	{"waiving test", anyTime}, {"Waiving device_to_device", anyTime},
	{"Mismatched elements: ", anyTime}, // reMismatch
	{" absolute difference", anyTime},  // reAbsDiff
	{"device='cuda:", tensorPrint}, {"tensor(", tensorPrint},
	{"ECAP_ACS", anyTime}, {"ecap_acs", anyTime}, {"f2a.w", anyTime}, {"F2A.w", anyTime}, {"f2a.W", anyTime}, {"F2A.W", anyTime}, {"BAR 1: current size: ", anyTime},
	// proseLine
	{"^C", anyTime}, {"KeyboardInterrupt", anyTime},
	{issueFormQuestion, anyTime}, // issueForm, and its answers
	{"Data corruption", anyTime}, {"Lower accuracy than expected", anyTime}, {"Application hang", anyTime}, {"Lower performance than expected", anyTime},
	// linkScan
	{"PCIe Generation", anyTime}, {"Link Width", anyTime}, {"memcpy ", anyTime},
	{"#wrong", anyTime}, {"Out of bounds values", anyTime}, {"Avg bus bandwidth", anyTime},
	{"busbw", anyTime}, {"Rank ", testRank}, // nccltests.go
	{"float", ncclTestRow}, {"half", ncclTestRow}, {"double", ncclTestRow}, {"int8", ncclTestRow}, // ncclTestTypes
	{"int32", ncclTestRow}, {"int64", ncclTestRow}, {"f8e", ncclTestRow},
}, wordTriggers(customARWords, customARName)...), wordTriggers(hangWords, proseHang)...), wordTriggers(testGPUWords, gpuNameLine)...), wordTriggers(distWords, distCall)...), wordTriggers(wrongWords, proseWrong)...), wordTriggers(migWords, proseMIG)...), wordTriggers(vmWords, proseVM)...), proseTriggers...), wordTriggers(gpusFoundWords, anyTime)...), wordTriggers(devListWords, anyTime)...)

// proseTriggers are the words of the container, P2P, AMD, socket, slow,
// shm, Fabric Manager, NVLS, Windows, bandwidth-figure, scaling, ACS and IOMMU readers;
// "docker" is containerHost's word already (see done).
var proseTriggers = func() []trigger {
	var out []trigger
	for _, w := range containerWords {
		if w != "docker" {
			out = append(out, trigger{w, proseContainers})
		}
	}
	out = append(out, wordTriggers(p2pIntentWords, proseP2P)...)
	out = append(out, wordTriggers(p2pOffWords, proseP2P)...)
	out = append(out, wordTriggers(amdWords, proseAMD)...)
	out = append(out, wordTriggers(socketWords, proseSockets)...)
	out = append(out, wordTriggers(slowWords, proseSlow)...)
	out = append(out, wordTriggers(shmWords, proseSHM)...)
	out = append(out, trigger{"docker", proseSHM}) // a docker run line (reDockerGPURun)
	out = append(out, wordTriggers(fmWords, proseFM)...)
	out = append(out, wordTriggers(nvlsWords, proseNVLS)...)
	out = append(out, wordTriggers(windowsWords, proseWindows)...)
	out = append(out, wordTriggers(winLaunchWords, proseWinLaunch)...)
	out = append(out, wordTriggers(bwFigureWords, proseBWFigure)...)
	out = append(out, wordTriggers(bwCarrierWords, proseBWCarrier)...)
	out = append(out, wordTriggers(ncclSaidWords, ncclVersion)...)
	out = append(out, wordTriggers(torchSaidWords, torchVersion)...)
	out = append(out, wordTriggers(gpuNameWords, gpuArchName)...)
	out = append(out, wordTriggers(cudaBuildWords, cudaBuild)...)
	out = append(out, wordTriggers(scaleWords, proseScaling)...)
	out = append(out, wordTriggers(oneUsedWords, proseScaling)...)
	out = append(out, wordTriggers(elsewhereWords, proseScaling)...)
	out = append(out, wordTriggers(mixedDevicesWords, proseScaling)...)
	out = append(out, wordTriggers(firstOnlyWords, proseFirstOnly)...)
	out = append(out, wordTriggers(sameGPUWords, sameGPU)...)
	out = append(out, wordTriggers(acsWords, proseACS)...)
	out = append(out, wordTriggers(initLogWords, proseInit)...)
	out = append(out, wordTriggers(hostResetWords, prosePower)...)
	out = append(out, wordTriggers(riserWords, prosePower)...)
	out = append(out, wordTriggers(gpuLostWords, prosePower)...)
	out = append(out, wordTriggers(oomWords, prosePower)...)
	out = append(out, wordTriggers(severalWords, prosePower)...)
	// A hang told by utilization and power reads as the hang lines do.
	out = append(out, wordTriggers(spinWords, proseHang)...)
	out = append(out, wordTriggers(timeoutSaidWords, proseHang)...)
	out = append(out, wordTriggers(lossNaNWords, proseLossNaN)...)
	// The loss said to fall to 0 and DeepSpeed's ZeRO stage 2 are read
	// beside the NaN: what tells its releases' garbled gradients.
	out = append(out, wordTriggers(lossZeroWords, proseLossNaN)...)
	out = append(out, wordTriggers(zero2Words, proseLossNaN)...)
	out = append(out, wordTriggers(nodeWords, proseNodes)...)
	out = append(out, wordTriggers(divergeWords, proseDiverge)...)
	out = append(out, wordTriggers(trainingWords, proseTraining)...)
	out = append(out, wordTriggers(masterLoopbackWords, proseNodes)...)
	out = append(out, wordTriggers(nodeLocalWords, proseNodes)...)
	out = append(out, wordTriggers(secondJobWords, proseNodes)...)
	out = append(out, wordTriggers(closeWords, proseClose)...)
	out = append(out, wordTriggers(metricTriggerWords, proseClose)...)
	out = append(out, wordTriggers(iommuWords, proseIOMMU)...)
	out = append(out, wordTriggers(peerAlreadyWords, proseAlready)...)
	out = append(out, wordTriggers(peerCheckWords, proseAlready)...)
	out = append(out, wordTriggers(ibvWarnWords, proseIbv)...)
	out = append(out, wordTriggers(fabricNSWords, proseIbv)...)
	out = append(out, wordTriggers(errorColumnWords, proseErrCol)...)
	out = append(out, wordTriggers(testsNamedWords, proseErrCol)...)
	out = append(out, wordTriggers(noNCCLSaidWords, proseNoNCCL)...)
	out = append(out, wordTriggers(splitModeWords, proseSplit)...)
	out = append(out, wordTriggers(storyWords, proseStory)...)
	out = append(out, wordTriggers(storyInstallWords, proseStory)...)
	out = append(out, wordTriggers(platformWords, prosePlatform)...)
	return append(out, wordTriggers(hangLineWords, hangLine)...)
}()

// markWord is a word of the hang reader and its mark.
type markWord struct {
	word string
	m    mark
}

// markWords come after the triggers in Words.
var markWords = func() []markWord {
	var out []markWord
	add := func(words []string, m mark) {
		for _, w := range words {
			out = append(out, markWord{w, m})
		}
	}
	add(ncclQuietWords, markQuiet)
	add(ncclTeardownWords, markTeardown)
	add(ncclSetUpWords, markSetUp)
	add([]string{"NCCL INFO"}, markNCCLInfo)
	add(tfAllReduceWords[:1], markTFBatch)
	add(tfAllReduceWords[1:], markTFNCCL)
	add(pyncclWords, markPyNCCL)
	return out
}()

// wordTriggers are words, each setting off r.
func wordTriggers(words []string, r reader) []trigger {
	out := make([]trigger, len(words))
	for i, w := range words {
		out[i] = trigger{w, r}
	}
	return out
}

var (
	words        = wordsOf(triggers)
	triggerWords = sync.OnceValue(func() *ahocorasick.Automaton { return ahocorasick.New(words) })
)

func wordsOf(ts []trigger) []string {
	out := make([]string, len(ts), len(ts)+len(markWords))
	for i, t := range ts {
		out[i] = t.word
	}
	for _, m := range markWords {
		out = append(out, m.word)
	}
	return out
}

// Words are what the prefilter looks for in a line. A reader that looks for
// literals of its own in the same lines can find both in one pass: for each
// line it calls Begin, Found with the index in Words of every word the line
// holds, and End, which reads the line as LineBytes does.
func Words() []string { return append([]string(nil), words...) }

// wakes and marks are, per word of Words, the bit of the reader it sets
// off and its marks.
var wakes, marks = func() ([]uint64, []mark) {
	w, m := make([]uint64, len(words)), make([]mark, len(words))
	for i, t := range triggers {
		w[i] = 1 << t.r
	}
	for i, t := range markWords {
		m[len(triggers)+i] = t.m
	}
	return w, m
}()

// Begin starts a line (see Words).
func (x *Extractor) Begin() { x.woken, x.marks, x.colour = 0, 0, false }

// Found says that the line holds word w of Words; a word may be said more
// than once.
func (x *Extractor) Found(w int) {
	x.woken |= wakes[w]
	x.marks |= marks[w]
	x.colour = x.colour || w == colourWord
}

// colourWord is the index in Words of the escape that starts a colour code.
var colourWord = slices.Index(words, "\x1b")

// woke says whether the line being read may hold a word of the readers in
// mask. A line read after the prefilter's scan may only if the scan woke one
// of them: every word of a reader's test is one of its triggers, and the
// stripped line is a part of the line scanned. A line read without a scan
// (while a table is read, or every line when unfiltered) may, and so may one
// with colour codes, whose removal can join a word the scan saw split. Most
// lines that reach the readers woke one or two of them; asking the others
// here spares each its search of the line.
func (x *Extractor) woke(mask uint64) bool {
	return x.woken == 0 || x.colour || x.woken&mask != 0
}

// End reads line n, raw, whose words Found was given: as LineBytes does.
func (x *Extractor) End(n int, raw []byte) {
	x.n = n
	comment := codeComment(x, raw)
	watchHang(x, raw)
	if comment || settled(x, raw) {
		return
	}
	x.line(n, string(raw))
}

// quiet says whether line raw can change nothing: the readers that carry
// state from line to line (a matrix, the bandwidth test, nvidia-smi -q's
// MIG Mode) are idle, and every reader whose word the line holds is done.
func quiet[T string | []byte](x *Extractor, raw T) bool {
	x.Begin()
	if x.sym.hang.watch || x.idle() { // the line's words are needed
		switch raw := any(raw).(type) {
		case string:
			triggerWords().ScanString(raw, x.wake)
		case []byte:
			triggerWords().Scan(raw, x.wake)
		}
	}
	watchHang(x, raw)
	if !x.idle() {
		return false
	}
	return settled(x, raw)
}

// idle says whether no reader carries state from line to line.
func (x *Extractor) idle() bool {
	return !x.unfiltered && x.mat == nil && x.bw == nil && !x.mig.next &&
		x.sym.smi.next == "" && !x.sym.setpci.next && x.link.section == "" && !x.link.nvb && !x.link.nvbHost &&
		!x.sym.tensors.open.set && !x.peerAsk.set
}

// settled is quiet once the line's words are known.
func settled[T string | []byte](x *Extractor, raw T) bool {
	if !x.idle() {
		return false
	}
	for w := x.woken; w != 0; w &= w - 1 {
		if !done(x, reader(bits.TrailingZeros64(w)), raw) {
			return false
		}
	}
	return true
}

// done says whether reader r has nothing left to learn from line raw.
func done[T string | []byte](x *Extractor, r reader, raw T) bool {
	has := func(name string) bool { _, ok := x.prio[name]; return ok }
	switch r {
	case ncclVersion:
		// A version said in words (versions.go) is below NCCL's own line.
		return x.prio["nccl.version"] >= 2
	case ncclDriver:
		return x.prio["cuda.driver"] >= 2
	case channelP2P, channelSHM, channelNET:
		// A channel marks its transport, and adds its host while there are
		// fewer than two (see ncclLine).
		if !x.nccl.seen[r-channelP2P].set {
			return false
		}
		hosts := x.nccl.hosts
		if len(hosts) >= 2 {
			return true
		}
		n := ncclHost(raw)
		return n > 0 && len(hosts) == 1 && string(raw[:n]) == hosts[0]
	case ncclEnv:
		// Only a variable not kept yet, while there is room, adds a fact.
		name := envName(Strip(string(raw)))
		if name == "" {
			return false
		}
		_, ok := x.facts["env."+name]
		return ok || x.envCount >= maxEnv
	case ncclNodes:
		return x.nccl.nodesSeen
	case ncclRefused:
		return x.nccl.refused.set
	case torchVersion:
		return x.prio["python.torch"] >= 1
	case tfVersion:
		return has("python.tensorflow")
	case vllmVersion:
		return has("python.vllm")
	case pipNCCL:
		return x.prio["python.nccl"] >= 1
	case wslHost:
		return has("wsl")
	case containerHost:
		return has("container") && x.prose.cont.set && x.prose.plat.ctr.set
	case proseContainers:
		return x.prose.cont.set && x.prose.plat.ctr.set
	case proseP2P:
		// NCCL's own lines never say it (see proseLine); the line's marks,
		// found in the same pass as its words, tell them without a search.
		return x.prose.p2p && x.prose.p2pOff.set || x.marks&markNCCLInfo != 0
	case proseAMD:
		return x.prose.amd.set
	case proseSockets:
		// NCCL's own lines ("NET/Socket") never say it (see proseLine).
		return x.prose.socks.set || x.marks&markNCCLInfo != 0
	case proseSlow:
		return x.prose.slow.set || x.marks&markNCCLInfo != 0
	case proseSHM:
		return x.prose.shm.set || x.marks&markNCCLInfo != 0
	case proseFM:
		return x.prose.fm.set
	case proseNVLS:
		return x.prose.nvls.set || x.marks&markNCCLInfo != 0
	case proseWindows:
		// WSL said anywhere rules native Windows out, so Windows's words
		// are read until then.
		return x.prose.wsl
	case proseWinLaunch:
		return x.prose.multi || x.prose.dist
	case proseBWFigure:
		return x.prose.bwFig.set || x.marks&markNCCLInfo != 0
	case proseBWCarrier:
		return x.prose.bwCar || x.marks&markNCCLInfo != 0
	case proseScaling:
		return x.scale.fail.set && x.scale.dp && x.prose.elsewhere.set && x.prose.mixed.set || x.marks&markNCCLInfo != 0
	case proseFirstOnly:
		// A line that said neither half adds nothing when read again.
		return x.prose.firstOnly.set || x.marks&markNCCLInfo != 0 || x.prose.firstRead[string(raw)]
	case sameGPU:
		// NCCL's set-up lines are read for their busId; the same line again
		// (a log pasted twice, a benchmark's repeats) adds nothing.
		return x.scale.same.set || x.marks&markNCCLInfo != 0 && (x.scale.read[string(raw)] || len(x.scale.read) >= maxRankDevs)
	case slurmHost:
		return has("slurm")
	case consumerGPU:
		return x.consumer.set
	case dataCentreGPU:
		return x.dataCentre.set
	case amdGPU:
		return x.amdGPU.set
	case ncclSetUp:
		// All such a line tells is that a communicator is set up, which the
		// hang reader notes here (as symptomScan would) without reading it.
		if x.armsHang() {
			armHang(x, x.n, raw)
		}
		return true
	case ncclTestRow:
		return len(x.sym.ncclTests.wrongCols) == 0 && len(x.sym.busbw.cols) == 0
	case customARName:
		return x.car.named.set
	case tensorPrint:
		return x.sym.tensors.zeros.set && x.sym.tensors.differs.set
	case proseHang:
		// A later hang line may still say the run made progress (hang.later)
		// or that it hangs at the first collective (hang.first).
		return x.prose.hang.set && x.prose.later.set && x.prose.first.set || x.marks&markNCCLInfo != 0
	case proseInit:
		return x.prose.atInit || x.marks&markNCCLInfo != 0
	case proseClose:
		return x.prose.close.set && x.scale.metric.set || x.marks&markNCCLInfo != 0
	case proseTraining:
		return x.prose.training.set || x.marks&markNCCLInfo != 0
	case proseLossNaN:
		return x.prose.lossNaN.set && x.prose.nanPairs && x.prose.lossZero.set && x.prose.zero2.set || x.marks&markNCCLInfo != 0
	case proseDiverge:
		return x.prose.diverge.set || x.marks&markNCCLInfo != 0
	case proseNodes:
		// The nodes' readers share the bit with a launch over nodes whose
		// master address is the local host (reMasterLoopback).
		return x.prose.oneNode.set && x.prose.multiFail.set && x.prose.loopback.set && x.prose.nodeLocal.set && x.prose.second.set || x.marks&markNCCLInfo != 0
	case prosePower:
		return x.prose.power.set && x.prose.riser.set && x.prose.lost.set && x.prose.oom.set && x.prose.several || x.marks&markNCCLInfo != 0
	case distCall:
		return x.prose.dist
	case proseWrong:
		return x.prose.wrong.set
	case proseMIG:
		return x.prose.mig.set && x.prose.mig2
	case proseVM:
		return x.prose.vm.set
	case testRank:
		// Two hosts settle the judgement (not against a link); until then
		// each Rank line may name another. NCCL's own lines ("localRank 0")
		// are never nccl-tests' Rank lines.
		return len(x.sym.busbw.hosts) >= 2 || hasNCCLInfo(raw)
	case proseACS:
		return x.prose.acs.set || x.marks&markNCCLInfo != 0
	case proseIOMMU:
		return x.prose.iommu.set || x.marks&markNCCLInfo != 0
	case proseAlready:
		// A peer check read before, which every rank may print again,
		// tells nothing new; one not read yet may.
		s := string(raw)
		if containsAny(s, peerCheckWords...) && !x.peerRead[s] {
			return false
		}
		return !containsAny(s, peerAlreadyWords...) || x.noiseDone(r)
	case proseIbv, proseErrCol, proseNoNCCL, proseSplit:
		return x.noiseDone(r)
	case proseStory:
		// A story that names no component reads on for one installed.
		return x.story.ev.set && (x.story.component != "" || x.story.installed != "") || x.marks&markNCCLInfo != 0
	case cudaBuild:
		// Enough versions read settle it; NCCL's lines print neither (its
		// version is ncclLine's).
		return x.cudaBuild >= maxCUDABuild || x.marks&markNCCLInfo != 0
	case gpuArchName:
		// Every architecture named settles it; NCCL's lines name none.
		return x.gpuArch.seen == 1<<len(gpuArchs)-1 || x.marks&markNCCLInfo != 0 || x.gpuArch.read[string(raw)]
	case gpuNameLine:
		// NCCL's lines ("fabric UUID") never name a GPU as nvidia-smi does;
		// a line that named one before names the same one again.
		return x.sym.busbw.nameEv.set || hasNCCLInfo(raw) || x.gpuArch.read[string(raw)]
	case prosePlatform:
		// NCCL's lines (a pod's host name) never say it (see platformLine).
		return x.prose.plat.settled() || x.marks&markNCCLInfo != 0
	case hangLine:
		// Watchdog lines are read on until two ranks disagree or enough are kept.
		return x.prose.hangLine.set && (x.prose.differ.set || len(x.prose.works) >= maxWorks) || x.marks&markNCCLInfo != 0
	}
	return false
}

// ncclHost is the length of the host of NCCL's prefix "host:pid:tid [dev]
// NCCL " when the line starts with it, else 0: what reNCCLHost finds first,
// read without it.
func ncclHost[T string | []byte](raw T) int {
	host, end := hostPrefix(raw)
	const tail = " NCCL "
	if end == 0 || len(raw)-end < len(tail) || string(raw[end:end+len(tail)]) != tail {
		return 0
	}
	return host
}

// hostPrefix reads "host:pid:tid [dev]" ([\w.-]+:\d+:\d+ \[\d+\], the
// last of prefixes) at the start of raw: the length of the host and of
// the whole prefix, or 0, 0.
func hostPrefix[T string | []byte](raw T) (host, end int) {
	i := 0
	for i < len(raw) && isHostByte(raw[i]) {
		i++
	}
	host = i
	if i == 0 || i == len(raw) || raw[i] != ':' {
		return 0, 0
	}
	i = digits(raw, i+1)
	if i < 0 || i == len(raw) || raw[i] != ':' {
		return 0, 0
	}
	i = digits(raw, i+1)
	if i < 0 || i+1 >= len(raw) || raw[i] != ' ' || raw[i+1] != '[' {
		return 0, 0
	}
	i = digits(raw, i+2)
	if i < 0 || i == len(raw) || raw[i] != ']' {
		return 0, 0
	}
	return host, i + 1
}

// envName is the variable reNCCLEnv finds in stripped line s, read
// without it, or "" when that is not plain: the name before the first
// " set by environment to ", which starts with NCCL_ at a word's start.
func envName(s string) string {
	i := strings.Index(s, " set by environment to ")
	if i < 0 {
		return ""
	}
	j := i
	for j > 0 && (s[j-1] >= 'A' && s[j-1] <= 'Z' || s[j-1] >= '0' && s[j-1] <= '9' || s[j-1] == '_') {
		j--
	}
	if j > 0 && (isHostByte(s[j-1]) && s[j-1] != '.' && s[j-1] != '-') {
		return "" // no word boundary before the name
	}
	if name := s[j:i]; strings.HasPrefix(name, "NCCL_") && len(name) > len("NCCL_") {
		return name
	}
	return ""
}

// isHostByte is [\w.-].
func isHostByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// digits skips \d+ from i: the index after them, or -1 when there is none.
func digits[T string | []byte](raw T, i int) int {
	j := i
	for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
