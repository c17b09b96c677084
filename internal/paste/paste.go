// Package paste reads what people paste (nvidia-smi topo, the CUDA P2P
// samples, nvbandwidth, NCCL_DEBUG=INFO logs, lspci, dmesg, tracebacks and
// banners) and turns what it recognizes into the facts p2p-probe gives, under
// the names of internal/rules, each with the line it came from. It reads line
// by line and keeps only a few counters and small matrices, so a log of any
// size fits in bounded memory; assets/paste.js is the same extractor in the
// browser, running the patterns this package writes for it (table.go), and
// testdata/cases.json holds the cases both run.
package paste

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Fact is one fact found in pasted text.
type Fact struct {
	Name   string `json:"name"`   // a fact of internal/rules: nccl.version
	Kind   string `json:"kind"`   // bool, num, version or str
	Value  string `json:"value"`  // as text: "true", "2", "2.28.9"
	Line   int    `json:"line"`   // 1-based line of the input it came from
	Text   string `json:"text"`   // that line, cut to MaxText bytes with "…"
	Source string `json:"source"` // the kind of output: "NCCL", "nvidia-smi topo -m", ...
}

// MaxText is how much of a line a fact keeps.
const MaxText = 300

// MaxLine is how much of a line is read for facts: every output read here
// fits it (a topo -m row of 64 GPUs and NICs, a kernel command line), and
// the browser, which runs these patterns with a backtracking engine, then
// spends bounded time on a line of any length. Both sides cut alike.
const MaxLine = 1024

