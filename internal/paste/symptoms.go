package paste

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// Symptoms without an error line: what a test tool, nvidia-smi or a log
// shows when P2P is wrong although nothing says "error". Each reader keeps
// the first line that shows it; each fact is named in internal/rules.

// symptoms is the state of these readers.
type symptoms struct {
	ncclTests struct {
		wrongCols []int // columns of #wrong in a row, from the header
		header    event
		rows      int
		wrong     int   // #wrong over the rows
		firstBad  event // the first row with wrong values
		oob       event // "Out of bounds values : N FAILED|OK"
		oobN      string
		busbw     event
		busbwV    string
	}
	waived event // a P2P test that waived itself
	// An array or tensor check that failed: NumPy's assert_array_equal and
	// PyTorch's assert_close print "Mismatched elements: 24 / 24 (100%)".
	mismatch event
	// The same check's greatest difference, when small (closeLimit): the
	// values differ in rounding, as with another reduction order or
	// precision, not by lost or garbled data.
	close event

	rebar struct {
		mib   int   // the smallest BAR 1 lspci's Resizable BAR capability shows, MiB
		ev    event // its line
		small event // the first BAR 1 below the largest size it supports, or at 256 MiB or less
	}

	smi struct {
		next    string // the section header the line before was (nvidia-smi -q)
		fb      int    // FB memory of the GPU being read, MiB
		bar1    int    // the smallest BAR1, MiB
		bar1Ev  event
		small   event // the first BAR1 smaller than its GPU's memory
		anyBAR1 bool
		matched bool // some BAR1 was read with its GPU's memory
	}

	hang struct {
		watch bool   // since the last set-up line, only NCCL INFO lines came
		line  int    // that line
		text  []byte // its text, in a buffer reused: a log has a set-up line for each channel
	}

	tensors struct {
		nonzero [maxGPUs]int // elements of the last non-zero tensor printed per device, +1
		zeros   event        // a zero tensor on one device after a non-zero one of its size on another
		open    struct {     // a tensor printed over several lines, until its device
			set  bool
			line int    // its first line
			raw  string // that line
			text string // its values so far
		}
		recent  []printedTensor // the last non-zero tensors, oldest first
		differs event           // a copy to another GPU that differs from its source where a copy through the host matches
	}

	setpci struct {
		next     bool // the line before read ECAP_ACS+6.w
		any      event
		redirect event
	}

	busbw busbw // nccltests.go
}

// closeLimit is the greatest absolute difference of a failed array check
// read as rounding: bfloat16 keeps 8 bits of mantissa, so sums of values
// near 1 reduced in another order differ by a few hundredths; data lost or
// garbled between GPUs differs by the values themselves (zeros, garbage).
const closeLimit = 0.1

var (
	reOOB      = pattern("oob", `Out of bounds values : (\d{1,18}) (OK|FAILED)`)
	reBusBW    = pattern("busbw", `Avg bus bandwidth\s{0,16}: (\d{1,9}(?:\.\d{1,9})?)`)
	reSMITotal = pattern("smiTotal", `^Total\s{0,64}: (\d{1,9}) MiB$`)
	reWaived   = pattern("waived", `^Peer to Peer access is not available (?:amongst GPUs in the system|between GPU\d{1,3} <-> GPU\d{1,3}), waiving test\.|^Waiving device_to_device_\w{1,64}\.`)
	// At least one element differs (NumPy, PyTorch's testing helpers).
	reMismatch = pattern("mismatch", `^Mismatched elements: [1-9]\d{0,12} / \d{1,13} \(`)
	// The check's greatest absolute difference (PyTorch's assert_close:
	// "Greatest absolute difference: 0.0078125 at index (0, 3) (up to 1e-05
	// allowed)"; NumPy: "Max absolute difference: 23.", "Max absolute
	// difference among violations: 0.1").
	reAbsDiff = pattern("absDiff", `^(?:Greatest|Max) absolute difference(?: among violations)?: (\d{1,12}(?:\.\d{0,20})?(?:e-?\d{1,3})?)\b`)
	reTensor  = pattern("tensor", `tensor\((\[[-0-9.,e+ \[\]]{0,1000}\]), device='cuda:(\d{1,3})'`)
	// PyTorch wraps a tensor of more than a line's worth of values: its
	// first row after "tensor(", rows of values, and the device on the last
	// line ("[-0.92, 0.51]], device='cuda:0')", or the device alone).
	reTensorStart = pattern("tensorStart", `tensor\((\[[-0-9.,e+ \[\]]{0,1000})$`)
	reTensorRow   = pattern("tensorRow", `^[-0-9.,e+ \[\]]{1,1000}$`)
	reTensorEnd   = pattern("tensorEnd", `^([-0-9.,e+ \[\]]{0,1000})device='cuda:(\d{1,3})'`)
	// The ACS control word by capability name, or at 0xf2a, where PLX (PEX)
	// switches hold it and where NVIDIA's own script reads it; the command
	// may close a loop over the switch ports ("...; done").
	reSetpciACS = pattern("setpciACS", `(?i)setpci\s.{0,200}(?:ecap_acs\+(?:0x)?6|\bf2a)\.w\s{0,8}(?:;\s{0,8}done\s{0,8})?$`)
	reHexWord   = pattern("hexWord", `^[0-9a-fA-F]{4}$`)
	reReBAR     = pattern("rebar", `^BAR 1: current size: (\d{1,7})([MGT]B)(?:, supported: ([0-9MGTB ]{1,400}))?`)
)

