package paste

import "strings"

// What people write about a run rather than what it prints: "the job hangs
// at all_reduce", a run stopped with Ctrl-C in a collective, "the output is
// gibberish", "-nan instead of 10 is received". Each reader
// keeps the first line that says it, and needs the GPU or collective it
// happens in on the same line (or, for Ctrl-C, somewhere in the paste), so
// that a hang of something else is not read as one.

var (
	reHangWord  = pattern("hangWord", `(?i)\b(?:hangs?|hanging|hung|stuck|freez(?:es|ing|e)|froze|frozen|deadlock(?:s|ed)?)\b|卡住|卡死|卡在|挂起|死锁`)
	reHangNot   = pattern("hangNot", `(?i)(?:\bnot|\bnever|\bno longer|n't|\bwithout)\s{1,4}(?:\w{1,20}\s{1,4})?(?:hang|hung|stuck|freez|froze|deadlock)`)
	reHangWhere = pattern("hangWhere", `(?i)all_?reduce|all-reduce|all_?gather|reduce_?scatter|broadcast|barrier|init_process_group|\bnccl|collective|\bgpus?\b|multi-?gpu|p2pBandwidthLatencyTest|simpleP2P|_perf\b|\bddp\b|distributed|deepspeed|torchrun|tensor.parallel|\bcuda\b|\.generate\(|vllm|分布式|多卡|显卡`)
	reWrongOut  = pattern("wrongOut", `(?i)\b(?:wrong|incorrect|corrupt(?:ed)?|garbage|garbled|gibberish|nonsense|bogus)\s(?:\w{1,20}\s){0,2}(?:values?|results?|outputs?|data|answers?|numbers?|text|tokens?|tensors?|gradients?)\b|\b(?:outputs?|returns?|prints?|gives?|generates?|produces?|is|are)\s(?:\w{1,20}\s){0,2}(?:gibberish|garbage|nonsense|zeros)\b|\b(?:nan|zeros?|0)\W{0,3}\sinstead of\b|\bsilent(?:ly)? corrupt|\b(?:cop(?:y|ied|ies|ying)|mov(?:e|es|ed|ing)|transfer(?:s|red|ring)?)\b.{0,60}\b(?:zeroed out|zero tensors?|all zeros)\b`)
	reDistCall  = pattern("distCall", `init_process_group|all_?reduce|barrier\(|torch[/.]distributed|\bdist\.|deepspeed`)
	// Where the GPUs are, said in words: MIG slices by name or profile
	// ("4 MIG instances (1g.10gb)"), a virtual machine or GPU passthrough.
	reMIGProse = pattern("migProse", `\bMIG[- ](?:instances?|slices?|partitions?|devices?|enabled)\b|\b[1-7]g\.\d{1,3}gb\b`)
	reVMProse  = pattern("vmProse", `(?i)\bvirtual machines?\b|\bkvm (?:guest|virtual)|\bqemu\b|\bproxmox\b|\besxi\b|\bhypervisor\b|\b(?:gpu|pcie?|device) pass-?through|\bpass-?through(?:ed)? (?:of )?(?:the )?(?:gpus?|devices?|cards?)\b|\b(?:in|inside|into|on|each|my|the|a|every|\d{1,3}) (?:the |a |my |each )?vms?\b`)
	// "no MIG", "MIG disabled", "not in a VM": the place denied.
	rePlaceNot = pattern("placeNot", `(?i)\b(?:no|not|without|non|outside)\b.{0,24}(?:MIG|\bvms?\b|virtual machine|passthrough)|MIG (?:mode )?(?:is )?disabled`)
	// GPUs split over several containers, said in words ("two different
	// containers each use different GPU", "two docker with each holding two
	// cards", "among different containers"): CUDA IPC, and so NVLink and
	// PCIe P2P, needs the peer GPU visible and a shared IPC namespace, which
	// separate containers lack by default. One container alone is not it.
	reContainers   = pattern("containers", `(?i)\b(?:two|2|three|four|different|multiple|several|separate|other|each|both|per)\s(?:\w{1,20}\s){0,2}(?:dockers?|containers|pods)\b|\b(?:among|between|across)\s(?:\w{1,20}\s){0,2}(?:dockers?|containers?|pods?)\b|\b(?:containers|pods|dockers)\s(?:\w{1,20}\s){0,3}(?:each|different|separate|isolated)\b`)
	reContainerNot = pattern("containerNot", `(?i)\b(?:no|not|without|outside)\s(?:\w{1,20}\s){0,2}(?:dockers?|containers?|pods?)\b`)
	reP2PIntent    = pattern("p2pIntent", `(?i)nvlink|\bp2p\b|peer[- ]to[- ]peer|\bcuda[ _]?ipc|cudaIpc|\bipcs?\b`)
	// An AMD host CPU, named in words or by lscpu: AMD platforms (EPYC,
	// Ryzen, Threadripper) commonly boot with the IOMMU translating, which
	// drops or stalls PCIe P2P between GPUs.
	reAMDCPU = pattern("amdCPU", `(?i)\bepyc\b|\bryzen\b|\bthreadripper\b|\bAuthenticAMD\b|\bAMD (?:cpu|processor|host|platform|server|motherboard|system)s?\b`)
	reAMDNot = pattern("amdNot", `(?i)\b(?:no|not|non)[- ](?:an?\s)?(?:amd|epyc|ryzen|threadripper)\b`)
)

