package paste

import "strings"

// Harmless messages said in words: what a person writes about a line that
// looks like a fault and is not one ("CUDA emits an error when peer access
// is already enabled", "this libibverbs warning", "fabric state=Not
// Supported", "the error column is not 0 but Out of Bounds Values is 0").
// Each reader keeps the first line that says it; the facts answer only a
// paste in which nothing else is known (Weak), for a real fault shown
// beside them says more.

var (
	// Peer access already enabled, said in words ("enable peer access on a
	// device that already has this enabled", "peer access has already been
	// enabled"), by its names, or a checker (cuda-memcheck,
	// compute-sanitizer, cuda-gdb) named beside the enable call: the checker
	// reports every failing API call, 704 included, which the program
	// treats as success.
	rePeerAlready = pattern("peerAlready", `(?i)\bpeer(?:[- ]to[- ]peer)? access\b.{0,80}\balready\b.{0,30}\benabled\b|\balready\s(?:been\s|being\s)?enabled\b.{0,40}\bpeer(?:[- ]to[- ]peer)? access\b|PeerAccessAlreadyEnabled|PEER_ACCESS_ALREADY_ENABLED|`+
		`\b(?:cuda-memcheck|compute-sanitizer|cuda-gdb)\b.{0,120}(?:EnablePeerAccess\b|\balready\b.{0,30}\benabled\b)|EnablePeerAccess\b.{0,120}\b(?:cuda-memcheck|compute-sanitizer|cuda-gdb)\b|\bcudaDeviceEnablePeerAccess returned \(0x2c0\)`)
	// "not already", and the error's own line ("cudaErrorPeerAccessAlreadyEnabled:
	// peer access is already enabled", "CUDA error: peer access is already
	// enabled"), which the entries of the error answer.
	rePeerAlreadyNot = pattern("peerAlreadyNot", `(?i)\b(?:not|n't|never|if|whether)\s(?:\w{1,20}\s){0,3}already\b|(?:AlreadyEnabled|ALREADY_ENABLED|\berror)\W{1,3}peer access is already enabled\b`)
	// libibverbs's warnings about its provider drivers ("libibverbs:
	// Warning: couldn't load driver 'libipathverbs-rdmav25.so'", "this
	// warning can be removed if I delete /etc/libibverbs.d/ipath.driver"):
	// printed by libibverbs itself for every provider listed in
	// /etc/libibverbs.d that is not installed, whichever one NCCL then uses.
	// NCCL's own "Failed to open libibverbs.so" (no libibverbs at all) is
	// not this.
	reIbvWarn = pattern("ibvWarn", `(?i)libibverbs\.d/|ibverbs:? warnings?\b|\b(?:from|by) libibverbs\b|\bload driver '`)
	// A GPU's NVLink fabric state said to be Not Supported or N/A ("fabric
	// state: GPU GPU-...: state=Not Supported"): NVML answers so for every
	// GPU without an NVSwitch fabric (PCIe cards, NVLink bridges, one GPU).
	reFabricNS = pattern("fabricNS", `(?i)\bfabric[ ._](?:state|status)\b.{0,100}\b(?:not supported\b|n/a\b)|\bnot supported\b.{0,40}\bfabric[ ._](?:state|status)\b|\bstate=Not Supported\b`)
	// nccl-tests' error column asked about ("the error column has
	// meaningful numbers rather than 0", "what's mean error field",
	// "Out of Bounds Values is 0"): older nccl-tests print the largest
	// difference from the expected result there, a rounding error of
	// floating point sums; only values beyond the tolerance are counted
	// as out of bounds. The summary line itself ("Out of bounds values :
	// 0 OK") is nccl-tests' own and not read here.
	reErrorColumn = pattern("errorColumn", `(?i)(?:\berror|#wrong|\bwrong)\s(?:column|field|col)s?\b|\bout of bounds values?\s(?:is|are|was|were|shows?|says?|stays?|remains?)\s(?:still\s)?(?:0|zero)\b`)
	// NCCL, or a multi-GPU run, said to be unavailable on native Windows or
	// macOS ("NCCL is not supported on windows", "NCLL is not available on
	// windows", "NCCL for Windows is not supported", "Windows doesnt support
	// nccl", "multi-GPU (tp>1) is not supported on Windows yet"): NCCL
	// exists for Linux only.
	reNoNCCLSaid = pattern("noNCCLSaid", `(?i)\b(?:nc{1,2}l{1,2}|multi-?\s?gpus?|tensor[- ]parallel\w{0,6}|tp\s?>\s?1)\b.{0,40}\b(?:is|are)\s(?:still\s)?(?:not|n't)\s(?:yet\s)?(?:supported|available)\s(?:yet\s)?(?:on|in|for|under)\s(?:native\s)?(?:windows|macos)\b|`+
		`\bnccl (?:for|on) (?:windows|macos) is (?:not|n't) (?:yet )?(?:supported|available)|\b(?:windows|macos)\s(?:does(?:n't|nt| not)|do(?:n't| not)|cannot|can't)\s(?:yet\s)?support\s(?:the\s)?nccl\b|windows\s?不(?:能用|支持)\s?nccl|nccl\s?在\s?windows\s?[下上]\s?不支持|windows.{0,8}(?:安装不了|装不了|无法安装|没有)\s?(?:nvidia\s)?nccl`)
	// llama.cpp's (and ollama's) split mode named ("split_mode = \"layer\"",
	// "--split-mode row", "-sm row", "splitting by layer"): with the default,
	// layer, the GPUs run one after another and little crosses between
	// them, whatever the link.
	reSplitMode = pattern("splitMode", `(?i)\bsplit[-_ ]mode\b|(?:^|\s)-sm\s(?:layer|row|none|tensor)\b|\bsplit(?:ting)?\s(?:by|across)\s(?:layers?|rows?)\b`)
	// llama.cpp's tensor split mode named ("-sm tensor", "--split-mode
	// tensor", "split-mode = tensor", "SPLIT_MODE_TENSOR"): each weight is
	// split across the GPUs, an experimental mode with its own faults.
	reSplitTensor = pattern("splitTensor", `(?i)\bsplit[-_ ]mode\W{0,4}(?:=\s*)?["']?tensor\b|(?:^|\s)-sm\s+tensor\b|\bSPLIT_MODE_TENSOR\b`)
	reTestsNamed  = pattern("testsNamed", `(?i)nccl[- _]?tests?\b|_perf\b|\bbusbw\b|\balgbw\b|\bout of bounds values?\b`)
)