// setpciACSWords are the words, as written, one of which every match of
// reSetpciACS holds: the reader's cheap trigger.
var setpciACSWords = []string{"ECAP_ACS", "ecap_acs", "f2a.w", "F2A.w", "f2a.W", "F2A.W"}

// ncclSetUpWords are the words of NCCL's INFO lines that show a
// communicator being set up or running collectives: its rings and trees
// (`Channel 00/02 :`, `Trees [0]`, `Pattern 4, crossNic 0`), the
// connections (`Channel 00 : 0[1000] -> 1[2000] via P2P/IPC`), the end of
// set-up (`Init COMPLETE`, `Connected all rings`) and the trace of each
// collective (`AllReduce: opCount 3e sendbuff ...`, NCCL_DEBUG_SUBSYS=COLL).
// A log that stops after them, with nothing but NCCL INFO lines, is the hang
// pattern: a healthy run goes on printing its own output.
var ncclSetUpWords = []string{"Init COMPLETE", "Connected all rings", "Connected all trees", ": opCount ", "Channel ", "Trees [", "Pattern "}

// tfAllReduceWords are in the line TensorFlow's MirroredStrategy prints as
// it starts its all-reduces through NCCL ("INFO:tensorflow:batch_all_reduce:
// 4 all-reduces with algorithm = nccl, num_packs = 1"): a log that stops
// there, with nothing but TensorFlow's INFO lines, is the same hang.
var tfAllReduceWords = []string{"batch_all_reduce: ", "algorithm = nccl"}

// pyncclWords are in the line vLLM's and SGLang's own NCCL wrapper
// (pynccl.py) prints just before rank 0's unique id is broadcast and
// ncclCommInitRank runs ("vLLM is using nccl==2.28.9", "sglang is using
// nccl==2.21.5"): a log that stops there stopped in the communicator's
// set-up, as one that stops after NCCL's own set-up lines.
var pyncclWords = []string{" is using nccl=="}

// ncclQuietWords are in lines that leave the watch on: a collective's trace
// cut from its prefix, as ranks writing at once leave it (NVIDIA/nccl#147),
// and TensorFlow's own INFO lines.
var ncclQuietWords = []string{"NCCL INFO", ": opCount ", "INFO:tensorflow:"}

// ncclTeardownWords end a communicator in order: a log that ends with them
// finished.
var ncclTeardownWords = []string{"Destroy COMPLETE", "Abort COMPLETE", "Connection closed by"}

// ncclTestTypes are the data types nccl-tests print in every row.
var ncclTestTypes = []string{"float", "half", "double", "int8", "int32", "int64", "f8e"}

// watchHang sees every line, read or skipped by the prefilter: after
// NCCL's set-up lines, the first line that is neither blank nor NCCL INFO
// shows that the program went on, and a communicator's teardown that it
// ended (ncclQuietWords are NCCL's too).
func watchHang[T string | []byte](x *Extractor, raw T) {
	if !x.sym.hang.watch || blank(raw) {
		return
	}
	// The words were found with the readers' (see mark).
	if x.marks&markQuiet == 0 || x.marks&markTeardown != 0 {
		x.sym.hang.watch = false
	}
}

// armHang starts the watch after set-up line n, raw.
func armHang[T string | []byte](x *Extractor, n int, raw T) {
	h := &x.sym.hang
	h.watch, h.line = true, n
	h.text = append(h.text[:0], raw...)
}

