package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func call(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSearchJSON(t *testing.T) {
	code, out, errOut := call("", "search", "--json", "peer access is not supported between these two devices")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var hits []struct {
		ID, Kind, Title, URL string
		Score                float64
	}
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(hits) == 0 || hits[0].ID != "cuda/peer-access-unsupported-by-hardware" || hits[0].Kind != "entry" || hits[0].URL != "/en/kb/cuda/peer-access-unsupported-by-hardware/" {
		t.Errorf("hits = %+v", hits)
	}
	_, out, _ = call("", "search", "--lang", "zh", "--json", "--base-url", "https://kb.example.org/docs", "对等访问")
	if !strings.Contains(out, `"url": "https://kb.example.org/docs/zh/kb/cuda/peer-access-unsupported-by-hardware/"`) {
		t.Errorf("zh search with base URL: %s", out)
	}
}

func TestExplainLogFromStdin(t *testing.T) {
	log := "2024-05-01 12:00:01.123 I tensorflow/core ... started\n" +
		"2017-06-28 16:04:54.002509: I tensorflow/core/common_runtime/gpu/gpu_device.cc:779] Peer access not supported between device ordinals 1 and 2\n" +
		"Traceback (most recent call last):\n  File \"x.py\", line 3\nRuntimeError: CUDA error: peer access is not supported between these two devices (cudaErrorPeerAccessUnsupported)\n"
	code, out, errOut := call(log, "explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"[GPA]", "[cudaErrorPeerAccessUnsupported]", "Root cause", "What works", "[ 80%]", "What does not work", "More: /en/kb/tensorflow/gpu-peer-access-error/"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
	// Workarounds come by success rate.
	if strings.Index(out, "[ 80%]") > strings.Index(out, "[ 75%]") {
		t.Error("workarounds are not ordered by success rate")
	}
}

func TestExplainNothingExitsOne(t *testing.T) {
	code, out, _ := call("all good\n", "explain", "--lang", "zh", "-")
	if code != 1 || !strings.Contains(out, "没有找到") {
		t.Errorf("exit %d: %s", code, out)
	}
	code, out, _ = call("", "explain", "--json", "nothing to see")
	if code != 1 || strings.TrimSpace(out) != "[]" {
		t.Errorf("exit %d: %s", code, out)
	}
}

func TestLintBrokenKB(t *testing.T) {
	code, _, errOut := call("", "lint", "--kb", "../../internal/kb/testdata/broken/regex-not-portable")
	if code != 1 || !strings.Contains(errOut, "kb/cuda/peer-access-unsupported-by-hardware.json:6:3: regex:") && !strings.Contains(errOut, "peer-access-unsupported-by-hardware.json:6:3: regex:") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, _ := call("", "nonsense"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
}

// A real NCCL log, recorded with NCCL_P2P_DISABLE=1 on two H200s.
func TestExplainRealNCCLLog(t *testing.T) {
	log, err := os.ReadFile("../../kb/repro/nccl_p2p_disable.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := call(string(log), "explain", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var xs []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &xs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range xs {
		got = append(got, x.ID)
	}
	for _, want := range []string{"nccl/p2p-disabled-by-environment", "nccl/p2p-off-shm-transport"} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("explain found %v, want %s among them", got, want)
		}
	}
}

func matchJSON(t *testing.T, probe string, args ...string) []map[string]any {
	t.Helper()
	code, out, errOut := call("", append([]string{"match", "--json", "--probe", probe}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res []map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return res
}

func workaroundVerdict(t *testing.T, a map[string]any, contains string) (string, string) {
	t.Helper()
	for _, w := range a["workarounds"].([]any) {
		m := w.(map[string]any)
		if strings.Contains(m["text"].(string), contains) {
			var reasons []string
			for _, r := range m["reasons"].([]any) {
				reasons = append(reasons, r.(string))
			}
			return m["verdict"].(string), strings.Join(reasons, "; ")
		}
	}
	t.Fatalf("no workaround with %q", contains)
	return "", ""
}

// The real two-H200 reading: P2P works everywhere, so the hardware entry and
// its NCCL_P2P_DISABLE workaround do not apply, and the page says why.
func TestMatchRealH200(t *testing.T) {
	sig := "RuntimeError: CUDA error: peer access is not supported between these two devices (cudaErrorPeerAccessUnsupported)"
	byID := func(res []map[string]any, id string) map[string]any {
		for _, a := range res {
			if a["id"] == id {
				return a
			}
		}
		t.Fatalf("%s not among %v", id, res)
		return nil
	}
	res := []map[string]any{byID(matchJSON(t, "../../probe/testdata/real/h200x2.json", sig), "cuda/peer-access-unsupported-by-hardware")}
	if res[0]["verdict"] != "does_not_apply" {
		t.Fatalf("match = %v", res)
	}
	if v, why := workaroundVerdict(t, res[0], "NCCL_P2P_DISABLE=1"); v != "does_not_apply" || !strings.Contains(why, "GPU0-GPU1 over NV18") {
		t.Errorf("NCCL_P2P_DISABLE workaround: %s (%s)", v, why)
	}
	// Four PCIe GPUs with blocked pairs: the same workaround applies.
	res = []map[string]any{byID(matchJSON(t, "../../probe/testdata/golden/pcie4-blocked.json", sig), "cuda/peer-access-unsupported-by-hardware")}
	if v, _ := workaroundVerdict(t, res[0], "NCCL_P2P_DISABLE=1"); v != "applies" || res[0]["verdict"] != "applies" {
		t.Errorf("on blocked PCIe pairs: entry %v, workaround %s", res[0]["verdict"], v)
	}
	// Without text: every entry that may apply, none that does not.
	for _, a := range matchJSON(t, "../../probe/testdata/real/h200x2.json") {
		if a["verdict"] == "does_not_apply" {
			t.Errorf("%v listed though it does not apply", a["id"])
		}
	}
}

func TestMatchRefusesWhatIsNotAProbeReport(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"kb entry":  `{"id": "x/y", "signature": "boom"}`,
		"not json":  "<script>alert(1)</script>",
		"deep":      strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		"large":     `{"schema_version": 1, "probe": {"name": "p2p-probe"}, "x": "` + strings.Repeat("a", 2<<20) + `"}`,
		"extra":     `{"schema_version": 1, "probe": {"name": "p2p-probe", "version": "1"}, "evil": true}`,
		"version 9": `{"schema_version": 9, "probe": {"name": "p2p-probe"}}`,
	}
	for name, doc := range cases {
		path := dir + "/" + strings.ReplaceAll(name, " ", "_") + ".json"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := call("", "match", "--probe", path)
		if code != 1 || !strings.Contains(errOut, "p2p-probe report") {
			t.Errorf("%s: exit %d: %s", name, code, errOut)
		}
	}
}

// A real torchrun log with two ranks on one GPU: every layer of the failure
// is explained, NCCL's cause first among them.
func TestExplainDuplicateGPULog(t *testing.T) {
	log, err := os.ReadFile("../../kb/repro/nccl_duplicate_gpu.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := call(string(log), "explain", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"nccl/duplicate-gpu-detected", "pytorch/nccl-invalid-usage", "pytorch/torchrun-child-failed"} {
		if !strings.Contains(out, `"id": "`+want+`"`) {
			t.Errorf("explain lacks %s", want)
		}
	}
}

// The same message has several causes; a probe report tells them apart.
func TestMatchTellsCausesApartByMachine(t *testing.T) {
	sig := "RuntimeError: CUDA error: peer access is not supported between these two devices (cudaErrorPeerAccessUnsupported)"
	verdicts := func(probe string) map[string]string {
		out := map[string]string{}
		for _, a := range matchJSON(t, probe, sig) {
			out[a["id"].(string)] = a["verdict"].(string)
		}
		return out
	}
	mig := verdicts("../../probe/testdata/golden/mig-enabled.json")
	if mig["cuda/peer-access-under-mig"] != "applies" {
		t.Errorf("on a MIG machine: %v", mig)
	}
	h200 := verdicts("../../probe/testdata/real/h200x2.json")
	if h200["cuda/peer-access-under-mig"] != "does_not_apply" || h200["cuda/peer-access-unsupported-by-hardware"] != "does_not_apply" {
		t.Errorf("on two NVLinked H200s without MIG: %v", h200)
	}
}

// Only edits of entries take serve --watch's fast path.
func TestEntriesOnly(t *testing.T) {
	dir := t.TempDir()
	kbDir := filepath.Join(dir, "kb")
	os.MkdirAll(filepath.Join(kbDir, "cuda"), 0o755)
	entry := filepath.Join(kbDir, "cuda", "x.json")
	os.WriteFile(entry, []byte("{}"), 0o644)
	gone := filepath.Join(kbDir, "cuda", "sedAb12Cd") // an editor's temporary file, renamed away
	for _, c := range []struct {
		changed []string
		want    bool
	}{
		{[]string{entry}, true},
		{[]string{entry, gone}, true},
		{[]string{entry, filepath.Join(kbDir, "repro", "gone.txt")}, false},
		{[]string{gone}, false},
		{[]string{filepath.Join(kbDir, "schema.json")}, false},
		{[]string{filepath.Join(kbDir, "repro", "a.txt")}, false},
		{[]string{filepath.Join(kbDir, "repro", "out.json")}, false},
		{[]string{filepath.Join(dir, "templates", "entry.html")}, false},
		{[]string{entry, filepath.Join(dir, "content", "a.md")}, false},
		{nil, false},
	} {
		if got := entriesOnly(c.changed, kbDir); got != c.want {
			t.Errorf("entriesOnly(%v) = %v, want %v", c.changed, got, c.want)
		}
	}
}

// build --cpuprofile and --memprofile write profiles: gzipped protocol
// buffers, as pprof reads them.
func TestBuildProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	code, _, stderr := call("", "build", "--out", filepath.Join(dir, "public"), "--cpuprofile", cpu, "--memprofile", mem)
	if code != 0 {
		t.Fatalf("build exited %d: %s", code, stderr)
	}
	for _, p := range []string{cpu, mem} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			t.Fatalf("%s: %v", p, err)
		}
		data, err := io.ReadAll(zr)
		f.Close()
		if err != nil || len(data) < 100 {
			t.Errorf("%s: %d bytes of profile (%v)", p, len(data), err)
		}
	}
}