// peerAlreadyWords, ibvWarnWords, fabricNSWords, errorColumnWords and
// testsNamedWords are the words, as written, one of which every match of
// their pattern holds. None is in NCCL's INFO lines, which these readers
// skip.
var (
	peerAlreadyWords = []string{"already", "Already", "ALREADY", "EnablePeerAccess", "memcheck", "MEMCHECK", "Memcheck", "sanitizer", "Sanitizer", "cuda-gdb", "CUDA-GDB"}
	ibvWarnWords     = []string{"libibverbs.d/", "ibverbs: W", "ibverbs: w", "ibverbs Warn", "ibverbs warn", "from libibverbs", "From libibverbs", "by libibverbs", "By libibverbs", "load driver '"}
	fabricNSWords    = []string{"abric state", "abric State", "abric STATE", "ABRIC STATE", "abric status", "abric Status", "abric_state", "abric.state", "abric_status", "abric.status", "=Not Supported"}
	errorColumnWords = []string{"error column", "Error column", "ERROR column", "error field", "Error field", "error col", "wrong column", "wrong field", "wrong col", "ut of bounds value", "ut of Bounds Value", "ut of Bounds value", "UT OF BOUNDS VALUE"}
	noNCCLSaidWords  = []string{"Windows", "windows", "WINDOWS", "macOS", "macos", "MacOS", "MACOS", "Macos"}
	splitModeWords   = []string{"split_mode", "split-mode", "split mode", "Split mode", "Split Mode", "SPLIT_MODE", "-sm ", "splitting by", "split by", "splitting across", "split across", "Splitting by", "Split by", "Splitting across", "Split across"}
	testsNamedWords  = []string{"nccl-test", "nccl test", "nccl_test", "NCCL-test", "NCCL test", "NCCL_test", "nccl-Test", "NCCL Test", "NCCL-Test", "Nccl Test", "Nccl test", "Nccl-test", "nccltest", "NCCLtest",
		"_perf", "busbw", "busBW", "BusBW", "BusBw", "busBw", "BUSBW", "algbw", "algBW", "AlgBW", "AlgBw", "algBw", "ALGBW",
		"ut of bounds value", "ut of Bounds Value", "ut of Bounds value", "UT OF BOUNDS VALUE"}
)