// armsHang says whether stripped line s is one of NCCL's set-up or
// collective lines (ncclSetUpWords), TensorFlow's start of its NCCL
// all-reduces, or vLLM's or SGLang's start of a communicator.
func armsHang[T string | []byte](s T) bool {
	if has(s, tfAllReduceWords[0]) && has(s, tfAllReduceWords[1]) || has(s, pyncclWords[0]) {
		return true
	}
	if !hasNCCLInfo(s) {
		return false
	}
	for _, w := range ncclSetUpWords {
		if has(s, w) {
			return true
		}
	}
	return false
}

// armsHang is armsHang of the line whose words Found was given.
func (x *Extractor) armsHang() bool {
	m := x.marks
	return m&markTFBatch != 0 && m&markTFNCCL != 0 || m&markNCCLInfo != 0 && m&markSetUp != 0 || m&markPyNCCL != 0
}

// hasNCCLInfo is strings.Contains(raw, "NCCL INFO") without copying a
// []byte: the hang reader asks it of every line after NCCL's set-up.
func hasNCCLInfo[T string | []byte](raw T) bool { return has(raw, "NCCL INFO") }

// has is strings.Contains for a string or a []byte, without a copy: the
// hang reader asks it of every line while a log may have stopped.
func has[T string | []byte](raw T, w string) bool {
	switch r := any(raw).(type) {
	case string:
		return strings.Contains(r, w)
	case []byte:
		return bytes.Contains(r, []byte(w))
	}
	return false
}

func blank[T string | []byte](raw T) bool {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f' {
			return false
		}
	}
	return true
}

// symptomLine reads line s for the readers that need the line after a
// header: nvidia-smi -q's memory sections and setpci's ACS read. It
// reports whether it took the line.
func (x *Extractor) symptomLine(s string, n int, raw string) bool {
	y := &x.sym
	if next := y.smi.next; next != "" {
		y.smi.next = ""
		if m := reSMITotal.FindStringSubmatch(s); m != nil {
			v, _ := strconv.Atoi(m[1])
			x.smiTotal(next, v, n, raw)
			return true
		}
	}
	if y.setpci.next && s != "" {
		// A loop prints one word per port, after sudo's prompt.
		if strings.HasPrefix(s, "[sudo] password") {
			return true
		}
		y.setpci.next = false
		if reHexWord.MatchString(s) {
			y.setpci.next = true
			v, _ := strconv.ParseUint(s, 16, 16)
			y.setpci.any.mark(n, raw)
			// ACS control: bit 2 P2P Request Redirect, bit 3 P2P Completion
			// Redirect (PCI_ACS_RR, PCI_ACS_CR in linux/pci_regs.h).
			if v&0x000c != 0 {
				y.setpci.redirect.mark(n, raw)
			}
			return true
		}
	}
	return false
}

func (x *Extractor) smiTotal(section string, v, n int, raw string) {
	y := &x.sym.smi
	switch section {
	case "FB Memory Usage":
		y.fb = v
	case "BAR1 Memory Usage":
		if !y.anyBAR1 || v < y.bar1 {
			y.bar1, y.bar1Ev = v, event{line: n, text: raw, set: true}
		}
		y.anyBAR1 = true
		if y.fb > 0 {
			y.matched = true
			if v < y.fb {
				y.small.mark(n, raw)
			}
		}
		y.fb = 0
	}
}

// symptomScan reads the symptoms one line shows by itself.
func (x *Extractor) symptomScan(s string, n int, raw string) {
	y := &x.sym
	if s == "FB Memory Usage" || s == "BAR1 Memory Usage" {
		y.smi.next = s
	}
	if armsHang(s) {
		armHang(x, n, raw)
	}
	if strings.Contains(s, "waiving test") || strings.HasPrefix(s, "Waiving device_to_device") {
		if reWaived.MatchString(s) {
			y.waived.mark(n, raw)
		}
	}
	if strings.HasPrefix(s, "Mismatched elements: ") && reMismatch.MatchString(s) {
		y.mismatch.mark(n, raw)
	}
	if strings.Contains(s, " absolute difference") {
		if m := reAbsDiff.FindStringSubmatch(s); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil && v < closeLimit {
				y.close.mark(n, raw)
			}
		}
	}
	if y.tensors.open.set || strings.Contains(s, "tensor(") || strings.Contains(s, "device='cuda:") {
		x.tensorLine(s, n, raw)
	}
	// The line, quoted in prose, may be in backquotes.
	if b := strings.TrimLeft(s, "`"); strings.HasPrefix(b, "BAR 1: current size: ") {
		x.rebarLine(b, n, raw)
	}
	if containsAny(s, setpciACSWords...) && reSetpciACS.MatchString(s) {
		y.setpci.next = true
	}
	x.ncclTestLine(s, n, raw)
	x.busbwLine(s, n, raw)
}