// migWords and vmWords are the words, as written, one of which every match
// of reMIGProse and reVMProse holds.
var (
	migWords = []string{"MIG ", "MIG-", "g.1", "g.2", "g.3", "g.4", "g.5", "g.6", "g.7", "g.8", "g.9"}
	vmWords  = []string{"virtual machine", "Virtual machine", "Virtual Machine", "VIRTUAL MACHINE", "KVM ", "kvm ", "Kvm ", "QEMU", "qemu", "Qemu", "roxmox", "ROXMOX",
		"ESXi", "esxi", "ESXI", "ypervisor", "YPERVISOR", "ass-through", "assthrough", "ASSTHROUGH", "ASS-THROUGH", " vm", " VM", " Vm"}
)

// containerWords, p2pIntentWords and amdWords are the words, as written,
// one of which every match of reContainers, reP2PIntent and reAMDCPU holds
// ("docker" is the container reader's own trigger).
var (
	containerWords = []string{"docker", "Docker", "DOCKER", "container", "Container", "CONTAINER", "pods", "Pods", "PODS"}
	p2pIntentWords = []string{"nvlink", "NVLink", "NVLINK", "NvLink", "Nvlink", "p2p", "P2P", "eer-to-peer", "eer to peer", "EER-TO-PEER", "EER TO PEER", "ipc", "IPC", "Ipc"}
	amdWords       = []string{"AMD ", "amd ", "Amd ", "epyc", "EPYC", "Epyc", "ryzen", "Ryzen", "RYZEN", "threadripper", "Threadripper", "ThreadRipper", "THREADRIPPER", "AuthenticAMD"}
)

// hangWords are the words, as written, that a line saying a run hangs
// holds one of (reHangWord, case folded): the prefilter's triggers.
var hangWords = []string{"hang", "Hang", "HANG", "hung", "Hung", "stuck", "Stuck", "STUCK", "freez", "Freez", "FREEZ", "froze", "Froze", "deadlock", "Deadlock",
	"卡住", "卡死", "卡在", "挂起", "死锁"}

// wrongWords are the words, as written, one of which every match of
// reWrongOut holds.
var wrongWords = []string{"wrong", "Wrong", "WRONG", "incorrect", "Incorrect", "corrupt", "Corrupt", "garbage", "Garbage", "garbled", "Garbled",
	"gibberish", "Gibberish", "nonsense", "Nonsense", "bogus", "Bogus", "zeros", "Zeros", "ZEROS", "instead of", "Instead of", "ilent", "zeroed out", "zero tensor"}

