package p2pcheck

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/p2pkb/p2pkb/probe/facts"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// The test binary is also the child the test re-executes, as the probe is.
func TestMain(m *testing.M) {
	if role := os.Getenv(RoleEnv); role != "" {
		code := Child(role, openFake, os.Stdin, os.Stdout)
		time.Sleep(exitDelay)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

const testSize = 1 << 20

// scenarios are the fake machines; each has a golden report.
var scenarios = map[string]scenario{
	"healthy":          {GPUs: 2},
	"zeros":            {GPUs: 2, Corrupt: map[string]string{"0->1/*": "zeros"}},
	"flipped-word":     {GPUs: 2, Corrupt: map[string]string{"1->0/peer_copy": "flip"}},
	"enable-refused":   {GPUs: 2, Refuse: map[string]string{"0->1": "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "1->0": "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"}},
	"too-many-peers":   {GPUs: 2, Refuse: map[string]string{"1->0": "CUDA_ERROR_TOO_MANY_PEERS"}},
	"slow":             {GPUs: 2, PeerGBps: 5},
	"hang":             {GPUs: 2, Hang: "0->1"},
	"hang-ipc":         {GPUs: 2, Hang: "1->0/ipc_cumem"},
	"crash":            {GPUs: 2, Crash: "0->1"},
	"slow-exit":        {GPUs: 2, SlowExit: true},
	"ipc-open-fails":   {GPUs: 2, IPCOpen: "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
	"no-library":       {NoLibrary: true},
	"one-gpu":          {GPUs: 1},
	"eight-gpus-mixed": eight(),
	"hang-timed":       {GPUs: 4, HangTimed: "0->1"},
	"crash-held":       {GPUs: 4, Crash: "2->3/staged_copy", Crashes: 1},
	"eight-gpus-model": eightModelled(),
}

// measured is what the driver's calls took on four H200s
// (testdata/real/h200x4-trace.txt): cuInit 1.0 s in the first process, the
// contexts 0.93 s for four, pinning 64 MiB of host memory 30 to 45 ms.
var measured = latency{InitMS: 1000, ContextMS: 233, HostAllocMS: 40, Copies: true}

// eightModelled is eight() with the driver's real latencies.
func eightModelled() scenario {
	sc := eight()
	sc.Latency = &measured
	return sc
}

// noGolden are scenarios checked against another's report instead.
var noGolden = map[string]bool{"eight-gpus-model": true}

// eight is two groups of four GPUs without P2P between the groups, and one
// pair inside a group whose enable runs out of peer resources.
func eight() scenario {
	sc := scenario{GPUs: 8, Refuse: map[string]string{"2->3": "CUDA_ERROR_TOO_MANY_PEERS"}}
	for a := 0; a < 4; a++ {
		for b := 4; b < 8; b++ {
			sc.NoPeer = append(sc.NoPeer, pairKey(a, b))
		}
	}
	return sc
}

var (
	resultsMu sync.Mutex
	results   = map[string]*scenarioRun{}
)

type scenarioRun struct {
	once     sync.Once
	test     *facts.Test
	progress string
	trace    string
}

// outcome runs a scenario once for all the tests that look at it; other
// scenarios run meanwhile.
func outcome(t *testing.T, name string) *facts.Test {
	t.Helper()
	resultsMu.Lock()
	r := results[name]
	if r == nil {
		r = &scenarioRun{}
		results[name] = r
	}
	resultsMu.Unlock()
	r.once.Do(func() { r.test, r.progress, r.trace = runScenario(t, scenarios[name]) })
	if r.test == nil {
		t.Fatalf("scenario %s did not run", name)
	}
	return r.test
}

// progressOf is what a scenario's run told people waiting.
func progressOf(t *testing.T, name string) string {
	outcome(t, name)
	return results[name].progress
}

// traceOf is the scheduling events of a scenario's run.
func traceOf(t *testing.T, name string) string {
	outcome(t, name)
	return results[name].trace
}

func runScenario(t *testing.T, sc scenario) (*facts.Test, string, string) {
	t.Helper()
	cfg, _ := json.Marshal(sc)
	timeout := 20 * time.Second
	if sc.Hang != "" || sc.SlowExit || sc.HangTimed != "" {
		timeout = 5 * time.Second
	}
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	var progress bytes.Buffer
	test := Run(Options{
		Size: testSize, Timeout: timeout, Seed: 0x2545f491,
		Exe: os.Args[0], Env: []string{scenarioEnv + "=" + string(cfg), "TMPDIR=" + dir},
		Now:      func() time.Time { return clock },
		Progress: &progress,
		Trace:    filepath.Join(dir, "trace"),
	})
	checkGone(t, dir)
	trace, _ := os.ReadFile(filepath.Join(dir, "trace"))
	return test, progress.String(), string(trace)
}

// checkGone fails if a process of the run, a killed pair's second process
// above all, is still alive shortly after Run returns: a killed process
// dies soon after the signal, not at once.
func checkGone(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "pids"))
	if err != nil {
		t.Fatalf("no child left its process id: %v", err)
	}
	pids := strings.Fields(string(data))
	self, _ := os.Readlink("/proc/self/exe")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var alive []string
		for _, f := range pids {
			stat, err := os.ReadFile("/proc/" + f + "/stat")
			if err != nil {
				continue // gone
			}
			// A zombie waits only for its parent to collect it; it runs no
			// more. A process of another program took a freed id.
			exe, _ := os.Readlink("/proc/" + f + "/exe")
			if _, after, _ := strings.Cut(string(stat), ") "); !strings.HasPrefix(after, "Z") && exe == self {
				alive = append(alive, string(stat))
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes of the test still run 5 s after it ended: %v", alive)
			return
		}
	}
}

// report puts the test section into a fake machine's report, so the golden
// files are whole documents the site and p2pkb match read.
func report(t *testing.T, name string, test *facts.Test) []byte {
	base := "h200x2-nvswitch.json"
	switch name {
	case "no-library":
		base = "no-library.json"
	case "one-gpu":
		base = "one-gpu.json"
	}
	f, err := os.Open(filepath.Join("../testdata/golden", base))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	rep.Test = test
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func TestGolden(t *testing.T) {
	c := jsonschema.NewCompiler()
	schema, err := c.Compile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for name := range scenarios {
		if noGolden[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := report(t, name, outcome(t, name))
			golden := filepath.Join("../testdata/golden", "test-"+name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s; run with -update and review the diff", golden)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("%s does not match probe/schema.json: %v", golden, err)
			}
			if _, err := facts.Read(bytes.NewReader(got)); err != nil {
				t.Errorf("facts.Read refuses %s: %v", golden, err)
			}
		})
	}
}

func pair(t *testing.T, test *facts.Test, from, to int) facts.TestPair {
	t.Helper()
	for _, p := range test.Pairs {
		if p.Src == from && p.Dst == to {
			return p
		}
	}
	t.Fatalf("no pair GPU%d->GPU%d in %+v", from, to, test.Pairs)
	return facts.TestPair{}
}

func path(t *testing.T, p facts.TestPair, name string) facts.TestPath {
	t.Helper()
	for _, x := range p.Paths {
		if x.Path == name {
			return x
		}
	}
	t.Fatalf("pair %d->%d has no path %s: %+v", p.Src, p.Dst, name, p.Paths)
	return facts.TestPath{}
}

func TestHealthy(t *testing.T) {
	test := outcome(t, "healthy")
	s := test.Summary
	if !test.Ran || s.DataOK == nil || !*s.DataOK || s.IPCOK == nil || !*s.IPCOK || len(s.FailedPairs)+len(s.SlowPairs)+len(s.Timeouts) != 0 {
		t.Fatalf("summary = %+v", s)
	}
	if len(test.Pairs) != 2 || len(test.Devices) != 2 {
		t.Fatalf("%d pairs, %d devices", len(test.Pairs), len(test.Devices))
	}
	for _, p := range test.Pairs {
		if p.Status != "ok" || p.Enable != "OK" || len(p.Paths) != 4 {
			t.Errorf("pair %+v", p)
		}
		for _, x := range p.Paths {
			if x.Status != "ok" || x.Bytes != testSize || x.WrongWords != 0 {
				t.Errorf("%d->%d %s: %+v", p.Src, p.Dst, x.Path, x)
			}
		}
		// The fake moves 1 MiB in 2 us + 1Mi/350e3 us with P2P, 10 us + 1Mi/20e3 us staged.
		if b := p.Bandwidth; b == nil || b.P2POn != 209.9 || b.P2POff != 16.8 || b.BidirP2POn != 419.8 {
			t.Errorf("bandwidth %+v", p.Bandwidth)
		}
		if l := p.LatencyUS; l == nil || l.P2POn != 2.0 || l.P2POff != 10.0 {
			t.Errorf("latency %+v", p.LatencyUS)
		}
	}
	for _, d := range test.Devices {
		if d.DataOK == nil || !*d.DataOK || d.LocalGBps == 0 || d.H2DGBps == 0 || d.D2HGBps == 0 {
			t.Errorf("device %+v", d)
		}
	}
	if !strings.HasPrefix(s.Verdict, "All 2 pairs with P2P moved 1 MiB intact") {
		t.Errorf("verdict %q", s.Verdict)
	}
	want := "p2p-probe: 2 GPUs, 2 ordered pairs, 1 MiB per copy\n" +
		"p2p-probe: GPU0->GPU1 ok: 4 of 4 paths verified, 209.9 GB/s with P2P, 16.8 GB/s staged\n" +
		"p2p-probe: GPU1->GPU0 ok: 4 of 4 paths verified, 209.9 GB/s with P2P, 16.8 GB/s staged\n"
	if got := progressOf(t, "healthy"); got != want {
		t.Errorf("progress:\n%s\nwant:\n%s", got, want)
	}
}

// Writes dropped on the P2P paths leave zeros: every P2P path of 0->1 is
// wrong in every word, the staged copy is right, and 1->0 is untouched.
func TestZeros(t *testing.T) {
	test := outcome(t, "zeros")
	s := test.Summary
	if s.DataOK == nil || *s.DataOK || len(s.FailedPairs) != 1 || s.FailedPairs[0] != "GPU0->GPU1" {
		t.Fatalf("summary = %+v", s)
	}
	p := pair(t, test, 0, 1)
	if st := path(t, p, PathStaged); st.Status != "ok" {
		t.Errorf("staged copy %+v", st)
	}
	for _, name := range []string{PathPeer, PathIPCLegacy, PathIPCCuMem} {
		x := path(t, p, name)
		if x.Status != "mismatch" || x.WrongWords != testSize/4 || x.FirstMismatch == nil || x.FirstMismatch.Offset != 0 || x.FirstMismatch.Got != "0x00000000" {
			t.Errorf("%s: %+v %+v", name, x, x.FirstMismatch)
		}
	}
	if !strings.HasPrefix(p.Reason, "GPU0->GPU1: 1 MiB copied, 262144 words wrong, first at offset 0: expected 0x") || !strings.Contains(p.Reason, "got 0x00000000 (peer_copy)") {
		t.Errorf("reason %q", p.Reason)
	}
	if q := pair(t, test, 1, 0); q.Status != "ok" {
		t.Errorf("1->0 %+v", q)
	}
	if s.IPCOK == nil || *s.IPCOK {
		t.Errorf("ipc_ok %v: the IPC paths of 0->1 arrived wrong", s.IPCOK)
	}
}

func TestFlippedWord(t *testing.T) {
	test := outcome(t, "flipped-word")
	x := path(t, pair(t, test, 1, 0), PathPeer)
	if x.Status != "mismatch" || x.WrongWords != 1 || x.FirstMismatch.Offset != (testSize/4/3)*4 {
		t.Fatalf("peer copy %+v %+v", x, x.FirstMismatch)
	}
	if x.FirstMismatch.Expected == x.FirstMismatch.Got {
		t.Errorf("mismatch %+v", x.FirstMismatch)
	}
	if test.Summary.DataOK == nil || *test.Summary.DataOK || *test.Summary.IPCOK != true {
		t.Errorf("summary %+v", test.Summary)
	}
}

func TestEnableRefused(t *testing.T) {
	for _, name := range []string{"enable-refused", "too-many-peers"} {
		sc := scenarios[name]
		test := outcome(t, name)
		for key, errName := range sc.Refuse {
			var a, b int
			if _, err := fmtSscan(key, &a, &b); err != nil {
				t.Fatal(err)
			}
			p := pair(t, test, a, b)
			if p.Enable != errName || p.Status != "failed" || !strings.Contains(p.Reason, "cuCtxEnablePeerAccess: "+errName) {
				t.Errorf("%s: %+v", name, p)
			}
			if x := path(t, p, PathPeer); x.Status != "skipped" {
				t.Errorf("%s: peer copy %+v", name, x)
			}
			if !contains(test.Summary.FailedPairs, pairName(p)) {
				t.Errorf("%s: failed pairs %v", name, test.Summary.FailedPairs)
			}
		}
	}
}

// 1 MiB with P2P at 5 GB/s and 2 us takes longer than staged at 20 GB/s and 10 us.
func TestSlow(t *testing.T) {
	test := outcome(t, "slow")
	if len(test.Summary.SlowPairs) != 2 || *test.Summary.DataOK != true {
		t.Fatalf("summary %+v", test.Summary)
	}
	if p := pair(t, test, 0, 1); p.Status != "slow" || !strings.Contains(p.Reason, "no faster than the host path") {
		t.Errorf("%+v", p)
	}
}

// A copy that never completes: the child is killed at the deadline, the
// pair is a timeout with its step, and the rest of the test goes on.
func TestHang(t *testing.T) {
	start := time.Now()
	test := outcome(t, "hang")
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("took %s with a 5 s deadline", d)
	}
	p := pair(t, test, 0, 1)
	if p.Status != "timeout" || p.Step != PathPeer || !strings.Contains(p.Reason, "no answer within 5s") {
		t.Fatalf("%+v", p)
	}
	if x := path(t, p, PathStaged); x.Status != "ok" {
		t.Errorf("what the child found before it hung is lost: %+v", p.Paths)
	}
	if q := pair(t, test, 1, 0); q.Status != "ok" {
		t.Errorf("1->0 %+v", q)
	}
	if s := test.Summary; len(s.Timeouts) != 1 || s.Timeouts[0] != "GPU0->GPU1" || !strings.Contains(s.Verdict, "hung") {
		t.Errorf("summary %+v", s)
	}
}

// A hang in the second process: the deadline kills it with the pair's
// process, and the step says where it hung.
func TestHangInSecondProcess(t *testing.T) {
	test := outcome(t, "hang-ipc")
	p := pair(t, test, 1, 0)
	if p.Status != "timeout" || p.Step != "ipc_cumem: second process: copy" {
		t.Fatalf("%+v", p)
	}
	if x := path(t, p, PathIPCLegacy); x.Status != "ok" {
		t.Errorf("legacy IPC before the hang: %+v", x)
	}
	if s := test.Summary; s.IPCOK == nil || *s.IPCOK || len(s.Timeouts) != 1 {
		t.Errorf("summary %+v", s)
	}
}

// A child that dies (a driver crash) fails its pair with the step and its
// last words; the other pair and the JSON are unharmed.
func TestCrash(t *testing.T) {
	test := outcome(t, "crash")
	p := pair(t, test, 0, 1)
	if p.Status != "failed" || p.Step != PathPeer || !strings.Contains(p.Reason, "the test process failed") || !strings.Contains(p.Reason, "SIGABRT") {
		t.Fatalf("%+v", p)
	}
	if q := pair(t, test, 1, 0); q.Status != "ok" {
		t.Errorf("1->0 %+v", q)
	}
	if s := test.Summary; len(s.FailedPairs) != 1 || !strings.Contains(s.Verdict, "1 of 2 pairs failed") {
		t.Errorf("summary %+v", s)
	}
}

// A pair whose processes finish but take long to exit is not a timeout:
// its result went out before the deadline killed them.
func TestSlowExit(t *testing.T) {
	test := outcome(t, "slow-exit")
	for _, p := range test.Pairs {
		if p.Status != "ok" || len(p.Paths) != 4 {
			t.Errorf("%+v", p)
		}
	}
	if s := test.Summary; len(s.Timeouts) != 0 || !*s.DataOK || !*s.IPCOK {
		t.Errorf("summary %+v", s)
	}
}

func TestIPCOpenFails(t *testing.T) {
	test := outcome(t, "ipc-open-fails")
	s := test.Summary
	if s.IPCOK == nil || *s.IPCOK || s.DataOK == nil || !*s.DataOK || len(s.FailedPairs) != 2 {
		t.Fatalf("summary %+v", s)
	}
	x := path(t, pair(t, test, 0, 1), PathIPCLegacy)
	if x.Status != "error" || x.Error != "cuIpcOpenMemHandle: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" {
		t.Errorf("%+v", x)
	}
	if y := path(t, pair(t, test, 0, 1), PathIPCCuMem); y.Status != "ok" {
		t.Errorf("the cuMem path does not use cuIpcOpenMemHandle: %+v", y)
	}
}

func TestNoLibrary(t *testing.T) {
	test := outcome(t, "no-library")
	if test.Ran || !strings.Contains(test.Error, "libcuda.so.1") || test.Summary.DataOK != nil || test.Summary.IPCOK != nil {
		t.Fatalf("%+v", test)
	}
	if !strings.Contains(test.Summary.Verdict, "could not run") {
		t.Errorf("verdict %q", test.Summary.Verdict)
	}
}

func TestOneGPU(t *testing.T) {
	test := outcome(t, "one-gpu")
	if !test.Ran || len(test.Pairs) != 0 || len(test.Devices) != 1 || test.Summary.DataOK == nil || !*test.Summary.DataOK || test.Summary.IPCOK != nil {
		t.Fatalf("%+v", test)
	}
	d := test.Devices[0]
	// 1 MiB: host to device 2 us + 20.97 us, local 1 us + 0.70 us, device to host 2 us + 20.16 us.
	if d.H2DGBps != 45.6 || d.LocalGBps != 617.2 || d.D2HGBps != 47.3 {
		t.Errorf("device figures %+v", d)
	}
}

func TestEightGPUs(t *testing.T) {
	test := outcome(t, "eight-gpus-mixed")
	if len(test.Pairs) != 56 {
		t.Fatalf("%d pairs", len(test.Pairs))
	}
	count := map[string]int{}
	for _, p := range test.Pairs {
		count[p.Status]++
	}
	// 32 pairs cross the groups; 2->3 is refused; the other 23 work.
	if count["skipped"] != 32 || count["failed"] != 1 || count["ok"] != 23 {
		t.Errorf("statuses %v", count)
	}
	if p := pair(t, test, 1, 6); p.Enable != "" || len(p.Paths) != 1 || p.Paths[0].Status != "ok" || *p.CanAccessPeer {
		t.Errorf("a pair without P2P: %+v", p)
	}
	// GPU2 cannot open GPU3's memory over IPC either: the same peer mapping.
	if s := test.Summary; len(s.FailedPairs) != 1 || s.FailedPairs[0] != "GPU2->GPU3" || !*s.DataOK || *s.IPCOK {
		t.Errorf("summary %+v", s)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func fmtSscan(key string, a, b *int) (int, error) { return fmt.Sscanf(key, "%d->%d", a, b) }

// Pairs that failed without a word arriving wrong (a driver that could not
// start in the worker, say) are named as failed, never passed over.
func TestVerdictFailedWithoutData(t *testing.T) {
	test := &facts.Test{Ran: true, SizeBytes: 4096, Devices: []facts.TestDevice{{Ordinal: 0}, {Ordinal: 1}}}
	for _, p := range [][2]int{{0, 1}, {1, 0}} {
		test.Pairs = append(test.Pairs, facts.TestPair{Src: p[0], Dst: p[1], Paths: []facts.TestPath{}, Status: "failed",
			Reason: fmt.Sprintf("GPU%d->GPU%d: cuMemHostAlloc: CUDA_ERROR_INVALID_CONTEXT", p[0], p[1])})
	}
	summarize(test)
	if v := test.Summary.Verdict; !strings.Contains(v, "2 of 2 pairs failed") || strings.Contains(v, "intact") {
		t.Errorf("verdict %q", v)
	}
}

// A pair that hangs while it holds the clock: the pair waiting for the
// clock beside it does not time out (its deadline waits with it), goes
// back in line when the worker is killed, and passes in the next worker.
func TestHangWhileOthersRun(t *testing.T) {
	test := outcome(t, "hang-timed")
	p := pair(t, test, 0, 1)
	if p.Status != "timeout" || p.Step != "bandwidth with peer access on" {
		t.Fatalf("%+v", p)
	}
	for _, q := range test.Pairs {
		if (q.Src != 0 || q.Dst != 1) && q.Status != "ok" {
			t.Errorf("GPU%d->GPU%d: %s: %s", q.Src, q.Dst, q.Status, q.Reason)
		}
	}
	if tr := traceOf(t, "hang-timed"); !strings.Contains(tr, "back in line") {
		t.Errorf("no pair was held beside the hung one:\n%s", tr)
	}
}

// A worker that dies holding two pairs cannot say which killed it: both go
// back in line and run alone in the next worker, where they pass (the crash
// came once); nothing the dead worker held is lost. (A pair that kills a
// worker while alone has failed: TestCrash.) Which pair runs beside the one
// that crashes depends on how fast the others finish, so the pairs held are
// read from the trace: those the first worker started and had not finished
// when the first pair went back in line.
func TestWorkerDiesHoldingPairs(t *testing.T) {
	test := outcome(t, "crash-held")
	tr := traceOf(t, "crash-held")
	for _, q := range test.Pairs {
		if q.Status != "ok" {
			t.Errorf("GPU%d->GPU%d: %s: %s\n%s", q.Src, q.Dst, q.Status, q.Reason, tr)
		}
	}
	held := map[string]bool{}
	for _, l := range strings.Split(tr, "\n") {
		var n, x, y int
		var d float64
		if fmtScan(l, "GPU%d->GPU%d back in line", &x, &y) {
			break
		}
		switch {
		case fmtScan(l, "worker %d: GPU%d->GPU%d", &n, &x, &y) && n == 1:
			held[fmt.Sprintf("GPU%d->GPU%d", x, y)] = true
		case fmtScan(l, "GPU%d->GPU%d done in %f s", &x, &y, &d):
			delete(held, fmt.Sprintf("GPU%d->GPU%d", x, y))
		}
	}
	if len(held) < 2 || !held["GPU2->GPU3"] {
		t.Fatalf("the first worker held %v when it died, want GPU2->GPU3 and another pair:\n%s", held, tr)
	}
	for p := range held {
		if !strings.Contains(tr, p+" back in line") {
			t.Errorf("trace lacks %q:\n%s", p+" back in line", tr)
		}
	}
	if !strings.Contains(tr, "worker 2 started") {
		t.Errorf("trace lacks %q:\n%s", "worker 2 started", tr)
	}
}

// Eight GPUs with the latencies of real driver calls: the same report as
// without them, four pairs at a time, and never two at once on one GPU.
func TestEightGPUsModelled(t *testing.T) {
	got, want := outcome(t, "eight-gpus-model"), outcome(t, "eight-gpus-mixed")
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Errorf("the report with real latencies differs from the one without")
	}
	held := map[string]bool{}
	most := 0
	for _, l := range strings.Split(traceOf(t, "eight-gpus-model"), "\n") {
		var n, x, y int
		var d float64
		switch {
		case fmtScan(l, "worker %d: GPU%d->GPU%d", &n, &x, &y):
			for k := range held {
				var a, b int
				fmt.Sscanf(k, "%d->%d", &a, &b)
				if a == x || a == y || b == x || b == y {
					t.Errorf("GPU%d->GPU%d started while %s ran", x, y, k)
				}
			}
			held[pairKey(x, y)] = true
			most = max(most, len(held))
		case fmtScan(l, "GPU%d->GPU%d done in %f s", &x, &y, &d), fmtScan(l, "GPU%d->GPU%d back in line", &x, &y):
			delete(held, pairKey(x, y))
		}
	}
	if most != 4 {
		t.Errorf("at most %d pairs at once, want 4", most)
	}
}

// fmtScan reports whether the trace line l, after its time and process
// fields, reads as format.
func fmtScan(l, format string, args ...any) bool {
	f := strings.Fields(l)
	if len(f) < 3 {
		return false
	}
	rest := strings.Join(f[2:], " ")
	n, err := fmt.Sscanf(rest, format, args...)
	return err == nil && n == len(args)
}

// The whole test of eight GPUs with the latencies of real driver calls and
// the copies' time of 64 MiB: wall seconds per run. The fake moves 1 MiB,
// since its memory is files and its copies the CPU's; filling and checking
// 64 MiB, which the real probe spreads over the node's cores, is left out.
func BenchmarkEightGPUsModelled(b *testing.B) {
	sc := eightModelled()
	l := *sc.Latency
	l.CopyScale, l.StagedGBps = 64, 37 // as 64 MiB at the H200s' staged rate
	sc.Latency = &l
	sc.PeerGBps = 388
	cfg, _ := json.Marshal(sc)
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		start := time.Now()
		test := Run(Options{Size: 1 << 20, Timeout: 30 * time.Second, Exe: os.Args[0],
			Env: []string{scenarioEnv + "=" + string(cfg), "TMPDIR=" + dir}})
		b.ReportMetric(time.Since(start).Seconds(), "s/run")
		if len(test.Pairs) != 56 {
			b.Fatalf("%d pairs", len(test.Pairs))
		}
	}
}