// rebarLine reads the Resizable BAR capability of `lspci -vvv`, whose
// "BAR 1" is an NVIDIA GPU's BAR1 (pciutils ls-ecaps.c, cap_rebar): a BAR1
// smaller than the largest size the GPU supports was left small, and one
// of 256 MiB, the legacy window, is smaller than the memory of any GPU
// that peers with another.
func (x *Extractor) rebarLine(s string, n int, raw string) {
	m := reReBAR.FindStringSubmatch(s)
	if m == nil {
		return
	}
	cur := mib(m[1], m[2])
	if cur <= 0 {
		return
	}
	r := &x.sym.rebar
	if !r.ev.set || cur < r.mib {
		r.mib, r.ev = cur, event{line: n, text: raw, set: true}
	}
	most := 0
	for _, f := range strings.Fields(m[3]) {
		if len(f) > 2 {
			most = max(most, mib(f[:len(f)-2], f[len(f)-2:]))
		}
	}
	if cur < most || cur <= 256 {
		r.small.mark(n, raw)
	}
}

// mib is a size lspci prints (256, "MB") in MiB; 0 when it is not one.
func mib(num, unit string) int {
	v, err := strconv.Atoi(num)
	if err != nil || !isDigits(num) || v > 1<<20 {
		return 0
	}
	switch unit {
	case "GB":
		v <<= 10
	case "TB":
		v <<= 20
	case "MB":
	default:
		return 0
	}
	return v
}

// ncclTestLine reads nccl-tests' table: the header that names the #wrong
// columns, the rows, and the two summary lines.
func (x *Extractor) ncclTestLine(s string, n int, raw string) {
	t := &x.sym.ncclTests
	if strings.HasPrefix(s, "#") && strings.Contains(s, "#wrong") {
		f := strings.Fields(s)
		t.wrongCols = t.wrongCols[:0]
		for i, c := range f {
			if c == "#wrong" && i > 0 {
				t.wrongCols = append(t.wrongCols, i-1) // the row has no leading "#"
			}
		}
		t.header.mark(n, raw)
		return
	}
	if m := find(s, reOOB, "Out of bounds values"); m != nil {
		if !t.oob.set {
			t.oobN = trimNum(m[1])
		}
		t.oob.mark(n, raw)
		return
	}
	if m := find(s, reBusBW, "Avg bus bandwidth"); m != nil {
		if !t.busbw.set {
			t.busbwV = m[1]
		}
		t.busbw.mark(n, raw)
		return
	}
	if len(t.wrongCols) == 0 || !containsAny(s, ncclTestTypes...) {
		return
	}
	f := strings.Fields(s)
	if len(f) != t.wrongCols[len(t.wrongCols)-1]+1 || !isDigits(f[0]) {
		return
	}
	t.rows++
	bad := 0
	for _, i := range t.wrongCols {
		if w, err := strconv.Atoi(f[i]); err == nil && isDigits(f[i]) && w > 0 {
			bad += min(w, 1<<30)
		}
	}
	if bad > 0 {
		t.wrong = min(t.wrong+bad, 1<<30)
		t.firstBad.mark(n, raw)
	}
}

// printedTensor is a tensor PyTorch printed: its device, its values as
// printed without spaces, and the line that ends it.
type printedTensor struct {
	dev    int
	values string
	ev     event
}

// recentTensors is how many tensors the copy check keeps: a test prints the
// source and its copies one after the other.
const recentTensors = 8

// maxTensorText bounds the text of a tensor printed over several lines.
const maxTensorText = 4000