// head is the first MaxLine bytes of a line, cut at a character.
func head(s string) string {
	if len(s) <= MaxLine {
		return s
	}
	i := MaxLine
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// maxGPUs bounds every matrix, and maxEnv the NCCL_* variables kept, so
// that hostile input cannot grow memory.
const (
	maxGPUs = 64
	maxEnv  = 64
)

// Extractor gathers facts from lines given in order. The zero value is not
// ready: use New.
type Extractor struct {
	facts map[string]Fact
	prio  map[string]int

	mat     *matrix // a GPU matrix being read (topo -m, topo -p2p)
	p2pMode string  // the -p2p mode a command line named, for the next matrix
	bw      *bwTest // p2pBandwidthLatencyTest, once seen
	pairs   pairSet // P2P per ordered pair, from every source that tells

	nccl struct {
		seen         [3]event // P2P, SHM, NET channels
		nodes        int      // nNodes of the first communicator
		nodesSeen    bool
		hosts        []string // host names of NCCL's line prefixes, two at most
		refused      event
		firstChannel event
	}
	iommuFaults counter
	xids        counter
	xidNVLink   event
	envCount    int // env.NCCL_* facts kept
	acs         struct{ any, redirect event }
	consumer    event
	dataCentre  event
	amdGPU      event
	mig         struct {
		next     bool // the line before was "MIG Mode" (nvidia-smi -q)
		on, seen event
	}
	simple struct {
		seen     bool
		verifyKO event
		passed   event
		ran      event
	}
	// The GPUs a program lists one a line (devList): the highest number
	// read, and its line.
	listed struct {
		most int
		ev   event
	}
	// A peer check asked alone on its line (">>>
	// torch.cuda.can_device_access_peer(0, 1)"), whose answer is the next
	// line.
	peerAsk struct {
		a, b int
		set  bool
	}
	peerRead map[string]bool // the peer checks read (at most maxPeerLines)

	n     int      // the line being read
	sym   symptoms // symptoms.go
	prose prose    // prose.go
	scale scaling  // scaling.go
	car   customAR // customar.go
	link  link     // link.go
	story story    // verstory.go

	gpuArch struct {
		seen  uint8 // the architectures named, by gpuArchs' order
		first event // the first line that names one
		dc    event // the first line that names a data-centre GPU (reGPUDataCentre)
		// read are the lines that named a GPU, up to maxNameLines: the same
		// line again ("torch.cuda.get_device_name(0) -> ok: NVIDIA H100" from
		// every rank of every run) tells the GPU-name readers nothing new.
		read map[string]bool
	}
	cudaBuild int // CUDA versions read (cudabuild.go)

	woken      uint64         // the readers whose words a line holds (see quiet)
	colour     bool           // the line holds a colour code's escape (see woke)
	marks      mark           // the hang reader's words a line holds
	wake       func(word int) // Found, bound once
	unfiltered bool           // every line is read in full: the reference quiet is tested against
	inFence    bool           // within a Markdown code fence (codeComment)
	inCode     bool           // within one whose lines are a program's source
}

// Said is the source of the facts read from a person's words rather than
// from what a program printed: they are a weaker witness (diagnose's
// hangFirst leaves them out). assets/paste.js's SAID is the same.
const Said = "description"

type event struct {
	line int
	text string
	set  bool
}

func (e *event) mark(n int, text string) {
	if !e.set {
		*e = event{line: n, text: text, set: true}
	}
}

type counter struct {
	n     int
	first event
}

func (c *counter) add(n int, text string) {
	c.n++
	c.first.mark(n, text)
}

// New returns an empty Extractor.
func New() *Extractor {
	x := &Extractor{facts: map[string]Fact{}, prio: map[string]int{}}
	x.wake = x.Found
	return x
}

// Extract reads a whole text.
func Extract(text string) []Fact {
	x := New()
	n := 0
	for len(text) > 0 {
		n++
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		x.Line(n, line)
	}
	return x.Facts()
}

func cut(s string) string {
	s = strings.TrimRight(s, "\r")
	if len(s) <= MaxText {
		return s
	}
	i := MaxText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// set records a fact; a source of higher priority replaces a lower one, and
// among equals the first line wins.
func (x *Extractor) set(name, kind, value string, prio, n int, text, source string) {
	if old, ok := x.prio[name]; ok && old >= prio {
		return
	}
	x.prio[name] = prio
	x.facts[name] = Fact{Name: name, Kind: kind, Value: value, Line: n, Text: cut(text), Source: source}
}

func (x *Extractor) setEvent(name, kind, value string, prio int, e event, source string) {
	if e.set {
		x.set(name, kind, value, prio, e.line, e.text, source)
	}
}

// prefixes are what logs put before a program's own output: launcher rank
// labels, timestamps, NCCL's host:pid:tid [dev], quote marks.
var prefixes = pattern("prefixes", `^(?:\[(?:rank|default)?\d+\]:|\[\d+,\d+\]<std(?:out|err)>:|\d+: |\([A-Za-z]*\s*pid=\d{1,10}[^)]*\)|>+|\[\s*\d+\.\d+\]|\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]+ [\w.\-\[\]]+:|[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]\s]+\]|[\w.-]+:\d+:\d+ \[\d+\])`)

// mayHavePrefix is a quick test that s may start with one of prefixes:
// most lines of a log start with none.
func mayHavePrefix(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c == '[' || c == '(' || c == '>' || c >= '0' && c <= '9':
		return true
	case c >= 'A' && c <= 'Z' && len(s) > 4 && (s[3] == ' ' || s[1] >= '0' && s[1] <= '9'):
		return true // a syslog month, a glog level and date
	}
	// host:pid:tid [dev]
	i := strings.IndexByte(s, ':')
	return i > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && strings.Contains(s, "] ")
}

var ansi = pattern("ansi", `\x1b\[[0-9;]*[A-Za-z]`)

// Strip removes the prefixes and surrounding blanks of a line.
func Strip(line string) string {
	if strings.IndexByte(line, 0x1b) >= 0 {
		line = ansi.ReplaceAllString(line, "")
	}
	s := strings.TrimSpace(line)
	for i := 0; i < 8 && mayHavePrefix(s); i++ {
		end := 0
		if c := s[0]; c >= 'a' && c <= 'z' || c == '_' || c == '.' || c == '-' {
			// Of prefixes, only NCCL's host:pid:tid [dev] starts so: read
			// without the regular expression, as most lines of NCCL are.
			_, end = hostPrefix(s)
		} else if loc := prefixes.FindStringIndex(s); loc != nil {
			end = loc[1]
		}
		if end == 0 {
			break
		}
		s = strings.TrimSpace(s[end:])
	}
	return s
}

// Line reads line n (1-based) of the input.
func (x *Extractor) Line(n int, raw string) {
	x.n = n
	comment := codeComment(x, raw)
	if quiet(x, raw) || comment {
		return
	}
	x.line(n, raw)
}

// LineBytes is Line for a line the caller may reuse once it returns: it is
// copied only when something in it may be kept.
func (x *Extractor) LineBytes(n int, raw []byte) {
	x.n = n
	comment := codeComment(x, raw)
	if quiet(x, raw) || comment {
		return
	}
	x.line(n, string(raw))
}

func (x *Extractor) line(n int, raw string) {
	raw = head(raw)
	s := Strip(raw)
	if x.symptomLine(s, n, raw) || x.linkLine(s, n, raw) {
		return
	}
	if x.mat != nil && x.mat.row(s, n, raw) {
		return
	}
	if x.mat != nil {
		x.endMatrix()
	}
	if x.bw != nil && x.bw.line(x, s, n, raw) {
		return
	}
	if s == "" {
		return
	}
	if m := startMatrix(s, n, raw); m != nil {
		m.mode = x.p2pMode
		x.p2pMode = ""
		x.mat = m
		return
	}
	x.scan(s, n, raw)
}

var (
	reP2PMode    = pattern("p2pMode", `-p2p ([rwnap]+)\b`)
	reBWStart    = pattern("bwStart", `P2P \(Peer-to-Peer\) GPU Bandwidth Latency Test|^P2P Connectivity Matrix|^(?:Unidirectional|Bidirectional) P2P=(?:Enabled|Disabled) Bandwidth|^P2P=(?:Enabled|Disabled) Latency`)
	reDevice     = pattern("device", `^Device:? (\d+)[:,] (.+?)(?:, pciBusID|\s+\(|$)`)
	reCanAccess  = pattern("canAccess", `Device=(\d+) (CAN|CANNOT) Access Peer Device=(\d+)`)
	rePeerAccess = pattern("peerAccess", `Peer access from (.+?) \(GPU(\d+)\) -> (.+?) \(GPU(\d+)\) : (Yes|No)`)
	reDevCount   = pattern("devCount", `CUDA-capable device count: (\d+)`)
	// A peer check and its answer on one line, as people print them:
	// "torch.cuda.can_device_access_peer(0, 1) -> False",
	// "cudaDeviceCanAccessPeer(0,1) == 0", "hipDeviceCanAccessPeer(1, 0) = 1"
	// (ROCm/rocm-systems#10586). peerCheckWords are in every match.
	rePeerCheck    = pattern("peerCheck", `\b(?:can_device_access_peer|(?:cuda|hip|cu)DeviceCanAccessPeer)\(\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)\)?\s*(?:=|==|->|:|is|returns?|returned)?\s*(?:ok:\s*)?`+"[`'\"]?"+`(True|False|true|false|0|1)\b`)
	rePeerAsk      = pattern("peerAsk", `^(?:>>>\s*)?(?:print\()?(?:torch\.cuda\.)?can_device_access_peer\(\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)\)?$`)
	rePeerAnswer   = pattern("peerAnswer", `^(True|False)$`)
	peerCheckWords = []string{"can_device_access_peer", "DeviceCanAccessPeer"}
	// The GPUs a program counts: llama.cpp's ggml ("ggml_cuda_init: found 2
	// CUDA devices:", ggml-cuda.cu), the deviceQuery sample ("Detected 2
	// CUDA Capable device(s)", deviceQuery.cpp). gpusFoundWords are in every
	// line it matches (the prefilter wakes scan with them).
	reGPUsFound    = pattern("gpusFound", `ggml_cuda_init: found (\d{1,3}) (?:CUDA|ROCm|MUSA) devices:|^Detected (\d{1,3}) CUDA Capable device\(s\)`)
	gpusFoundWords = []string{"ggml_cuda_init: found", "CUDA Capable device"}
	// The GPUs a program lists, one a line: nvidia-smi -L ("GPU 1: NVIDIA
	// A100-SXM4-80GB (UUID: ..."), nvidia-smi's table, and "Device 1: NAME"
	// as nvbandwidth, deviceQuery and llama.cpp print it. devListWords are
	// in every line it matches.
	devListWords = append([]string{" (UUID: ", "  NVIDIA ", "  Tesla ", "  Quadro ", "  GeForce "}, deviceWords()...)
	reDevList    = pattern("devList", `^GPU (\d{1,3}): \S.{0,120}? \(UUID: |^\|\s{1,8}(\d{1,3})\s{2,8}(?:NVIDIA|Tesla|Quadro|GeForce)\b.{0,80}\|\s{0,4}[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d|^Device (\d{1,2}): "?(?:NVIDIA|Tesla|Quadro|GeForce|AMD|Radeon)\b`)

	reNCCLVersion = pattern("ncclVersion", `NCCL version:? (\d+\.\d+\.\d+)`)
	reNCCLDriver  = pattern("ncclDriver", `NCCL INFO cudaDriverVersion (\d+)`)
	reNVLSOn      = pattern("nvlsOn", `(?:NCCL INFO )?NVLS (?:multicast support is available on dev \d|Bind mem 0x)`)
	reNCCLEnv     = pattern("ncclEnv", `\b(NCCL_[A-Z0-9_]+) set by environment to (.*)$`)
	reChannel     = pattern("channel", `Channel \d+(?:/\d+)? : \d+\[[0-9a-fx]+\] -> \d+\[[0-9a-fx]+\](?: \[(?:send|receive)\])? via (P2P|SHM|NET)/`)
	reNCCLHost    = pattern("ncclHost", `([\w.-]+):\d+:\d+ \[\d+\] NCCL `)
	reNodes       = pattern("nodes", `NCCL INFO comm 0x[0-9a-f]+ rank \d+ nRanks \d+ nNodes (\d+)`)
	reRefused     = pattern("refused", `P2P is disabled between (?:NVLINK )?connected GPUs|Could not enable P2P between`)

	reACS      = pattern("acs", `ACSCtl:\s`)
	reRedirect = pattern("redirect", `ReqRedir\+|CmpltRedir\+`)
	reAMDFault = pattern("amdFault", `AMD-Vi: Event logged \[IO_PAGE_FAULT`)
	reDMAR     = pattern("dmar", `DMAR: ?\[DMA (?:Read|Write)`)
	reIOMMUOn  = pattern("iommuOn", `DMAR: IOMMU enabled|AMD-Vi: Found IOMMU|Adding to iommu group|iommu: Default domain type: (Translated|Passthrough)`)
	reXid      = pattern("xid", `NVRM: Xid \([^)]*\): (\d+)`)
	reSXid     = pattern("sxid", `nvidia-nvswitch\d*:? SXid \(`)
	reNVRM     = pattern("nvrm", `NVRM: loading NVIDIA UNIX .*?Kernel Module(?: for \S+)?\s+(\d+\.\d+(?:\.\d+)?)`)
	reCmdline  = pattern("cmdline", `(?:^|Kernel command line: |Command line: )(BOOT_IMAGE=.*|.*\b(?:intel_iommu|amd_iommu|iommu)(?:\.passthrough)?=.*)`)
	reIOMMUArg = pattern("iommuArg", `(?:^|\s)(intel_iommu|amd_iommu|iommu|iommu\.passthrough)=(\S+)`)

	reDriver    = pattern("driver", `(CUDA )?Driver Version"?\s*:\s*"?(\d{1,6}(?:\.\d{1,6}){0,4})`)
	reSMICUDA   = pattern("smiCUDA", `CUDA Version\s*:\s*(\d+\.\d+)`)
	reEnvDriver = pattern("envDriver", `Nvidia driver version\s*: (\d+\.\d+(?:\.\d+)?)`)
	reNvcc      = pattern("nvcc", `Cuda compilation tools, release (\d+\.\d+), V`)
	reRuntime   = pattern("runtime", `(?i)CUDA runtime version"?\s{0,8}:?\s{0,8}"?(\d{1,6}(?:\.\d{1,6}){0,4})`)
	reTorch     = pattern("torch", `PyTorch version\s*: (\d(?:[\w.+\-]*\w)?)|\btorch==(\d(?:[\w.+\-]*\w)?)|^torch (\d{1,3}\.\d{1,3}\S*) cuda `)
	reTF        = pattern("tf", `(?i)TensorFlow version:? (\d(?:[\w.+\-]*\w)?)|\btensorflow(?:-gpu)?==(\d(?:[\w.+\-]*\w)?)`)
	reJAX       = pattern("jax", `^jax:\s+(\d(?:[\w.+\-]*\w)?)|\bjax==(\d(?:[\w.+\-]*\w)?)`)
	reJAXLib    = pattern("jaxlib", `^jaxlib:\s+(\d(?:[\w.+\-]*\w)?)|\bjaxlib==(\d(?:[\w.+\-]*\w)?)`)
	reVLLM      = pattern("vllm", `vLLM Version\s*: v?(\d(?:[\w.+\-]*\w)?)|\bvllm==(\d(?:[\w.+\-]*\w)?)|vLLM API server version v?(\d(?:[\w.+\-]*\w)?)|LLM engine \(v(\d[^)\s]*)\)`)
	rePipNCCL   = pattern("pipNCCL", `\bnvidia-nccl-cu\d+==(\d(?:[\w.+\-]*\w)?)`)
	reConsumer  = pattern("consumer", `\bGeForce\b|\bTITAN (?:RTX|V|Xp?)\b|\b[RG]TX ?(?:[2345]0[5-9]0|1[06][5-8]0|9[5-8]0)\b|\b\d{1,2} ?[x*] ?[345]0[6-9]0\b|\b[345]0[6-9]0 ?(?:[Ss]uper|SUPER)\b|\b[345]090 ?[x*] ?\d{1,2}\b|\b[345]090'?s\b|\b(?:NVIDIA|[Nn]vidia) [345]090\b|\b[345]090 (?:[Gg][Pp][Uu]s?|[Cc]ards?|system|box|rig|machine|server|setup)\b|\b[345]090\s?(?:单卡|双卡|显卡|两张|多卡)|\d\s?[张块]?卡\s?[345]090\b|[张块]\s?[345]090\b|\b(?:[Tt]wo|[Ff]our|[Ee]ight|[Mm]ultiple|[Ss]everal|[Dd]ual|[Ss]ingle|\d) [345]090\b|\b(?:10[5-8]|20[5-8]|30[5-9]|40[5-9]|50[5-9])0 ?[Tt][Ii]s?\b`)
	// AMD GPUs, by name or as ROCm names them: a Radeon, an Instinct MI
	// card, a gfx target, llama.cpp's ROCm devices.
	reAMDGPU     = pattern("amdGPU", `\bRadeon\b|\bRADEON\b|\bInstinct MI\d{2,3}|\bMI(?:50|60|100|210|250|300|325)X?\b|\bgfx(?:90[68a]|94[0-2]|10[13]\d|110[0-3]|115\d|120[01])\b|\bfound \d+ ROCm devices\b|\bROCm\d\b`)
	reDataCentre = pattern("dataCentre", `\bTesla [A-Z]?\d+|\bNVIDIA (?:[ABHLV]\d+[A-Za-z]?\b|G[HB]200\b|RTX (?:A\d+|PRO|\d+ Ada)\b|Quadro\b)`)
	// WSL's kernel and libraries, the Windows user folders WSL mounts
	// under /mnt/c, which a traceback of a script kept there shows, and a
	// Linux shell's prompt on a host with the name Windows gives a new PC
	// (user@DESKTOP-CKDOHD3:~$, 15 characters as NetBIOS allows), which
	// WSL's Linux takes as its own.
	reWSL       = pattern("wsl", `microsoft-standard-WSL2|/usr/lib/wsl/lib|\bWSL2\b|(?:^|[\s"'])/mnt/[c-z]/Users/|^(?:\([\w.-]{1,40}\) )?[\w.-]{1,32}@(?:DESKTOP-[A-Z0-9]{7}|LAPTOP-[A-Z0-9]{8}):[~/]`)
	reContainer = pattern("container", `/\.dockerenv|\bdocker run\b|nvidia-container-cli|\bpodman run\b|\b[Aa]pptainer\b|\b[Ss]ingularity>|\benroot\b|\bpyxis\b`)
	reSlurm     = pattern("slurm", `\bSLURM_(?:JOB_ID|PROCID|LOCALID|STEP_ID|NODELIST)\b|^srun: |^slurmstepd: |\bsalloc: `)
	// A model split over the GPUs by Accelerate's device map (Transformers'
	// from_pretrained(device_map="auto")): its layers' activations and
	// indices are copied from GPU to GPU, so a bad peer copy shows in the
	// program's own tensors (huggingface/transformers#24056).
	reModelSplit = pattern("modelSplit", `\bdevice_map\s{0,4}[=:]\s{0,4}["']?(?:auto|balanced(?:_low_0)?|sequential)\b`)
)

// scan tries the patterns that need no state beyond one line.
func (x *Extractor) scan(s string, n int, raw string) {
	// Each pattern runs only on lines holding a word it needs: most lines of
	// a log hold none, and unanchored patterns are what costs.
	x.gpuLine(s, n, raw)
	if strings.Contains(s, "-p2p") {
		if m := reP2PMode.FindStringSubmatch(s); m != nil {
			x.p2pMode = m[1]
		}
	}
	if containsAny(s, "Peer-to-Peer", "P2P Connectivity", "P2P=") && reBWStart.MatchString(s) {
		x.bw = &bwTest{cur: -1}
		x.bw.line(x, s, n, raw)
		return
	}
	// NVLink SHARP in use: found on the GPU at init, or memory bound to
	// the multicast group, the call that waits for every local rank. Only
	// NCCL prints these words, and a page that quotes its log often drops
	// the "NCCL INFO" before them (blog.gitcode.com's rewrites of NCCL
	// threads).
	if strings.Contains(s, "NVLS ") && reNVLSOn.MatchString(s) {
		x.set("nccl.nvls", "bool", "true", 1, n, raw, "NCCL")
	}
	if strings.Contains(s, "NCCL") {
		x.ncclLine(s, n, raw)
	}
	if strings.Contains(s, "Device") {
		if m := reCanAccess.FindStringSubmatch(s); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[3])
			x.pairs.add(a, b, m[2] == "CAN", n, raw, "p2pBandwidthLatencyTest")
		}
	}
	if strings.Contains(s, "Peer access from") {
		if m := rePeerAccess.FindStringSubmatch(s); m != nil {
			a, _ := strconv.Atoi(m[2])
			b, _ := strconv.Atoi(m[4])
			x.pairs.add(a, b, m[5] == "Yes", n, raw, "simpleP2P")
			x.simple.seen = true
		}
	}
	if x.peerAsk.set {
		x.peerAsk.set = false
		if m := rePeerAnswer.FindStringSubmatch(s); m != nil {
			x.pairs.add(x.peerAsk.a, x.peerAsk.b, m[1] == "True", n, raw, "PyTorch's peer check")
		}
	}
	// A condition in code ("if ... is False:") asks, it does not answer.
	if containsAny(s, peerCheckWords...) && !containsAny(s, "if ", "assert ", "while ") {
		if x.peerRead == nil {
			x.peerRead = map[string]bool{}
		}
		if len(x.peerRead) < maxPeerLines {
			x.peerRead[raw] = true
		}
		if m := rePeerCheck.FindStringSubmatch(s); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			x.pairs.add(a, b, m[3] == "True" || m[3] == "true" || m[3] == "1", n, raw, "a peer check")
		} else if m := rePeerAsk.FindStringSubmatch(s); m != nil {
			x.peerAsk.a, _ = strconv.Atoi(m[1])
			x.peerAsk.b, _ = strconv.Atoi(m[2])
			x.peerAsk.set = true
		}
	}
	if m := find(s, reDevCount, "CUDA-capable"); m != nil {
		x.set("gpu.count", "num", trimNum(m[1]), 2, n, raw, "simpleP2P")
		x.simple.seen = true
	}
	if m := find(s, reGPUsFound, gpusFoundWords...); m != nil {
		src := "llama.cpp"
		if m[1] == "" {
			src = "deviceQuery"
		}
		x.set("gpu.count", "num", trimNum(first(m)), 2, n, raw, src)
	}
	if containsAny(s, devListWords...) {
		if m := reDevList.FindStringSubmatch(s); m != nil {
			if i, _ := strconv.Atoi(first(m)); i >= x.listed.most {
				x.listed.most = i
				x.listed.ev = event{line: n, text: raw, set: true}
			}
		}
	}
	if strings.HasPrefix(s, "Verification error @ element") {
		x.simple.verifyKO.mark(n, raw)
		x.simple.ran.mark(n, raw)
	}
	if x.simple.seen {
		switch {
		case strings.HasPrefix(s, "Test passed"):
			x.simple.passed.mark(n, raw)
		case strings.HasPrefix(s, "Test failed"):
			x.simple.verifyKO.mark(n, raw)
		case strings.HasPrefix(s, "cudaMemcpyPeer / cudaMemcpy between"), strings.HasPrefix(s, "Run kernel on GPU"):
			x.simple.ran.mark(n, raw)
		}
	}
	x.kernelLine(s, n, raw)
	x.versionLine(s, n, raw)
	x.versionProse(s, n, raw)
	x.storyLine(s, n, raw)
	x.gpuArchLine(s, n, raw)
	x.cudaBuildLine(s, n, raw)
	x.symptomScan(s, n, raw)
	x.proseLine(s, n, raw)
	x.customARLine(s, n, raw)
	x.linkScan(s)
}