// distWords are the words one of which every match of reDistCall holds.
var distWords = []string{"init_process_group", "all_reduce", "allreduce", "barrier(", "torch/distributed", "torch.distributed", "dist.", "deepspeed"}

// prose is the state of these readers.
type prose struct {
	hang  event // a line that says a run on GPUs hangs
	ctrlC event // a run stopped by hand (^C, KeyboardInterrupt)
	wrong event // a line that says results came back wrong
	dist  bool  // the paste calls torch.distributed or DeepSpeed
	mig   event // a line that says the GPUs are MIG slices
	vm    event // a line that says the GPUs are in a virtual machine
	cont  event // a line that says GPUs are split over several containers
	p2p   bool  // the paste speaks of P2P, NVLink or CUDA IPC
	amd   event // a line that names an AMD host CPU
}

// proseLine reads stripped line s.
func (x *Extractor) proseLine(s string, n int, raw string) {
	p := &x.prose
	if !p.hang.set && containsAny(s, hangWords...) && reHangWord.MatchString(s) &&
		reHangWhere.MatchString(s) && !reHangNot.MatchString(s) {
		p.hang.mark(n, raw)
	}
	if !p.wrong.set && containsAny(s, wrongWords...) && reWrongOut.MatchString(s) {
		p.wrong.mark(n, raw)
	}
	if strings.HasPrefix(s, "^C") || strings.HasPrefix(s, "@^C") || strings.Contains(s, "KeyboardInterrupt") {
		p.ctrlC.mark(n, raw)
	}
	if !p.dist && containsAny(s, distWords...) && reDistCall.MatchString(s) {
		p.dist = true
	}
	if !p.mig.set && containsAny(s, migWords...) && reMIGProse.MatchString(s) && !rePlaceNot.MatchString(s) {
		p.mig.mark(n, raw)
	}
	if !p.vm.set && containsAny(s, vmWords...) && reVMProse.MatchString(s) && !rePlaceNot.MatchString(s) {
		p.vm.mark(n, raw)
	}
	if !p.cont.set && containsAny(s, containerWords...) && reContainers.MatchString(s) && !reContainerNot.MatchString(s) {
		p.cont.mark(n, raw)
	}
	// NCCL's own channel lines ("via P2P/IPC") say what it chose, not what
	// the person wants between containers.
	if !p.p2p && containsAny(s, p2pIntentWords...) && !strings.Contains(s, "NCCL INFO") && reP2PIntent.MatchString(s) {
		p.p2p = true
	}
	if !p.amd.set && containsAny(s, amdWords...) && reAMDCPU.MatchString(s) && !reAMDNot.MatchString(s) {
		p.amd.mark(n, raw)
	}
}

// proseFacts gives the facts of these readers once the input ends: a run
// that hangs, said in words, or a distributed run interrupted by hand.
func (x *Extractor) proseFacts() {
	p := &x.prose
	x.setEvent("hang.seen", "bool", "true", 2, p.hang, "description")
	x.setEvent("output.wrong", "bool", "true", 1, p.wrong, "description")
	if p.dist {
		x.setEvent("hang.seen", "bool", "true", 1, p.ctrlC, "interrupted run")
	}
	// Below every tool's reading: nvidia-smi saying MIG is off or the
	// virtualization mode is None wins over words.
	x.setEvent("mig.enabled", "bool", "true", 0, p.mig, "description")
	x.setEvent("virtualized", "bool", "true", 0, p.vm, "description")
	if p.p2p {
		x.setEvent("container.p2p", "bool", "true", 1, p.cont, "description")
	}
	x.setEvent("cpu.amd", "bool", "true", 1, p.amd, "description")
}