// tensorLine reads a CUDA tensor as PyTorch prints it, on one line or
// over several.
func (x *Extractor) tensorLine(s string, n int, raw string) {
	t := &x.sym.tensors
	if m := reTensor.FindStringSubmatch(s); m != nil {
		t.open.set = false
		x.tensorPrinted(m[1], m[2], n, raw)
		return
	}
	if t.open.set {
		if m := reTensorEnd.FindStringSubmatch(s); m != nil && len(t.open.text)+len(m[1]) <= maxTensorText {
			t.open.set = false
			x.tensorPrinted(t.open.text+m[1], m[2], t.open.line, t.open.raw)
			return
		}
		if n-t.open.line < 64 && len(t.open.text)+len(s) <= maxTensorText && reTensorRow.MatchString(s) {
			t.open.text += s
			return
		}
		t.open.set = false
	}
	if strings.Contains(s, "tensor(") {
		if m := reTensorStart.FindStringSubmatch(s); m != nil {
			t.open.set, t.open.line, t.open.raw, t.open.text = true, n, raw, m[1]
		}
	}
}

// tensorPrinted reads a tensor's values on device dev, printed from line
// n (raw) on. A tensor of zeros
// on a device, after a non-zero one with as many elements on another, is a
// copy between GPUs that came back empty. A tensor that differs from one
// on another device while a later or earlier tensor on its own device
// equals that one is the usual check of a copy (x.to("cuda:1") against
// x.cpu().to("cuda:1")) showing the direct copy wrong.
func (x *Extractor) tensorPrinted(values, dev string, n int, raw string) {
	d, _ := strconv.Atoi(dev)
	if d >= maxGPUs {
		return
	}
	v := strings.TrimRight(strings.ReplaceAll(values, " ", ""), ",")
	elems := strings.Count(v, ",") + 1
	y := &x.sym.tensors
	if !strings.ContainsAny(v, "123456789") {
		for o, e := range y.nonzero {
			if o != d && e == elems+1 {
				y.zeros.mark(n, raw)
				return
			}
		}
		return
	}
	y.nonzero[d] = elems + 1
	if len(y.recent) == recentTensors {
		y.recent = append(y.recent[:0], y.recent[1:]...)
	}
	y.recent = append(y.recent, printedTensor{dev: d, values: v, ev: event{set: true, line: n, text: raw}})
	if y.differs.set {
		return
	}
	r := y.recent
	for i, src := range r {
		for j := i + 1; j < len(r); j++ {
			if r[j].dev == src.dev || r[j].values != src.values {
				continue
			}
			// r[j] is a good copy of src on its device; a wrong one there is
			// another tensor of as many elements after src.
			for k := i + 1; k < len(r); k++ {
				if k != j && r[k].dev == r[j].dev && r[k].values != src.values && strings.Count(r[k].values, ",") == strings.Count(src.values, ",") {
					y.differs = r[k].ev
					return
				}
			}
		}
	}
}

// symptomFacts gives the facts of these readers once the input ends.
func (x *Extractor) symptomFacts() {
	y := &x.sym
	t := &y.ncclTests
	switch {
	case t.oob.set:
		x.setEvent("nccl.tests.wrong", "num", t.oobN, 2, t.oob, "nccl-tests")
	case t.wrong > 0:
		x.setEvent("nccl.tests.wrong", "num", strconv.Itoa(t.wrong), 1, t.firstBad, "nccl-tests")
	case t.rows > 0:
		x.setEvent("nccl.tests.wrong", "num", "0", 1, t.header, "nccl-tests")
	}
	x.setEvent("nccl.tests.busbw", "num", t.busbwV, 1, t.busbw, "nccl-tests")
	x.busbwFacts()
	x.setEvent("p2p.waived", "bool", "true", 1, y.waived, "CUDA P2P test")
	if y.mismatch.set && y.close.set {
		x.setEvent("output.close", "bool", "true", 2, y.close, "array check")
		x.setEvent("output.wrong", "bool", "false", 2, y.close, "array check")
	} else {
		x.setEvent("output.wrong", "bool", "true", 2, y.mismatch, "array check")
		x.setEvent("p2p.test.data_ok", "bool", "false", 0, y.mismatch, "array check")
	}
	if y.smi.anyBAR1 {
		x.setEvent("gpu.bar1_mib", "num", strconv.Itoa(y.smi.bar1), 1, y.smi.bar1Ev, "nvidia-smi -q")
		if y.smi.small.set {
			x.setEvent("gpu.bar1_small", "bool", "true", 1, y.smi.small, "nvidia-smi -q")
		} else if y.smi.matched {
			x.setEvent("gpu.bar1_small", "bool", "false", 1, y.smi.bar1Ev, "nvidia-smi -q")
		}
	}
	if r := &y.rebar; r.ev.set {
		x.setEvent("gpu.bar1_mib", "num", strconv.Itoa(r.mib), 1, r.ev, "lspci")
		if r.small.set {
			x.setEvent("gpu.bar1_small", "bool", "true", 1, r.small, "lspci")
		} else {
			x.setEvent("gpu.bar1_small", "bool", "false", 1, r.ev, "lspci")
		}
	}
	if y.hang.watch {
		x.set("nccl.stopped_after_init", "bool", "true", 1, y.hang.line, string(y.hang.text), "NCCL")
	}
	x.setEvent("p2p.copy_zeros", "bool", "true", 1, y.tensors.zeros, "PyTorch")
	if y.setpci.redirect.set {
		x.setEvent("acs.redirect", "bool", "true", 2, y.setpci.redirect, "setpci")
	} else {
		x.setEvent("acs.redirect", "bool", "false", 2, y.setpci.any, "setpci")
	}
}

