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

// A query over the limit, or a limit out of range, is refused with a
// message rather than searched in part: exit status 2, an input error.
func TestSearchRefusesWhatItWouldCut(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"search", strings.Repeat("peer access ", 6000)}, "the query is 72000 bytes long; a query may have at most 65536: search for the error line alone"},
		{[]string{"search", "--limit", "101", "peer"}, "--limit is 101; it must be from 1 to 100"},
		{[]string{"search", "--limit", "0", "peer"}, "--limit is 0; it must be from 1 to 100"},
	} {
		code, out, errOut := call("", c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%.40q: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.want)
		}
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

// audit prints a row per entry and the totals; a KB that lint refuses
// fails it, naming the problem.
func TestAudit(t *testing.T) {
	code, out, errOut := call("", "audit", "--kb", "../../kb")
	if code != 0 || !strings.Contains(out, "tensorflow/gpu-peer-access-error") || !strings.Contains(out, "0 invented codes") || !strings.Contains(out, "0 without basis") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	code, _, errOut = call("", "audit", "--kb", "../../internal/kb/testdata/broken/rate-range")
	if code != 1 || !strings.Contains(errOut, "workarounds[1].success_rate:") {
		t.Errorf("exit %d: %s", code, errOut)
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

// new writes a skeleton into the KB folder from an error line in a log, says
// where, and refuses to overwrite an entry; lint refuses the skeleton until
// its TODOs are written.
func TestNewWritesASkeleton(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "train.log")
	os.WriteFile(log, []byte("step 1 loss 2.3\n[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\n"), 0o644)
	kbDir := filepath.Join(dir, "kb")
	schema, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(kbDir, 0o755)
	os.WriteFile(filepath.Join(kbDir, "schema.json"), schema, 0o644)
	code, out, errOut := call("", "new", "--kb", kbDir, "--from-log", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	path := strings.SplitN(out, "\n", 2)[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("new printed %q: %v", path, err)
	}
	if !strings.Contains(string(data), `"signature": "RuntimeError: CUDA error: peer access is not supported between these two devices"`) {
		t.Errorf("skeleton lacks the verbatim signature:\n%s", data)
	}
	if code, _, errOut = call("", "new", "--kb", kbDir, "--from-log", log); code == 0 || !strings.Contains(errOut, "exists already") {
		t.Errorf("a second new over the same entry: exit %d, %s", code, errOut)
	}
	code, _, errOut = call("", "lint", "--kb", kbDir, "--content", "../../content")
	if code == 0 || !strings.Contains(errOut, "root_cause: still says TODO") {
		t.Errorf("lint of a skeleton: exit %d, %s", code, errOut)
	}
}
