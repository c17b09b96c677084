package manifest

import (
	"bytes"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// TestRepositoryManifest checks the repository's manifest against its KB:
// every message that names an entry is matched by that entry's pattern once
// its placeholders are filled, and the counts per source are printed.
func TestRepositoryManifest(t *testing.T) {
	k, sources := load(t, os.DirFS("../../kb"), os.DirFS("../../manifest"))
	if len(sources) == 0 {
		t.Fatal("no manifest files under manifest/")
	}
	problems, err := Check(k, sources)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	var buf bytes.Buffer
	if err := WriteCounts(&buf, Counts(sources)); err != nil {
		t.Fatal(err)
	}
	t.Logf("harvested messages per source:\n%s", buf.String())
}

func TestInstantiate(t *testing.T) {
	cases := []struct {
		format string
		args   []string
		want   string
	}{
		{"Could not enable P2P between dev %d(=%lx) and dev %d(=%lx)", nil, "Could not enable P2P between dev 3(=81000) and dev 3(=81000)"},
		{"Channel %02d/%01d : %d[%d] -> %d[%d] via P2P/IPC%s%s", []string{"00", "0", "0", "0", "1", "1", "", ""}, "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"},
		{"Cuda failure %d '%s'", []string{"1", "invalid argument"}, "Cuda failure 1 'invalid argument'"},
		{"size %zu ptr %p %.2f%% %" + "s", nil, "size 3 ptr 0x7f3a2c000000 1.5% value"},
		{"Custom allreduce is disabled because {reason}. To silence this", nil, "Custom allreduce is disabled because 3. To silence this"},
		{"world size {} rank {:d}", []string{"8"}, "world size 8 rank 3"},
	}
	for _, c := range cases {
		if got := Instantiate(c.format, c.args); got != c.want {
			t.Errorf("Instantiate(%q, %q) = %q, want %q", c.format, c.args, got, c.want)
		}
	}
}

func TestLineDecoration(t *testing.T) {
	s := &Source{Printed: map[string]string{"WARN": "host:1:2 [0] {file}:{line} NCCL WARN {message}"}, StripPath: "src/"}
	got := s.Line(Message{File: "src/transport/p2p.cc", Line: 250, Level: "WARN", Message: "cudaIpcGetMemHandle failed : %s", Args: []string{"invalid argument"}})
	want := "host:1:2 [0] transport/p2p.cc:250 NCCL WARN cudaIpcGetMemHandle failed : invalid argument"
	if got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	k := &Source{Printed: map[string]string{"peer_err": "nvidia-peermem {func}:{line} ERROR {message}"}}
	got = k.Line(Message{File: "nvidia-peermem.c", Line: 139, Level: "peer_err", Function: "nv_get_p2p_free_callback", Message: "detected invalid context, skipping further processing"})
	if want := "nvidia-peermem nv_get_p2p_free_callback:139 ERROR detected invalid context, skipping further processing"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got := s.Line(Message{Level: "ERROR", Message: "plain %d"}); got != "plain 3" {
		t.Errorf("a level without decoration: %q", got)
	}
}

const testEntry = `{"id": "x/peer", "signature": "peer access is not supported between dev 0", "regex": "peer access is not supported between dev \\d+",
 "domain": "x", "category": "c", "root_cause": "r", "versions": [], "dead_ends": [], "workarounds": [],
 "error_code": "x-peer", "verification_tier": "community", "confidence": 0.5,
 "signature_source": {"kind": "source", "url": "https://example.org/a#L1", "line": "WARN(\"peer access is not supported between dev %d\", dev);"}}`

// load reads a KB and a manifest, failing the test on an error.
func load(t *testing.T, kbFS, manifestFS fs.FS) (*kb.KB, []*Source) {
	t.Helper()
	k, err := kb.Load(kbFS)
	if err != nil {
		t.Fatal(err)
	}
	sources, err := Load(manifestFS)
	if err != nil {
		t.Fatal(err)
	}
	return k, sources
}

// testKB is a KB of one entry, x/peer, and a manifest of the file given.
func testKB(t *testing.T, manifestJSON string) (kbFS, manifestFS fstest.MapFS) {
	t.Helper()
	schema, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	kbFS = fstest.MapFS{
		"schema.json": {Data: schema},
		"x/peer.json": {Data: []byte(testEntry)},
	}
	return kbFS, fstest.MapFS{"x.json": {Data: []byte(manifestJSON)}}
}

// TestCheckFindsProblems runs Check on a manifest whose entries are wrong in
// each way it can be: a pattern that does not match and an unknown entry.
func TestCheckFindsProblems(t *testing.T) {
	kbFS, manifestFS := testKB(t, `{"source": "X", "repository": "https://github.com/x/x", "ref": "v1",
 "printed": {"WARN": "[{file}:{line}] WARN {message}"}, "messages": [
 {"file": "a.c", "line": 10, "level": "WARN", "message": "peer access is not supported between dev %d", "entry": "x/peer"},
 {"file": "a.c", "line": 20, "level": "WARN", "message": "peer access is not supported between dev %s", "entry": "x/peer"},
 {"file": "a.c", "line": 30, "level": "WARN", "message": "other", "entry": "x/none"},
 {"file": "a.c", "line": 40, "level": "INFO", "message": "trace", "out_of_scope": "a trace"},
 {"file": "a.c", "line": 50, "level": "WARN", "message": "gap %s", "gap": "no entry yet"}]}`)
	k, sources := load(t, kbFS, manifestFS)
	problems, err := Check(k, sources)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 2 {
		t.Fatalf("want 2 problems, got %d: %v", len(problems), problems)
	}
	if p := problems[0]; p.URL != "https://github.com/x/x/blob/v1/a.c#L20" || !strings.Contains(p.Why, "does not match") || p.Line != "[a.c:20] WARN peer access is not supported between dev value" {
		t.Errorf("first problem: %+v", p)
	}
	if p := problems[1]; p.Entry != "x/none" || !strings.Contains(p.Why, "not in the KB") {
		t.Errorf("second problem: %+v", p)
	}
	c := Counts(sources)[0]
	if c != (Count{Source: "X", Messages: 5, Covered: 3, OutOfScope: 1, Gaps: 1}) {
		t.Errorf("counts: %+v", c)
	}
	ids, err := MatchedBy(k, sources[0], sources[0].Messages[0])
	if err != nil || len(ids) != 1 || ids[0] != "x/peer" {
		t.Errorf("MatchedBy = %v, %v", ids, err)
	}
}

func TestLoadRefusesIncompleteMessages(t *testing.T) {
	fsys := fstest.MapFS{"y.json": {Data: []byte(`{"source": "Y", "repository": "https://github.com/y/y", "ref": "v1", "messages": [
 {"file": "a.c", "line": 1, "message": "both", "entry": "x/peer", "out_of_scope": "why"},
 {"file": "a.c", "line": 2, "message": "neither"},
 {"file": "", "line": 3, "message": "no file", "gap": "g"}]}`)}}
	_, err := Load(fsys)
	if err == nil {
		t.Fatal("Load accepted messages without a status or place")
	}
	for _, want := range []string{"messages[0] (a.c:1): exactly one", "messages[1] (a.c:2): exactly one", "messages[2] (:3): file and line"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	_, err = Load(fstest.MapFS{"z.json": {Data: []byte(`{"source": "Z", "unknown": 1}`)}})
	if err == nil || !strings.Contains(err.Error(), "z.json") {
		t.Errorf("unknown field: %v", err)
	}
}

func TestAuditReportsUncoveredMessages(t *testing.T) {
	kbFS, manifestFS := testKB(t, `{"source": "X", "repository": "https://github.com/x/x", "ref": "v1", "messages": [
 {"file": "a.c", "line": 1, "message": "peer access is not supported between dev %d", "entry": "x/peer"},
 {"file": "a.c", "line": 2, "message": "unrelated", "entry": "x/peer"}]}`)
	var buf bytes.Buffer
	err := Audit(&buf, kbFS, manifestFS)
	if err == nil || !strings.Contains(err.Error(), "1 manifest messages") || !strings.Contains(err.Error(), "a.c#L2") {
		t.Errorf("Audit error = %v", err)
	}
	if !strings.Contains(buf.String(), "X") || !strings.Contains(buf.String(), "total") {
		t.Errorf("counts not printed:\n%s", buf.String())
	}
}