// symptomConditions are, for each fact that can show a problem without an
// error line, the condition that holds when it does, in the order a paste's
// symptoms are answered: first what went wrong (a hang, wrong values, a
// failed or slow test), then where P2P cannot work at all (WSL, native
// Windows, which has no NCCL, MIG), then
// what limits it (a small BAR1, ACS, IOMMU faults), then what a person
// says of the run (a hang, several GPUs no faster than one, tensors on two
// devices), and last the GPUs themselves (GeForce cards, which have no
// P2P): a card named says what the machine is, and the run's own story
// is more often the program's (on the report sets, a hang said beside a
// GeForce card named: first +7 / -2).
var symptomConditions = []struct{ fact, cond string }{
	// A GPU newer than the build (cudabuild.go) fails whatever runs on it.
	{"gpu.arch", `gpu.arch == "ampere" || gpu.arch == "ada" || gpu.arch == "hopper" || gpu.arch == "blackwell"`},
	// A build for a CUDA major release the driver does not reach (minor
	// releases run on the major's first driver).
	{"cuda.build", "cuda.driver < 11.0 && cuda.build >= 11.0 || cuda.driver < 12.0 && cuda.build >= 12.0 || cuda.driver < 13.0 && cuda.build >= 13.0"},
	{"acs.redirect", "acs.redirect"},
	// A loss said to become NaN: the learning rate or the batch per GPU
	// before a path that garbles data, and before the network when it
	// happens across nodes alone: the NaN is what failed there.
	{"loss.nan", "loss.nan"},
	// Fine on one node, failing across nodes: the network between the
	// hosts, before what the hang alone calls for.
	{"nodes.multi_only", "nodes.multi_only"},
	// A launch over nodes that points every node at itself: why the
	// ranks never meet, before what a hang at the set-up alone calls for.
	{"launch.master_loopback", "launch.master_loopback"},
	// Files one node wrote that another cannot see: why a run across nodes
	// fails to resume or to load its data, before a hang alone.
	{"storage.node_local", "storage.node_local"},
	// A second job on the machine: the port the first holds, before a hang
	// at the set-up alone.
	{"launch.second_job", "launch.second_job"},
	// Several ranks said or shown on one GPU: why the run hangs, fails or is
	// slow, before what those alone call for.
	{"ranks.same_gpu", "ranks.same_gpu"},
	// Turning NCCL's P2P off said to make it work: the path between the
	// GPUs, whatever failed beside it (rankedSymptoms puts it first).
	{"p2p.off_works", "p2p.off_works"},
	{"hang.at_init", "hang.at_init"},
	{"hang.seen", "hang.seen"},
	{"nccl.stopped_after_init", "nccl.stopped_after_init"},
	{"shm.small", "shm.small"},
	{"fabricmanager.down", "fabricmanager.down"},
	{"nccl.tests.wrong", "nccl.tests.wrong > 0"},
	// DeepSpeed's ZeRO stage 2 named beside a loss said to become NaN or 0:
	// the releases whose overlapped reduction garbles the gradients, before
	// what the NaN alone calls for. Alone it shows nothing wrong: no entry
	// holds on it without the loss.
	{"deepspeed.zero2", "deepspeed.zero2"},
	// Training that ends elsewhere on several GPUs than on one: the global
	// batch and the learning rate, before a path that garbles data.
	{"train.metric_by_gpus", "train.metric_by_gpus"},
	{"p2p.test.data_ok", "!p2p.test.data_ok"},
	// Results that differ only a little, said or shown by an array check:
	// another order of summation, answered by a note.
	{"output.close", "output.close && !output.wrong"},
	{"p2p.waived", "p2p.waived"},
	{"p2p.all_pairs_ok", "!p2p.all_pairs_ok"},
	{"nccl.p2p_refused", "nccl.p2p_refused"},
	{"p2p.test.slow_pairs", "p2p.test.slow_pairs > 0"},
	{"p2p.bw_below_link", "p2p.bw_below_link > 0"},
	{"nccl.tests.busbw_pct", "nccl.tests.busbw_pct >= 0"},
	{"nccl.tests.small_sizes", "nccl.tests.small_sizes"},
	{"perf.slow", "perf.slow"},
	{"perf.vs_headline", "perf.vs_headline"},
	{"nvls.none", "nvls.none"},
	{"wsl", "wsl"},
	// GPUs in a virtual machine, said by the person (SaidOnly).
	{"virtualized", "virtualized"},
	{"windows.distributed", "windows.distributed"},
	{"mig.enabled", "mig.enabled"},
	{"container.p2p", "container.p2p"},
	{"gpu.bar1_small", "gpu.bar1_small"},
	{"iommu.faults", "iommu.faults > 0"},
	{"cpu.amd", "cpu.amd"},
	{"xid.nvlink", "xid.nvlink"},
	{"host.power_loss", "host.power_loss"},
	{"pcie.riser", "pcie.riser"},
	// A GPU said to be lost or gone: the card stopped answering on PCIe.
	{"gpu.lost", "gpu.lost"},
	{"hang.said", "hang.said"},
	{"perf.dataparallel", "perf.dataparallel"},
	{"perf.no_speedup", "perf.no_speedup"},
	// A run on one GPU said to work on the first and fail on another: the
	// program's or a library's device selection, before its placement alone.
	{"gpu.first_only", "gpu.first_only"},
	// Tensors said to be on different devices: the program's placement.
	{"devices.mixed", "devices.mixed"},
	// llama.cpp's tensor split mode named: its own faults, not the link's.
	{"llamacpp.split_tensor", "llamacpp.split_tensor"},
	// GPU memory said to run out, in words: the program's sizing or
	// placement, after what a hang or a slow run calls for.
	{"memory.oom", "memory.oom"},
	{"gpu.unwanted_use", "gpu.unwanted_use"},
	// A GeForce card named: the likeliest reason when nothing else is shown.
	{"gpu.consumer", "gpu.consumer"},
	{"version.regression", "version.regression"},
	// Harmless messages said in words (noise.go), below every fault.
	{"p2p.already_enabled", "p2p.already_enabled"},
	{"ibverbs.warning", "ibverbs.warning"},
	{"fabric.not_supported", "fabric.not_supported"},
	{"nccl.tests.error_column", "nccl.tests.error_column"},
	{"llamacpp.split_mode", "llamacpp.split_mode"},
	{"gpu.sharing", "gpu.sharing"},
	{"gpus.isolated", "gpus.isolated"},
	{"version.changed", "version.changed"},
}