// maxPeerLines bounds the peer checks kept to tell a repeated one.
const maxPeerLines = 64

// deviceWords are "Device 0: " to "Device 99: ": a word as wide as a
// GPU's name ("ok: NVIDIA H100") would wake the reader on every rank's
// copy of a line that names one.
func deviceWords() []string {
	out := make([]string, 100)
	for i := range out {
		out[i] = "Device " + strconv.Itoa(i) + ": "
	}
	return out
}

// find runs re only when s holds one of words, one of which every match of
// re contains.
func find(s string, re *lazyRegexp, words ...string) []string {
	if !containsAny(s, words...) {
		return nil
	}
	return re.FindStringSubmatch(s)
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

var (
	reMIGCurrent = pattern("migCurrent", `^Current\s*:\s*(Enabled|Disabled)`)
	reMIGDevice  = pattern("migDevice", `^MIG \d+g\.\d+gb\s+Device\s+\d+:`)
	reVirtMode   = pattern("virtMode", `^Virtualization Mode\s*:\s*(Pass-Through|VGPU|None)\b`)
	// A MIG instance chosen by its UUID, or its UUID in a program's message
	// ("invalid literal for int() with base 10: 'MIG-74d68ce8-...'"): only
	// MIG instances have one (MIG-<uuid>, or MIG-GPU-<uuid>/gi/ci before
	// driver 470).
	reMIGVisible = pattern("migVisible", `\bCUDA_VISIBLE_DEVICES=["']?MIG-|\bMIG-(?:GPU-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// nvidia-smi's table of MIG devices: its header, and a row (GPU, GPU
	// instance, compute instance and MIG device; memory; SMs; copy and
	// media engines), which a paste may hold without the header.
	reMIGTable = pattern("migTable", `^\|\s*MIG devices:\s*\|$|^\|\s*\d+\s+\d+\s+\d+\s+\d+\s+\|\s*\d+MiB\s*/\s*\d+MiB\s*\|\s*\d+\s+\d+\s*\|\s*\d+\s+\d+\s+\d+\s+\d+\s+\d+\s*\|$`)
)

// amdGPUWords are the words one of which every match of reAMDGPU holds.
var amdGPUWords = []string{"Radeon", "RADEON", "Instinct", "MI5", "MI6", "MI1", "MI2", "MI3", "gfx", "ROCm"}

// consumerWords are the words one of which every match of reConsumer holds.
var consumerWords = []string{"GeForce", "TITAN", "RTX", "GTX", "090", "0Ti", "0 Ti", "0ti", "0 ti", "0TI", "080", "070", "060"}

// gpuLine reads what nvidia-smi -q and -L say of MIG and virtualization.
func (x *Extractor) gpuLine(s string, n int, raw string) {
	if x.mig.next {
		x.mig.next = false
		if m := reMIGCurrent.FindStringSubmatch(s); m != nil {
			x.mig.seen.mark(n, raw)
			if m[1] == "Enabled" {
				x.mig.on.mark(n, raw)
			}
		}
	}
	if s == "MIG Mode" {
		x.mig.next = true
	}
	if strings.HasPrefix(s, "MIG ") && reMIGDevice.MatchString(s) {
		x.mig.on.mark(n, raw)
	}
	if strings.HasPrefix(s, "|") && containsAny(s, "MIG devices", "MiB /") && reMIGTable.MatchString(s) {
		x.mig.on.mark(n, raw)
	}
	// A MIG instance chosen by its UUID (pytorch/pytorch#95784), or named
	// by it (princeton-ddss/blackfish#108).
	if strings.Contains(s, "MIG-") && reMIGVisible.MatchString(s) {
		x.mig.on.mark(n, raw)
	}
	if strings.HasPrefix(s, "Virtualization Mode") {
		if m := reVirtMode.FindStringSubmatch(s); m != nil {
			x.set("virtualized", "bool", strconv.FormatBool(m[1] != "None"), 1, n, raw, "nvidia-smi")
		}
	}
}

func trimNum(s string) string {
	n, err := strconv.Atoi(s)
	if err != nil {
		return s
	}
	return strconv.Itoa(n)
}

func (x *Extractor) ncclLine(s string, n int, raw string) {
	if m := find(s, reNCCLVersion, "NCCL version"); m != nil {
		// NCCL's own line above a framework's message that quotes it, and
		// both above a version said in words (versions.go), where a line
		// that names several is none.
		if source(s, "NCCL", "") != "" {
			x.set("nccl.version", "version", m[1], 2, n, raw, "NCCL")
		} else if single(s[strings.Index(s, m[0])+len(m[0]):], m[1]) {
			x.set("nccl.version", "version", m[1], 1, n, raw, "traceback")
		}
	}
	if !strings.Contains(s, "NCCL INFO") && !strings.Contains(s, "NCCL WARN") {
		return
	}
	if m := find(s, reNCCLDriver, "cudaDriverVersion"); m != nil {
		x.set("cuda.driver", "version", cudaInt(m[1]), 2, n, raw, "NCCL")
	}
	if m := find(s, reNCCLEnv, "set by environment"); m != nil {
		v := strings.TrimSuffix(strings.TrimSpace(m[2]), ".")
		if _, ok := x.facts["env."+m[1]]; ok || x.envCount < maxEnv {
			if !ok {
				x.envCount++
			}
			x.set("env."+m[1], "str", v, 1, n, raw, "NCCL")
		}
	}
	if m := find(s, reChannel, " via "); m != nil {
		i := map[string]int{"P2P": 0, "SHM": 1, "NET": 2}[m[1]]
		x.nccl.seen[i].mark(n, raw)
		x.nccl.firstChannel.mark(n, raw)
		// The hosts that print channels tell whether NET joins GPUs of one host.
		if h := reNCCLHost.FindStringSubmatch(raw); h != nil && len(x.nccl.hosts) < 2 && (len(x.nccl.hosts) == 0 || x.nccl.hosts[0] != h[1]) {
			x.nccl.hosts = append(x.nccl.hosts, h[1])
		}
	}
	if m := find(s, reNodes, "nNodes"); m != nil && !x.nccl.nodesSeen {
		x.nccl.nodes, _ = strconv.Atoi(m[1])
		x.nccl.nodesSeen = true
	}
	if (strings.Contains(s, "P2P is disabled") || strings.Contains(s, "Could not enable P2P")) && reRefused.MatchString(s) {
		x.nccl.refused.mark(n, raw)
	}
}

func source(s, withINFO, other string) string {
	if strings.Contains(s, "NCCL INFO") || strings.Contains(s, "NCCL WARN") {
		return withINFO
	}
	return other
}

// cudaInt turns CUDA's integer versions (13000, 12040) into 13.0, 12.4.
func cudaInt(s string) string {
	v, err := strconv.Atoi(s)
	if err != nil || v < 1000 {
		return s
	}
	return strconv.Itoa(v/1000) + "." + strconv.Itoa(v%1000/10)
}

func (x *Extractor) kernelLine(s string, n int, raw string) {
	if strings.Contains(s, "ACSCtl:") && reACS.MatchString(s) {
		x.acs.any.mark(n, raw)
		if reRedirect.MatchString(s) {
			x.acs.redirect.mark(n, raw)
		}
	}
	if strings.Contains(s, "AMD-Vi") || strings.Contains(s, "DMAR") {
		if reAMDFault.MatchString(s) || reDMAR.MatchString(s) {
			x.iommuFaults.add(n, raw)
		}
	}
	if m := find(s, reIOMMUOn, "IOMMU", "iommu"); m != nil {
		x.set("iommu.enabled", "bool", "true", 1, n, raw, "dmesg")
		if m[1] != "" {
			x.set("iommu.passthrough", "bool", strconv.FormatBool(m[1] == "Passthrough"), 2, n, raw, "dmesg")
		}
	}
	if strings.Contains(s, "NVRM") {
		if m := reXid.FindStringSubmatch(s); m != nil {
			x.xids.add(n, raw)
			if id, _ := strconv.Atoi(m[1]); id == 74 || id >= 144 && id <= 150 {
				x.xidNVLink.mark(n, raw)
			}
		}
		if m := reNVRM.FindStringSubmatch(s); m != nil {
			x.set("driver.version", "version", m[1], 1, n, raw, "dmesg")
		}
	}
	// Only the NVSwitch driver prints an SXid: the host has NVSwitches.
	if strings.Contains(s, "SXid") && reSXid.MatchString(s) {
		x.set("nvswitch.present", "bool", "true", 1, n, raw, "dmesg")
	}
	if strings.Contains(s, "iommu") || strings.HasPrefix(s, "BOOT_IMAGE=") {
		if m := reCmdline.FindStringSubmatch(s); m != nil {
			for _, a := range reIOMMUArg.FindAllStringSubmatch(m[1], -1) {
				x.iommuArg(a[1], strings.ToLower(strings.Trim(a[2], `"',`)), n, raw)
			}
		}
	}
	if containsAny(s, "WSL", "/wsl/", "/mnt/", "@DESKTOP-", "@LAPTOP-") && reWSL.MatchString(s) {
		x.set("wsl", "bool", "true", 1, n, raw, "host")
	}
	if containsAny(s, "docker", "container-cli", "podman", "pptainer", "ingularity", "enroot", "pyxis") && reContainer.MatchString(s) {
		x.set("container", "bool", "true", 1, n, raw, "host")
	}
	if containsAny(s, "SLURM_", "srun: ", "slurmstepd: ", "salloc: ") && reSlurm.MatchString(s) {
		x.set("slurm", "bool", "true", 1, n, raw, "host")
	}
	if strings.Contains(s, "device_map") && reModelSplit.MatchString(s) {
		x.set("model.split", "bool", "true", 1, n, raw, "program")
	}
}

