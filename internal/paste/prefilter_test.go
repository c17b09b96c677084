package paste

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readAll gives the facts of lines read three ways: through the prefilter
// as strings and as bytes, and in full, line by line (the reference).
func readAll(lines []string) (asString, asBytes, full []Fact) {
	x, y, z := New(), New(), New()
	z.unfiltered = true
	for i, l := range lines {
		x.Line(i+1, l)
		y.LineBytes(i+1, []byte(l))
		z.Line(i+1, l)
	}
	return x.Facts(), y.Facts(), z.Facts()
}

func splitLines(in string) []string {
	lines := strings.Split(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// samePrefiltered fails t unless the prefiltered extractor gives exactly the
// facts, lines and texts of the unfiltered one.
func samePrefiltered(t *testing.T, what string, lines []string) {
	t.Helper()
	s, b, full := readAll(lines)
	if !reflect.DeepEqual(s, full) {
		t.Fatalf("%s: prefiltered %+v\nunfiltered %+v", what, s, full)
	}
	if !reflect.DeepEqual(b, full) {
		t.Fatalf("%s: prefiltered bytes %+v\nunfiltered %+v", what, b, full)
	}
}

// The prefilter skips only lines that change nothing: on every real paste
// and log here, alone, repeated (so that readers are done when the repeats
// come), all in one, and shuffled, the facts are those of reading every line.
func TestPrefilterChangesNothing(t *testing.T) {
	var names, inputs []string
	for _, glob := range []string{"testdata/*.txt", "testdata/*.log", "testdata/*.json", "../../kb/repro/*.txt"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			names, inputs = append(names, f), append(inputs, string(b))
		}
	}
	cs, cases := loadCases(t)
	for i, c := range cs {
		names, inputs = append(names, "case "+c.Name), append(inputs, cases[i])
	}
	if len(inputs) < 40 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	var all []string
	for i, in := range inputs {
		lines := splitLines(in)
		samePrefiltered(t, names[i], lines)
		sameStrip(t, lines)
		sameEnvName(t, lines)
		samePrefiltered(t, names[i]+" repeated", append(append([]string{}, lines...), lines...))
		all = append(all, lines...)
	}
	samePrefiltered(t, "all inputs in one", all)
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 5; k++ {
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		samePrefiltered(t, "all inputs shuffled", all)
	}
}

// The prefilter does skip: a training log's lines that tell nothing new
// are not read in full.
func TestPrefilterSkips(t *testing.T) {
	data, err := os.ReadFile("testdata/h200x2-nccl-default.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(string(data))
	x := New()
	quietLines := 0
	for round := 0; round < 2; round++ {
		for i, l := range lines {
			if round == 1 && quiet(x, l) {
				quietLines++
			}
			x.Line(i+1, l)
		}
	}
	if quietLines < len(lines)*9/10 {
		t.Errorf("read again, %d of %d lines skipped; want nine in ten", quietLines, len(lines))
	}
}

func TestNCCLHost(t *testing.T) {
	for in, want := range map[string]string{
		"vm:586:586 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM": "vm",
		"node-1.cluster_a:12:345 [7] NCCL WARN x":                            "node-1.cluster_a",
		"vm:586:586 [0] NCCL":                    "",
		"vm:586 [0] NCCL INFO":                   "",
		":586:586 [0] NCCL INFO":                 "",
		"[1,0]<stdout>:vm:586:586 [0] NCCL INFO": "",
		"vm:586:586 [x] NCCL INFO":               "",
		"vm:586:586 [0]NCCL INFO":                "",
		"a.b-c_9:1:2 [3] NCCL ":                  "a.b-c_9",
		"vm:1:2x[3] NCCL INFO":                   "",
		"vm:1:2 [3 NCCL INFO":                    "",
		"vm:1:: [3] NCCL INFO":                   "",
	} {
		sameStrip(t, []string{in, "x" + in, in[1:]})
		got := ""
		if n := ncclHost(in); n > 0 {
			got = in[:n]
		}
		if m := reNCCLHost.FindStringSubmatchIndex(in); want != "" && (m == nil || m[0] != 0 || in[m[2]:m[3]] != want) {
			t.Errorf("%q: the pattern finds %v, the table says %q", in, m, want)
		}
		if got != want {
			t.Errorf("ncclHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkLineRepeated reads a training log's lines once more after the
// log, as a long log reads them: most are skipped by the prefilter.
func BenchmarkLineRepeated(b *testing.B) {
	data, err := os.ReadFile("../../kb/repro/nccl_default.h200x2.txt")
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range splitLines(string(data)) {
		lines = append(lines, []byte(l))
	}
	x := New()
	for i, l := range lines {
		x.LineBytes(i+1, l)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, l := range lines {
			x.LineBytes(j+1, l)
		}
	}
}

// stripByPattern is Strip with every prefix found by the regular
// expression, the reference Strip's shortcut for NCCL's prefix must agree
// with.
func stripByPattern(line string) string {
	if strings.IndexByte(line, 0x1b) >= 0 {
		line = ansi.ReplaceAllString(line, "")
	}
	s := strings.TrimSpace(line)
	for i := 0; i < 8 && mayHavePrefix(s); i++ {
		loc := prefixes.FindStringIndex(s)
		if loc == nil || loc[1] == 0 {
			break
		}
		s = strings.TrimSpace(s[loc[1]:])
	}
	return s
}

func sameStrip(t *testing.T, lines []string) {
	t.Helper()
	for _, l := range lines {
		if got, want := Strip(l), stripByPattern(l); got != want {
			t.Fatalf("Strip(%q) = %q, the pattern gives %q", l, got, want)
		}
	}
}

// sameEnvName fails t when envName names a variable that reNCCLEnv would
// not find first in a line.
func sameEnvName(t *testing.T, lines []string) {
	t.Helper()
	for _, l := range lines {
		s := Strip(l)
		name := envName(s)
		if name == "" {
			continue
		}
		if m := reNCCLEnv.FindStringSubmatch(s); m == nil || m[1] != name {
			t.Fatalf("envName(%q) = %q, the pattern finds %q", s, name, m)
		}
	}
}

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{
		"NCCL INFO NCCL_P2P_LEVEL set by environment to LOC":                         "NCCL_P2P_LEVEL",
		"NCCL INFO NCCL_NVLS_ENABLE set by environment to 0.":                        "NCCL_NVLS_ENABLE",
		"xNCCL_A set by environment to 1":                                            "",
		"(NCCL_A set by environment to 1":                                            "NCCL_A",
		"NCCL_ set by environment to 1":                                              "",
		"NCCL_a set by environment to 1":                                             "",
		"X NCCL_A set by environment to 1 NCCL_B set by environment to 2":            "NCCL_A",
		"X nccl_A set by environment to 1 NCCL_B set by environment to 2":            "",
		"NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0 set by environment": "NCCL_SOCKET_IFNAME",
	} {
		if got := envName(in); got != want {
			t.Errorf("envName(%q) = %q, want %q", in, got, want)
		}
		sameEnvName(t, []string{in})
	}
}

// Lines that hold a word of the socket, slow, shm or NVLS readers but say
// nothing of what they look for are skipped once read, as the rest of a log
// is: NCCL's own lines (NET/Socket, its calls, its NVLS channel count) and
// PyTorch's warning that names performance (kb/repro's logs, which the
// explain benchmark repeats).
func TestPrefilterSkipsProseWords(t *testing.T) {
	lines := []string{
		"W1122 14:50:28.524000 541 torch/distributed/run.py:851] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
		"vm:587:587 [1] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>",
		"vm:587:587 [1] NCCL INFO ncclCommInitRankConfig comm 0x2e4f5410 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 commId 0x7fe9c21ee5e894b4 - Init START",
		"vm:587:587 [1] NCCL INFO 24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer",
	}
	x := New()
	for i, l := range lines {
		x.Line(i+1, l)
	}
	for _, l := range lines {
		if !quiet(x, l) {
			t.Errorf("read in full again: %q", l)
		}
	}
}

// A line that named a GPU, printed again by every rank, is not read in full
// again; a line that names another GPU is.
func TestPrefilterSkipsGPUNameRepeated(t *testing.T) {
	x := New()
	same := "torch.cuda.get_device_name(0) -> ok: NVIDIA H100 80GB HBM3"
	x.Line(1, same)
	if !quiet(x, same) {
		t.Errorf("%q read in full a second time", same)
	}
	if other := "torch.cuda.get_device_name(1) -> ok: NVIDIA A100-SXM4-80GB"; quiet(x, other) {
		t.Errorf("%q, another GPU, skipped", other)
	}
}

// A line that names several GPUs and nothing else the readers look for
// still wakes the reader of a machine said to reboot (reSeveralGPUs has
// trigger words of its own): read through the prefilter, the reboot
// counts as several GPUs' power loss, as it does read in full. The counts
// are those of perslev/MultiPlanarUNet#30, AlexeyAB/darknet#2731 and
// open-mmlab/mmselfsup#568.
func TestPrefilterWakesSeveralGPUs(t *testing.T) {
	for _, count := range []string{"my GPU is two nvidia3090.", "GPU : RTX2080ti x 2", "Run 3 graphics cards"} {
		lines := []string{"my system restarts automatically whenever I start training.", count}
		samePrefiltered(t, count, lines)
		x := New()
		for i, l := range lines {
			x.Line(i+1, l)
		}
		if _, ok := Facts(x.Facts())["host.power_loss"]; !ok {
			t.Errorf("%q beside a reboot said: no host.power_loss in %+v", count, x.Facts())
		}
	}
}

// A word a colour code splits is whole once Strip removes the code: the
// readers that the prefilter's scan did not wake for it still read it
// (woke), as they do read in full. The sentences are the cases' own, with
// a terminal's bold around part of a word.
func TestPrefilterReadsWordsSplitByColour(t *testing.T) {
	for _, c := range []struct{ line, fact string }{
		{"It works with driver 535 but ha\x1b[1mngs\x1b[0m with 545.23.08", "hang.said"},
		{"However, when switching to more than one the GPUs utilization goes to 100% but their power consump\x1b[1mtion\x1b[0m is as if they were idl\x1b[1ming\x1b[0m.", "hang.said"},
		{"We run the training inside a cont\x1b[1mainer on two GPUs.", "container"},
	} {
		samePrefiltered(t, c.line, []string{c.line})
		x := New()
		x.Line(1, c.line)
		if _, ok := Facts(x.Facts())[c.fact]; !ok {
			t.Errorf("%q: no %s in %+v", c.line, c.fact, x.Facts())
		}
	}
}

// A line that woke one reader is read by that reader alone: CUDA's "do you
// have enough GPUs?", which every rank prints and which names several GPUs
// for the reader of power loss, is not searched for the words of the hang,
// Windows or node readers (which would cost a search each on every copy).
func TestPrefilterWakesOnlyTheLinesReaders(t *testing.T) {
	line := "GPU device may be out of range, do you have enough GPUs?"
	x := New()
	if quiet(x, line) {
		t.Fatalf("%q skipped: the reader of power loss has not settled", line)
	}
	if !x.woke(1 << prosePower) {
		t.Errorf("%q: the reader of power loss not woken", line)
	}
	for _, r := range []reader{proseHang, proseWindows, proseNodes, proseTraining, proseWrong} {
		if x.woke(1 << r) {
			t.Errorf("%q woke reader %d", line, r)
		}
	}
}

// Peer checks share the prefilter bit of peer access already enabled: once
// that reader has what it needs, a peer check not read before is still
// read, and one read before is skipped.
func TestPrefilterPeerCheckSharesItsBit(t *testing.T) {
	x := New()
	x.Line(1, "Problem is cuda-memcheck will still complain about it already being enabled")
	if !x.prose.peerAlready.set {
		t.Fatal("peer access already enabled not read")
	}
	check := "torch.cuda.can_device_access_peer(0, 1) -> False"
	if quiet(x, check) {
		t.Fatalf("%q skipped before it was read", check)
	}
	x.Line(2, check)
	if !x.pairs.blocked[0][1] {
		t.Fatalf("%q: the pair is not read as blocked", check)
	}
	if !quiet(x, check) {
		t.Errorf("%q read in full a second time", check)
	}
}

// Each reader checks its cheap list of words before its pattern, so a word
// list must hold every way of writing what the pattern matches. On every
// line of the real reports' pastes (reports/) and of the logs here, a
// pattern's match holds one of its reader's words: "multi-Gpus training on
// windows" once went unread because the launch words were written in two
// casings only.
func TestReaderWordsHoldTheirMatches(t *testing.T) {
	readers := []struct {
		name  string
		words []string
		re    *lazyRegexp
	}{
		{"acs", acsWords, reACSOn}, {"amdGPU", amdGPUWords, reAMDGPU}, {"bwCarrier", bwCarrierWords, reBWCarrier},
		{"consumer", consumerWords, reConsumer}, {"customAR", customARWords, reCustomAR}, {"diverge", divergeWords, reRanksDiverge},
		{"elsewhere", elsewhereWords, reElsewhere}, {"errorColumn", errorColumnWords, reErrorColumn}, {"fabricNS", fabricNSWords, reFabricNS},
		{"hang", hangWords, reHangWord}, {"ibvWarn", ibvWarnWords, reIbvWarn}, {"init", initWords, reInitLog},
		{"masterLoopback", masterLoopbackWords, reMasterLoopback}, {"mig", migWords, reMIGNamed}, {"mixedDevices", mixedDevicesWords, reMixedDevices},
		{"noNCCLSaid", noNCCLSaidWords, reNoNCCLSaid}, {"nodeLocal", nodeLocalWords, reNodeLocal}, {"nvls", nvlsWords, reNVLSZero},
		{"oneUsed", oneUsedWords, reOneUsed}, {"secondJob", secondJobWords, reSecondJob}, {"setpciACS", setpciACSWords, reSetpciACS},
		{"several", severalWords, reSeveralGPUs}, {"slow", slowWords, reSlow}, {"splitMode", splitModeWords, reSplitMode},
		{"testsNamed", testsNamedWords, reTestsNamed}, {"training", trainingWords, reTraining}, {"winLaunch", winLaunchWords, reWinLaunch},
		{"windows", windowsWords, reWindows}, {"lossNaN", lossNaNWords, reLossNaN}, {"lossZero", lossZeroWords, reLossZero},
		{"zero2", zero2Words, reZeRO2}, {"gpuLost", gpuLostWords, reGPULost}, {"oom", oomWords, reOOMSaid},
		{"gpusFound", gpusFoundWords, reGPUsFound}, {"devList", devListWords, reDevList}, {"peerCheck", peerCheckWords, rePeerCheck},
		// reBWFigure is left out: its pattern ignores case, and its words
		// leave out "Gb/s", gigabits, a network's figure and not a GPU link's.
	}
	var lines []string
	files, _ := filepath.Glob("../../reports/validation*.json")
	for _, f := range append(files, "../../reports/dev.json") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var reports []struct{ Paste string }
		if err := json.Unmarshal(b, &reports); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range reports {
			lines = append(lines, splitLines(r.Paste)...)
		}
	}
	for _, glob := range []string{"testdata/*.txt", "testdata/*.log", "../../kb/repro/*.txt"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, splitLines(string(b))...)
		}
	}
	if len(lines) < 40000 {
		t.Fatalf("only %d lines", len(lines))
	}
	for _, r := range readers {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			bad := 0
			for _, l := range lines {
				if m := r.re.FindString(l); m != "" && !containsAny(l, r.words...) {
					if bad++; bad <= 5 {
						t.Errorf("%q matches, and the line holds none of the words: %.200q", m, l)
					}
				}
			}
		})
	}
}

// The lines the explain benchmark repeats (internal/bench.WriteLog: kb/repro's
// logs without their error lines) are skipped when read again, but for
// those that give a fact: a reader's word that another holds ("LOCK" in
// "consider passing CUDA_LAUNCH_BLOCKING=1") reads every repetition in
// full, and halved explain's speed.
func TestPrefilterSkipsBenchLog(t *testing.T) {
	var lines []string
	for _, f := range []string{"../../kb/repro/nccl_default.h200x2.txt", "../../kb/repro/torch_errors.h200x2.txt"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range splitLines(string(data)) {
			if !strings.Contains(strings.ToLower(l), "error") {
				lines = append(lines, l)
			}
		}
	}
	told := map[string]bool{}
	for _, f := range Extract(strings.Join(lines, "\n")) {
		told[lines[f.Line-1]] = true
	}
	x := New()
	for i, l := range lines {
		x.Line(i+1, l)
	}
	for _, l := range lines {
		// CUDA's hint "GPU device may be out of range" holds the OOM
		// reader's "out of", which its forms need ("ran out of GPU
		// memory", "out of VRAM").
		if !told[l] && !strings.Contains(l, "out of") && !quiet(x, l) {
			t.Errorf("read in full again: %q", l)
		}
	}
}