// noiseLine reads stripped line s for these readers.
func (x *Extractor) noiseLine(s string, n int, raw string) {
	p := &x.prose
	if strings.Contains(s, "NCCL INFO") || strings.Contains(s, "NCCL WARN") {
		return
	}
	if x.woke(1<<proseAlready) && !p.peerAlready.set && containsAny(s, peerAlreadyWords...) && rePeerAlready.MatchString(s) && !rePeerAlreadyNot.MatchString(s) {
		p.peerAlready.mark(n, raw)
	}
	if x.woke(1<<proseIbv) && !p.ibvWarn.set && containsAny(s, ibvWarnWords...) && reIbvWarn.MatchString(s) {
		p.ibvWarn.mark(n, raw)
	}
	if x.woke(1<<proseIbv) && !p.fabricNS.set && containsAny(s, fabricNSWords...) && reFabricNS.MatchString(s) {
		p.fabricNS.mark(n, raw)
	}
	if x.woke(1<<proseErrCol) && !p.errorColumn.set && containsAny(s, errorColumnWords...) && reErrorColumn.MatchString(s) {
		p.errorColumn.mark(n, raw)
	}
	if x.woke(1<<proseNoNCCL) && !p.noNCCL.set && containsAny(s, noNCCLSaidWords...) && reNoNCCLSaid.MatchString(s) {
		p.noNCCL.mark(n, raw)
	}
	if x.woke(1<<proseSplit) && !p.splitMode.set && containsAny(s, splitModeWords...) && reSplitMode.MatchString(s) {
		p.splitMode.mark(n, raw)
	}
	if x.woke(1<<proseSplit) && !p.splitTensor.set && containsAny(s, splitModeWords...) && reSplitTensor.MatchString(s) {
		p.splitTensor.mark(n, raw)
	}
	if x.woke(1<<proseErrCol) && !p.testsNamed && containsAny(s, testsNamedWords...) && reTestsNamed.MatchString(s) {
		p.testsNamed = true
	}
}

// noiseDone says whether the reader of noise r has nothing left to learn
// from a line: the prefilter's done for these readers.
func (x *Extractor) noiseDone(r reader) bool {
	if x.marks&markNCCLInfo != 0 {
		return true
	}
	p := &x.prose
	switch r {
	case proseAlready:
		return p.peerAlready.set
	case proseIbv:
		return p.ibvWarn.set && p.fabricNS.set
	case proseErrCol:
		return p.errorColumn.set && p.testsNamed
	case proseNoNCCL:
		return p.noNCCL.set
	case proseSplit:
		return p.splitMode.set && p.splitTensor.set
	}
	return false
}

// notWSL is the gate of NCCL said to be missing on Windows: WSL, said or
// shown anywhere, is Linux and has it.
func notWSL(x *Extractor) bool {
	_, wsl := x.prio["wsl"]
	return !x.prose.wsl && !wsl
}

// notTensorSplit is the gate of llama.cpp's split mode named: where its
// tensor mode is named anywhere, the layer mode's GPUs running one after
// another is not what the paste is about ("-sm tensor" crashes, "not with
// -sm layer").
func notTensorSplit(x *Extractor) bool { return !x.prose.splitTensor.set }

// testsNoWrong is the gate of the error column asked about: nccl-tests
// named in the paste, and no wrong values read from its table, which would
// be a real fault (nccl.tests.wrong).
func testsNoWrong(x *Extractor) bool {
	v, ok := x.facts["nccl.tests.wrong"]
	return x.prose.testsNamed && (!ok || v.Value == "0")
}