// iommuArg reads one IOMMU option of the kernel command line.
func (x *Extractor) iommuArg(name, val string, n int, raw string) {
	const src = "kernel command line"
	switch {
	case name == "intel_iommu" && val == "on", name == "amd_iommu" && (val == "on" || val == "force_enable"):
		x.set("iommu.enabled", "bool", "true", 3, n, raw, src)
	case (name == "intel_iommu" || name == "amd_iommu" || name == "iommu") && val == "off":
		x.set("iommu.enabled", "bool", "false", 3, n, raw, src)
	case name == "iommu" && val == "pt", name == "iommu.passthrough" && (val == "1" || val == "y" || val == "on"):
		x.set("iommu.passthrough", "bool", "true", 3, n, raw, src)
	case name == "iommu" && val == "nopt", name == "iommu.passthrough" && (val == "0" || val == "n" || val == "off"):
		x.set("iommu.passthrough", "bool", "false", 3, n, raw, src)
	}
}

func first(m []string) string {
	for _, g := range m[1:] {
		if g != "" {
			return g
		}
	}
	return ""
}

func (x *Extractor) versionLine(s string, n int, raw string) {
	if strings.Contains(s, "Version") || strings.Contains(s, "version") {
		if m := find(s, reDriver, "Driver Version"); m != nil {
			if m[1] != "" {
				x.set("cuda.driver", "version", cudaInt(m[2]), 1, n, raw, "nvbandwidth")
			} else {
				x.set("driver.version", "version", m[2], 2, n, raw, "nvidia-smi")
			}
		}
		if m := find(s, reSMICUDA, "CUDA Version"); m != nil {
			x.set("cuda.driver", "version", m[1], 1, n, raw, "nvidia-smi")
			x.set("cuda.version", "version", m[1], 1, n, raw, "nvidia-smi")
		}
		if m := find(s, reEnvDriver, "driver version"); m != nil {
			x.set("driver.version", "version", m[1], 2, n, raw, "PyTorch collect_env")
		}
		if m := find(s, reRuntime, "untime"); m != nil {
			x.set("cuda.version", "version", cudaInt(m[1]), 2, n, raw, "CUDA runtime")
		}
	}
	if m := find(s, reNvcc, "Cuda compilation tools"); m != nil {
		x.set("cuda.version", "version", m[1], 3, n, raw, "nvcc")
	}
	if m := find(s, reTorch, "PyTorch version", "torch==", "torch "); m != nil {
		x.set("python.torch", "version", first(m), 1, n, raw, "PyTorch")
	}
	if m := find(s, reTF, "ensor"); m != nil {
		x.set("python.tensorflow", "version", first(m), 1, n, raw, "TensorFlow")
	}
	if m := find(s, reJAX, "jax"); m != nil {
		x.set("python.jax", "version", first(m), 1, n, raw, "JAX")
	}
	if m := find(s, reJAXLib, "jaxlib"); m != nil {
		x.set("python.jaxlib", "version", first(m), 1, n, raw, "JAX")
	}
	if m := find(s, reVLLM, "LLM", "vllm"); m != nil {
		x.set("python.vllm", "version", first(m), 1, n, raw, "vLLM")
	}
	if m := find(s, rePipNCCL, "nvidia-nccl-cu"); m != nil {
		x.set("python.nccl", "version", m[1], 1, n, raw, "pip")
	}
	if !x.amdGPU.set && containsAny(s, amdGPUWords...) && reAMDGPU.MatchString(s) {
		x.amdGPU.mark(n, raw)
	}
	// GeForce names, also as people write them: RTX 3090, 2x 4090, 3090s,
	// 4090 GPUs, multiple 4090.
	// Each keeps its first line: once both are known, a name says nothing new.
	if x.consumer.set && x.dataCentre.set {
		return
	}
	if containsAny(s, consumerWords...) && reConsumer.MatchString(s) {
		x.consumer.mark(n, raw)
	} else if !x.dataCentre.set && containsAny(s, "Tesla ", "NVIDIA ") && reDataCentre.MatchString(s) {
		x.dataCentre.mark(n, raw)
	}
}