// rankedSymptoms is symptomConditions in the order a paste's symptoms are
// answered: a version that works set against one that fails first, for
// such an A/B names the cause of whatever else the paste shows; the GPUs'
// names (gpu.consumer) last, whatever comes after them in the list, for
// nearly every paste shows them and anything said of the run tells more;
// below them only the harmless messages said in words (noise.go), which
// must never come before a fault the paste may show.
var rankedSymptoms = func() []struct{ fact, cond string } {
	var first, out, last, noise []struct{ fact, cond string }
	for _, s := range symptomConditions {
		switch {
		case s.fact == "version.regression" || s.fact == "p2p.off_works":
			first = append(first, s)
		case s.fact == "gpu.consumer" || s.fact == "hang.said":
			last = append(last, s)
		case noiseFact(s.fact):
			noise = append(noise, s)
		default:
			out = append(out, s)
		}
	}
	return append(append(append(first, out...), last...), noise...)
}()

// Symptom gives the condition under which fact name shows something wrong
// by itself ("nccl.tests.wrong > 0"), and whether it can: what explain
// answers from when a paste holds no known message.
func Symptom(name string) (string, bool) {
	c, r := symptom(name)
	return c, r >= 0
}

// Weak says whether symptom name is one nearly every paste shows (the
// GPUs' names) or a question a known note answers better (no NVLS
// channels beside NCCL_P2P_LEVEL's note, native Windows beside any known
// message, several GPUs said to be no faster than one without DataParallel
// or the kvstore named): it answers a paste only when nothing in it is
// known, not even a note, for a known message says more. A figure set
// against the link's headline is not weak: the note beside it is most often
// the bandwidth test's own output, whose question it is (NVIDIA/nccl#1264).
func Weak(name string) bool {
	return name == "gpu.consumer" || name == "virtualized" || name == "nvls.none" || name == "windows.distributed" ||
		name == "perf.no_speedup" || noiseFact(name)
}

