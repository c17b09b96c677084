package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// PyTorch's message, as it prints it (without CUDA's error name).
const torchPeerMsg = "RuntimeError: CUDA error: peer access is not supported between these two devices"

type diagnosis struct {
	Messages []struct {
		Line      int
		LineText  string `json:"line_text"`
		Severity  string
		Verdict   string
		Causes    []cause
		TellApart *struct {
			Facts []string
			Run   string
			Paste []string
		} `json:"tell_apart"`
		Collect []string `json:"collect_next"`
	}
	Errors, Notes int
}

type cause struct {
	ID, Verdict, Severity string
	Reasons               []string
	Workarounds           []struct {
		Text, Verdict string
		Reasons       []string
	}
}

func diagnoseJSON(t *testing.T, wantCode int, stdin string, args ...string) diagnosis {
	t.Helper()
	code, out, errOut := call(stdin, args...)
	if code != wantCode {
		t.Fatalf("%v: exit %d, want %d: %s", args, code, wantCode, errOut)
	}
	var d diagnosis
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return d
}

func causeIDs(cs []cause) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestExplainLogFromStdin(t *testing.T) {
	log := "2024-05-01 12:00:01.123 I tensorflow/core ... started\n" +
		"2017-06-28 16:04:54.002509: I tensorflow/core/common_runtime/gpu/gpu_device.cc:779] Peer access not supported between device ordinals 3 and 1\n" +
		"Traceback (most recent call last):\n  File \"x.py\", line 3\n" + torchPeerMsg + "\n"
	code, out, errOut := call(log, "explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"○ line 2: 2017-06-28", "● line 5: RuntimeError", "3 known causes, the most likely first:",
		"1. cuda/peer-access-unsupported-by-hardware [cudaErrorPeerAccessUnsupported]", "Root cause", "What works", "[ 75%]", "What does not work",
		"More: /en/kb/tensorflow/gpu-peer-access-error/", "Recognized: 1 error message(s), 1 note(s)."} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
	// Workarounds come by success rate.
	if strings.Index(out, "[ 75%]") > strings.Index(out, "[ 70%]") {
		t.Error("workarounds are not ordered by success rate")
	}
}

func TestExplainNothingExitsOne(t *testing.T) {
	code, out, _ := call("all good\n", "explain", "--lang", "zh", "-")
	if code != 1 || !strings.Contains(out, "没有找到") {
		t.Errorf("exit %d: %s", code, out)
	}
	d := diagnoseJSON(t, 1, "", "explain", "--json", "nothing to see")
	if len(d.Messages) != 0 || d.Errors != 0 {
		t.Errorf("%+v", d)
	}
}

// A real NCCL log of a run with NCCL_P2P_DISABLE=1 on two H200s: it ran
// fine, so explain lists its lines as notes and exits 1 (no error).
func TestExplainHealthyNCCLLogIsNotes(t *testing.T) {
	log, err := os.ReadFile("../../kb/repro/nccl_p2p_disable.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := diagnoseJSON(t, 1, string(log), "explain", "--json")
	var got []string
	for _, m := range d.Messages {
		if m.Severity != "note" {
			t.Errorf("line %d (%v) is an error", m.Line, causeIDs(m.Causes))
		}
		got = append(got, causeIDs(m.Causes)...)
	}
	for _, want := range []string{"nccl/p2p-disabled-by-environment", "nccl/p2p-off-shm-transport"} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("explain found %v, want %s among them", got, want)
		}
	}
	if d.Errors != 0 || d.Notes != len(d.Messages) {
		t.Errorf("errors %d, notes %d", d.Errors, d.Notes)
	}
	code, out, _ := call(string(log), "explain")
	if code != 1 || !strings.Contains(out, "Notes: lines a healthy run prints too") || !strings.Contains(out, "○ line") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// An error among notes: listed first, exit 0.
	withErr := string(log) + torchPeerMsg + "\n"
	d = diagnoseJSON(t, 0, withErr, "explain", "--json")
	if d.Messages[0].Severity != "error" || d.Errors != 1 || d.Notes == 0 {
		t.Errorf("first %+v, errors %d, notes %d", d.Messages[0], d.Errors, d.Notes)
	}
}