// Facts returns the facts found, by line, as if the input ended here.
//
// It may be called before the input ends (explain --follow judges each
// message as it appears): the readers then go on from where they were.
func (x *Extractor) Facts() []Fact {
	return x.snapshot().finish()
}

// snapshot is a copy of x that ending the input cannot change x through.
func (x *Extractor) snapshot() *Extractor {
	y := *x
	y.facts, y.prio = make(map[string]Fact, len(x.facts)), make(map[string]int, len(x.prio))
	for k, v := range x.facts {
		y.facts[k] = v
	}
	for k, v := range x.prio {
		y.prio[k] = v
	}
	if x.mat != nil {
		m := *x.mat
		y.mat = &m
	}
	if x.bw != nil {
		b := *x.bw
		y.bw = &b
	}
	return &y
}

// finish ends the input and returns the facts found, by line.
func (x *Extractor) finish() []Fact {
	if x.mat != nil {
		x.endMatrix()
	}
	if x.link.nvb || x.link.nvbHost {
		x.nvbEnd()
	}
	if x.bw != nil {
		x.bw.end(x)
		x.bw = nil
	}
	x.pairs.facts(x)
	// A list that reaches GPU 1 counts its GPUs; one that names only GPU 0
	// may be one process's own device among others.
	if x.listed.most >= 1 {
		x.setEvent("gpu.count", "num", strconv.Itoa(x.listed.most+1), 1, x.listed.ev, "the GPUs the input lists")
	}
	x.ncclFacts()
	x.symptomFacts()
	x.proseFacts()
	x.customARFacts()
	x.linkFacts()
	x.gpuArchFacts()
	x.storyFacts()
	x.impliedFacts()
	if x.simple.ran.set {
		x.setEvent("p2p.test.ran", "bool", "true", 1, x.simple.ran, "simpleP2P")
	}
	if x.simple.verifyKO.set {
		x.setEvent("p2p.test.data_ok", "bool", "false", 2, x.simple.verifyKO, "simpleP2P")
	} else {
		x.setEvent("p2p.test.data_ok", "bool", "true", 1, x.simple.passed, "simpleP2P")
	}
	// Zeros printed after a copy between GPUs, or results said to be wrong,
	// are a data check that failed, when no test of P2P says otherwise.
	x.setEvent("p2p.test.data_ok", "bool", "false", 0, x.sym.tensors.zeros, "PyTorch")
	// Ranks of a distributed run print their own tensors before and after a
	// collective, which differ by design.
	if !x.prose.dist {
		x.setEvent("p2p.test.data_ok", "bool", "false", 0, x.sym.tensors.differs, "PyTorch")
	}
	x.setEvent("p2p.test.data_ok", "bool", "false", 0, x.prose.wrong, Said)
	// A loss said to become NaN may be data garbled between GPUs too: the
	// corruption entries answer after the NaN's own (loss.nan).
	x.setEvent("p2p.test.data_ok", "bool", "false", 0, x.prose.lossNaN, Said)
	if x.iommuFaults.n > 0 {
		x.setEvent("iommu.faults", "num", strconv.Itoa(x.iommuFaults.n), 1, x.iommuFaults.first, "dmesg")
		x.setEvent("iommu.enabled", "bool", "true", 2, x.iommuFaults.first, "dmesg")
	}
	if x.xids.n > 0 {
		x.setEvent("xid.count", "num", strconv.Itoa(x.xids.n), 1, x.xids.first, "dmesg")
		if x.xidNVLink.set {
			x.setEvent("xid.nvlink", "bool", "true", 1, x.xidNVLink, "dmesg")
		} else {
			x.setEvent("xid.nvlink", "bool", "false", 1, x.xids.first, "dmesg")
		}
	}
	if x.mig.on.set {
		x.setEvent("mig.enabled", "bool", "true", 1, x.mig.on, "nvidia-smi")
	} else {
		x.setEvent("mig.enabled", "bool", "false", 1, x.mig.seen, "nvidia-smi")
	}
	if x.acs.redirect.set {
		x.setEvent("acs.redirect", "bool", "true", 1, x.acs.redirect, "lspci")
	} else {
		x.setEvent("acs.redirect", "bool", "false", 1, x.acs.any, "lspci")
	}
	if x.amdGPU.set {
		x.setEvent("gpu.amd", "bool", "true", 1, x.amdGPU, "GPU name")
	}
	if x.consumer.set {
		x.setEvent("gpu.consumer", "bool", "true", 1, x.consumer, "GPU name")
	} else {
		x.setEvent("gpu.consumer", "bool", "false", 1, x.dataCentre, "GPU name")
	}
	x.pathFacts()
	out := make([]Fact, 0, len(x.facts))
	for _, f := range x.facts {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ncclFacts: P2P and SHM always join GPUs of one host; NET does when the
// communicator has one node, or when every line came from one host (with
// P2P and SHM both off, NCCL counts each GPU of a host as a node of its own).
func (x *Extractor) ncclFacts() {
	c := &x.nccl
	p2p, shm, net := c.seen[0], c.seen[1], c.seen[2]
	if !(c.nodesSeen && c.nodes == 1 || len(c.hosts) == 1) {
		net = event{}
	}
	if !p2p.set && !shm.set && !net.set {
		if c.refused.set {
			x.setEvent("nccl.p2p_refused", "bool", "true", 1, c.refused, "NCCL")
		}
		return
	}
	if p2p.set {
		x.setEvent("nccl.p2p_used", "bool", "true", 1, p2p, "NCCL")
	} else if shm.set {
		x.setEvent("nccl.p2p_used", "bool", "false", 1, shm, "NCCL")
	} else {
		x.setEvent("nccl.p2p_used", "bool", "false", 1, net, "NCCL")
	}
	switch {
	case net.set:
		x.setEvent("nccl.transport", "str", "NET", 1, net, "NCCL")
	case shm.set:
		x.setEvent("nccl.transport", "str", "SHM", 1, shm, "NCCL")
	default:
		x.setEvent("nccl.transport", "str", "P2P", 1, p2p, "NCCL")
	}
	if c.refused.set {
		x.setEvent("nccl.p2p_refused", "bool", "true", 1, c.refused, "NCCL")
	} else {
		x.setEvent("nccl.p2p_refused", "bool", "false", 1, c.firstChannel, "NCCL")
	}
}

// pairSet is P2P per ordered pair, as topo -p2p, the samples and
// p2pBandwidthLatencyTest report it.
type pairSet struct {
	seen, blocked       [maxGPUs][maxGPUs]bool
	any                 bool
	firstOK, firstBlock event
	okSource, noSource  string
}

func (p *pairSet) add(a, b int, ok bool, n int, raw, src string) {
	if a < 0 || b < 0 || a >= maxGPUs || b >= maxGPUs || a == b {
		return
	}
	p.any = true
	p.seen[a][b] = true
	if ok {
		if !p.firstOK.set {
			p.okSource = src
		}
		p.firstOK.mark(n, raw)
		return
	}
	p.blocked[a][b] = true
	if !p.firstBlock.set {
		p.noSource = src
	}
	p.firstBlock.mark(n, raw)
}

func (p *pairSet) facts(x *Extractor) {
	if !p.any {
		return
	}
	blocked := 0
	for a := range p.blocked {
		for b := range p.blocked[a] {
			if p.blocked[a][b] {
				blocked++
			}
		}
	}
	if blocked > 0 {
		x.setEvent("p2p.all_pairs_ok", "bool", "false", 1, p.firstBlock, p.noSource)
		x.setEvent("p2p.blocked_pairs", "num", strconv.Itoa(blocked), 1, p.firstBlock, p.noSource)
		return
	}
	x.setEvent("p2p.all_pairs_ok", "bool", "true", 1, p.firstOK, p.okSource)
	x.setEvent("p2p.blocked_pairs", "num", "0", 1, p.firstOK, p.okSource)
}

// codeLangs are the languages of a Markdown code fence whose lines are a
// program's source (codeComment).
var codeLangs = []string{"python", "py", "cpp", "c++", "c", "cuda", "cu", "rust", "go", "java", "javascript", "js", "ts", "typescript", "julia", "cmake"}

// codeComment follows Markdown's code fences and says whether raw is a
// whole-line comment within one whose language is a programming language:
// the program's own words ("# Bypass the function if we are using only 1
// GPU.", sgl-project/sglang#7602), not what the run did. The code, and a
// comment after it ("c = Client(...) # hangs and eventually fails with
// timeout", rapidsai/dask-cuda#772), are read.
func codeComment[T ~string | ~[]byte](x *Extractor, raw T) bool {
	i := 0
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t') {
		i++
	}
	if i+3 <= len(raw) && raw[i] == '`' && raw[i+1] == '`' && raw[i+2] == '`' {
		if x.inFence {
			x.inFence, x.inCode = false, false
		} else {
			x.inFence = true
			x.inCode = slices.Contains(codeLangs, strings.ToLower(strings.TrimSpace(string(raw[i+3:]))))
		}
		return false
	}
	return x.inCode && i < len(raw) && (raw[i] == '#' || i+1 < len(raw) && raw[i] == '/' && raw[i+1] == '/')
}