// SaidOnly says whether symptom name answers only when a person said it: a
// virtual machine named in a question is what the asker thinks matters
// (NVIDIA/nccl#1674, canonical/lxd#14380), while nvidia-smi's
// "Virtualization Mode : Pass-Through" is read from every cloud VM, where
// P2P over NVLink often works (the reference 2xH200 node).
func SaidOnly(name string) bool { return name == "virtualized" }

// noiseFact says whether symptom name is a harmless message said in words
// (noise.go): a note that answers only when nothing else is known.
func noiseFact(name string) bool {
	switch name {
	case "p2p.already_enabled", "ibverbs.warning", "fabric.not_supported", "nccl.tests.error_column", "llamacpp.split_mode":
		return true
	}
	return false
}

// outcomeFacts are the facts that tell what a run did (hung, stopped after
// NCCL's set-up, gave wrong values, ran slowly) rather than what the
// machine is.
var outcomeFacts = []string{"hang.seen", "hang.said", "hang.at_init", "hang.later", "nccl.stopped_after_init", "output.wrong", "perf.slow", "nccl.tests.wrong", "p2p.copy_zeros", "p2p.off_works"}

// Outcome says whether fact name tells what a run did: a paste that does
// not say so did not see it, so a condition that waits on it and on a
// version waits on the version alone.
func Outcome(name string) bool { return slices.Contains(outcomeFacts, name) }

// Explains says whether symptom name tells the cause of the paste's other
// symptoms: a version said to work set against one said to fail names
// what the hang or the slow run that comes with it comes from, and a run
// said to work once NCCL's P2P is off puts it on the path between the
// GPUs, so the entries that either calls for answer it.
func Explains(name string) bool { return name == "version.regression" || name == "p2p.off_works" }

// besideFacts are the symptoms that tell the cause of error lines an entry
// names, told beside them: a version said to work set against one said to
// fail (the error came with the release), and a riser or extension cable
// said to carry a card (the error came with the link: a GPU that nvidia-smi
// cannot reach once it sits on a riser, Cyclenerd/ethereum_nvidia_miner#40).
var besideFacts = []string{"version.regression", "pcie.riser"}

// Beside says whether symptom name, told beside error lines that entries
// name, answers before them.
func Beside(name string) bool { return slices.Contains(besideFacts, name) }

// SymptomRank is the place of fact name among the symptoms, the most
// telling first; -1 when it is none.
func SymptomRank(name string) int {
	_, r := symptom(name)
	return r
}

// SymptomRankIn is SymptomRank among the facts of one paste: a change of
// release said beside a hang ("after the driver update DDP gets stuck at the
// first backward") tells the hang's cause as a version that works set
// against one that fails does, so it ranks with version.regression. Beside
// anything else (a slow run, wrong values) a change said ranks last. On the
// report sets, ranking it first beside a hang changed the first cause of
// five reports, four of them to the right one; first beside every symptom,
// of nine, four.
func SymptomRankIn(name string, pasted []Fact) int {
	if name == "version.changed" && slices.ContainsFunc(pasted, func(f Fact) bool {
		return (f.Name == "hang.seen" || f.Name == "hang.said") && f.Value == "true"
	}) {
		name = "version.regression"
	}
	return SymptomRank(name)
}

func symptom(name string) (string, int) {
	for i, s := range rankedSymptoms {
		if s.fact == name {
			return s.cond, i
		}
	}
	return "", -1
}

// ProgramFirst says whether symptom name, in an input that shows nothing
// of the path between GPUs, is more often the program's doing than the
// path's: a hang, seen in a log or said, or a run said to be slow.
func ProgramFirst(name string) bool { return strings.HasPrefix(name, "hang.") || name == "perf.slow" }

// PathFact says whether fact name tells of the path between GPUs: its
// links and topology, NCCL's transport and P2P settings, ACS and the
// IOMMU, a P2P reading (pathFactNames, which also tell a slow run's
// causes apart).
func PathFact(name string) bool { return slices.Contains(pathFactNames, name) }