// A real torchrun log with two ranks on one GPU: every layer of the failure
// is explained.
func TestExplainDuplicateGPULog(t *testing.T) {
	log, err := os.ReadFile("../../kb/repro/nccl_duplicate_gpu.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := diagnoseJSON(t, 0, string(log), "explain", "--json")
	var got []string
	for _, m := range d.Messages {
		got = append(got, causeIDs(m.Causes)...)
	}
	for _, want := range []string{"nccl/duplicate-gpu-detected", "pytorch/nccl-invalid-usage", "pytorch/torchrun-child-failed"} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("explain lacks %s: %v", want, got)
		}
	}
}

// The acceptance case: PyTorch's message with the real two-H200 report
// ranks the same-device cause first, and says why the others do not apply.
func TestMatchRealH200RanksSameDeviceFirst(t *testing.T) {
	d := diagnoseJSON(t, 0, "", "match", "--json", "--probe", "../../probe/testdata/real/h200x2.json", torchPeerMsg)
	if len(d.Messages) != 1 {
		t.Fatalf("%d messages", len(d.Messages))
	}
	m := d.Messages[0]
	if got := causeIDs(m.Causes); len(got) != 3 || got[0] != "cuda/peer-access-to-same-device" {
		t.Fatalf("causes %v", got)
	}
	if m.Verdict != "applies" || m.Causes[0].Verdict != "applies" || m.TellApart != nil || m.Collect != nil {
		t.Errorf("message %+v", m)
	}
	for _, c := range m.Causes[1:] {
		if c.Verdict != "does_not_apply" || len(c.Reasons) == 0 {
			t.Errorf("%s: %s %v", c.ID, c.Verdict, c.Reasons)
		}
	}
	hw := m.Causes[1]
	if hw.ID != "cuda/peer-access-unsupported-by-hardware" {
		hw = m.Causes[2]
	}
	for _, w := range hw.Workarounds {
		if strings.Contains(w.Text, "NCCL_P2P_DISABLE=1") && (w.Verdict != "does_not_apply" || !strings.Contains(strings.Join(w.Reasons, ";"), "GPU0-GPU1 over NV18")) {
			t.Errorf("NCCL_P2P_DISABLE workaround: %s %v", w.Verdict, w.Reasons)
		}
	}
	// The same in the terminal.
	_, out, _ := call("", "match", "--probe", "../../probe/testdata/real/h200x2.json", torchPeerMsg)
	if !strings.Contains(out, "1. cuda/peer-access-to-same-device [cudaErrorPeerAccessUnsupported] — applies: P2P works between all GPU pairs (GPU0-GPU1 over NV18)") {
		t.Errorf("text output:\n%s", out)
	}
}

// Each layer's wording of the message finds all three causes, and a
// machine's facts pick a different one first.
func TestCausesByMachineAndLayer(t *testing.T) {
	for _, c := range []struct{ probe, first string }{
		{"../../probe/testdata/golden/mig-enabled.json", "cuda/peer-access-under-mig"},
		{"../../probe/testdata/golden/pcie4-blocked.json", "cuda/peer-access-unsupported-by-hardware"},
		{"../../probe/testdata/golden/one-gpu.json", "cuda/peer-access-to-same-device"},
	} {
		for _, msg := range []string{torchPeerMsg, "cudaErrorPeerAccessUnsupported: peer access is not supported between these two devices",
			"cuCtxEnablePeerAccess(own context) -> CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: peer access is not supported between these two devices"} {
			d := diagnoseJSON(t, 0, "", "match", "--json", "--probe", c.probe, msg)
			ids := causeIDs(d.Messages[0].Causes)
			if ids[0] != c.first || len(ids) < 3 {
				t.Errorf("%s, %q: causes %v, want %s first", c.probe, msg, ids, c.first)
			}
		}
	}
}

// Without facts, causes come by evidence (the real reports their entries
// cite), and the message names what would tell them apart.
func TestExplainWithoutFactsSaysWhatTellsCausesApart(t *testing.T) {
	d := diagnoseJSON(t, 0, torchPeerMsg+"\n", "explain", "--json")
	m := d.Messages[0]
	if ids := causeIDs(m.Causes); strings.Join(ids, " ") != "cuda/peer-access-unsupported-by-hardware cuda/peer-access-under-mig cuda/peer-access-to-same-device" {
		t.Errorf("causes %v, want by the reports their entries cite", ids)
	}
	if m.Verdict != "unknown" || m.TellApart == nil || !strings.Contains(strings.Join(m.TellApart.Facts, " "), "p2p.all_pairs_ok") || m.TellApart.Run != "p2p-probe" ||
		!strings.Contains(strings.Join(m.TellApart.Paste, " "), "nvidia-smi topo -p2p r") || !strings.Contains(strings.Join(m.TellApart.Facts, " "), "mig.enabled") {
		t.Errorf("message %+v, tell apart %+v", m, m.TellApart)
	}
	_, out, _ := call(torchPeerMsg, "explain")
	if !strings.Contains(out, "To tell them apart, find out: ") || !strings.Contains(out, "P2P between all GPU pairs") || !strings.Contains(out, "Run `p2p-probe`, or paste the output of ") || !strings.Contains(out, "`nvidia-smi topo -p2p r`") {
		t.Errorf("text:\n%s", out)
	}
}

// When every known cause is ruled out, the answer says so, shows why, and
// what to collect next.
func TestEveryCauseRuledOut(t *testing.T) {
	kb := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS("../../kb"), ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		data, err := os.ReadFile("../../kb/" + p)
		if p == "jax/unable-to-enable-peer-access.json" {
			data = bytes.Replace(data, []byte(`"domain": "jax",`), []byte(`"domain": "jax", "applies_when": "mig.enabled",`), 1)
		}
		kb[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, kb); err != nil {
		t.Fatal(err)
	}
	msg := "2024-05-01 12:00:02.456 W external/xla/xla/pjrt/gpu/se_gpu_pjrt_client.cc:1134] Unable to enable peer access between GPUs 0 and 1; status: INTERNAL"
	d := diagnoseJSON(t, 0, "", "match", "--json", "--kb", dir, "--probe", "../../probe/testdata/real/h200x2.json", msg)
	m := d.Messages[0]
	if m.Verdict != "ruled_out" || len(m.Collect) < 2 || m.Causes[0].Verdict != "does_not_apply" || m.Causes[0].Reasons[0] != "no MIG" {
		t.Errorf("%+v", m)
	}
	_, out, _ := call("", "match", "--kb", dir, "--probe", "../../probe/testdata/real/h200x2.json", msg)
	for _, want := range []string{"None of the 1 known causes of this message fits the facts:", "✗ jax/unable-to-enable-peer-access — does not apply: no MIG",
		"What to collect next:", "p2p-probe --test"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

// Without text, match lists every entry that may apply, none that does not.
func TestMatchWithoutText(t *testing.T) {
	code, out, errOut := call("", "match", "--json", "--probe", "../../probe/testdata/real/h200x2.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res []map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	for _, a := range res {
		if a["verdict"] == "does_not_apply" {
			t.Errorf("%v listed though it does not apply", a["id"])
		}
	}
}

// repeatReader yields a real-shaped log of n bytes (lines of the NCCL
// reproduction over and over), then tail: generated as it is read, so a
// test can feed more than the memory it wants to use.
type repeatReader struct {
	lines []byte
	n     int64
	off   int
	tail  *strings.Reader
}

func newRepeatReader(t testing.TB, n int64, tail string) *repeatReader {
	data, err := os.ReadFile("../../kb/repro/nccl_default.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	return &repeatReader{lines: data, n: n, tail: strings.NewReader(tail)}
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return r.tail.Read(p)
	}
	k := copy(p[:min(int64(len(p)), r.n)], r.lines[r.off:])
	r.off = (r.off + k) % len(r.lines)
	r.n -= int64(k)
	return k, nil
}

// The message at the end of a log larger than the 64 MiB explain once
// read is found.
func TestExplainFindsTheErrorAtTheEndOfALargeLog(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 80 MB")
	}
	var out, errb bytes.Buffer
	in := newRepeatReader(t, 80<<20, "\n[rank1]: "+torchPeerMsg+"\n")
	code := run([]string{"explain", "--json"}, in, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var d diagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Errors != 1 || d.Messages[0].Causes[0].ID != "cuda/peer-access-unsupported-by-hardware" || d.Messages[0].Line < 500000 {
		t.Errorf("errors %d, first %+v", d.Errors, d.Messages[0])
	}
}

// A line of 10 MB is read whole, in pieces: the messages in its middle and
// at its end are found, and stderr says how the line was read.
func TestExplainLongLine(t *testing.T) {
	json := `{"log": "` + strings.Repeat("x", 5<<20) + ` I tensorflow/core/common_runtime/gpu/gpu_device.cc:779] Peer access not supported between device ordinals 0 and 1 ` +
		strings.Repeat("y", 5<<20) + ` ` + torchPeerMsg + `"}`
	code, out, errOut := call("first line\n"+json+"\nlast line\n", "explain", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var d diagnosis
	if err := jsonUnmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range d.Messages {
		if m.Line != 2 {
			t.Errorf("message on line %d", m.Line)
		}
		ids = append(ids, m.Causes[0].ID)
	}
	if strings.Join(ids, " ") != "cuda/peer-access-unsupported-by-hardware tensorflow/gpu-peer-access-error" { // errors, then notes
		t.Errorf("found %v", ids)
	}
	if !strings.Contains(errOut, "line 2 is 10.5 MB long: read in pieces") {
		t.Errorf("stderr: %q", errOut)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// syncBuffer is a buffer two goroutines write and read.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	ch chan struct{} // a write happened
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case s.ch <- struct{}{}:
	default:
	}
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// --follow passes the input through unchanged as it arrives, and explains a
// message on stderr before the input has ended.
func TestExplainFollow(t *testing.T) {
	pr, pw := io.Pipe()
	stdout := &syncBuffer{ch: make(chan struct{}, 1)}
	stderr := &syncBuffer{ch: make(chan struct{}, 1)}
	done := make(chan int)
	go func() { done <- run([]string{"explain", "--follow"}, pr, stdout, stderr) }()
	// A progress bar without a line ending passes through at once.
	io.WriteString(pw, "epoch 1 [=====     ]\r")
	for !strings.Contains(stdout.String(), "epoch 1") {
		<-stdout.ch
	}
	io.WriteString(pw, "\nstep 1\n"+torchPeerMsg+"\n")
	for !strings.Contains(stderr.String(), "3 known causes") {
		<-stderr.ch
	}
	if strings.Contains(stderr.String(), "Recognized:") {
		t.Error("summary before the input ended")
	}
	io.WriteString(pw, "step 2\n")
	pw.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	if want := "epoch 1 [=====     ]\r\nstep 1\n" + torchPeerMsg + "\nstep 2\n"; stdout.String() != want {
		t.Errorf("stdout %q, want the input unchanged", stdout.String())
	}
	if e := stderr.String(); !strings.HasSuffix(e, "Recognized: 1 error message(s), 0 note(s).\n") || strings.Count(e, "● line 3:") != 1 {
		t.Errorf("stderr:\n%s", e)
	}
	// Exit status as without --follow.
	if code, _, _ := call("all good\n", "explain", "--tee"); code != 1 {
		t.Errorf("no error: exit %d", code)
	}
	// --json: one object per message as it appears, then the summary.
	code, out, errOut := call("x\n"+torchPeerMsg+"\n", "explain", "--follow", "--json")
	sc := bufio.NewScanner(strings.NewReader(errOut))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	var last struct {
		Facts         []any
		Errors, Notes int
	}
	if len(lines) == 2 {
		json.Unmarshal([]byte(lines[1]), &last)
	}
	if code != 0 || out != "x\n"+torchPeerMsg+"\n" || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"line":2,`) || last.Errors != 1 || last.Notes != 0 || last.Facts == nil {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
