package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const testReports = "../../internal/rules/testdata/reports/"

// A report with a test: match prints the matrices, the checks with the
// rules' reasons and the probe's verdict before the entries.
func TestMatchPrintsTheTest(t *testing.T) {
	code, out, errOut := call("", "match", "--probe", testReports+"h200x2-test-zeros.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"2 GPUs, 2 ordered pairs, 4 MiB per copy, 1.9 s",
		"     0    1921.4        41.3 F",
		"     1      41.0      1918.7  ",
		"     0    1921.4        20.9 F",
		"✗ Data check: data arrived wrong: GPU0->GPU1: 4 MiB copied, 1048576 words wrong, first at offset 0: expected 0x9e3779b9, got 0x00000000",
		"p2p-probe says: Data arrived wrong between GPU0->GPU1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("match output lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "p2p-probe says") > strings.Index(out, "●") {
		t.Errorf("the test must come before the entries:\n%s", out)
	}
	_, out, _ = call("", "match", "--probe", testReports+"h200x2-test-slow.json")
	if !strings.Contains(out, "24.1 S") || !strings.Contains(out, "✗ Pairs where P2P is not faster than through the host: 2 (GPU0->GPU1: 24.1 GB/s with P2P, 25.3 GB/s without") {
		t.Errorf("slow pairs not marked:\n%s", out)
	}
	_, out, _ = call("", "match", "--lang", "zh", "--probe", testReports+"h200x2-test-timeout.json")
	if !strings.Contains(out, "单向带宽") || !strings.Contains(out, "389.6 T") || !strings.Contains(out, "✗ 超时的 GPU 对：1 (GPU0->GPU1: timed out in ipc_cumem: cuMemImportFromShareableHandle)") {
		t.Errorf("zh timeout:\n%s", out)
	}
	_, out, _ = call("", "match", "--probe", testReports+"h200x2-test-nolib.json")
	if !strings.HasPrefix(out, "P2P test (p2p-probe --test): did not run: libcuda.so.1: cannot open shared object file") {
		t.Errorf("a test that could not run:\n%s", out)
	}
	// One GPU: its own copy and the host's figures.
	_, out, _ = call("", "match", "--probe", testReports+"h100-test-one-gpu.json")
	if !strings.Contains(out, "     0    1287.6  ") || !strings.Contains(out, "Host to GPU / GPU to host (GB/s): GPU0 52.8 / 53.4") {
		t.Errorf("one GPU:\n%s", out)
	}
	// Without a test nothing is printed before the entries.
	_, out, _ = call("", "match", "--probe", "../../probe/testdata/real/h200x2.json")
	if strings.Contains(out, "P2P test (p2p-probe --test)") || !strings.HasPrefix(out, "●") {
		t.Errorf("no test, yet:\n%s", out[:min(len(out), 300)])
	}
}

func TestMatchJSONWithTest(t *testing.T) {
	var res struct {
		Test struct {
			Ran    bool             `json:"ran"`
			On     [][]*float64     `json:"bandwidth_p2p_on"`
			Off    [][]*float64     `json:"bandwidth_p2p_off"`
			Pairs  []map[string]any `json:"pairs"`
			Checks []struct {
				Fact    string   `json:"fact"`
				Holds   *bool    `json:"holds"`
				Reasons []string `json:"reasons"`
			} `json:"checks"`
			Verdict string `json:"verdict"`
		} `json:"test"`
		Messages []map[string]any `json:"messages"`
	}
	code, out, errOut := call("", "match", "--json", "--probe", testReports+"h200x2-test-refused.json", "peer access is not supported between these two devices")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	tr := res.Test
	if !tr.Ran || len(tr.On) != 2 || tr.On[0][1] != nil || tr.On[0][0] == nil || *tr.On[0][0] != 1921.4 || tr.Pairs[0]["status"] != "failed" {
		t.Errorf("matrix %v, pairs %v", tr.On, tr.Pairs)
	}
	got := map[string]string{}
	for _, c := range tr.Checks {
		h := "null"
		if c.Holds != nil {
			h = map[bool]string{true: "true", false: "false"}[*c.Holds]
		}
		got[c.Fact] = h + " " + strings.Join(c.Reasons, "; ")
	}
	if got["p2p.test.ipc_ok"] != "false cross-process P2P failed: GPU0->GPU1 ipc_legacy: cuIpcOpenMemHandle: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED; GPU1->GPU0 ipc_legacy: cuIpcOpenMemHandle: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" ||
		!strings.HasPrefix(got["p2p.test.failed_pairs == 0"], "false pairs failing the P2P test 2 (GPU0->GPU1: enabling peer access: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED") {
		t.Errorf("checks %q", got)
	}
	if tr.Verdict != "Peer access was refused on 2 pairs: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED." || len(res.Messages) == 0 || res.Messages[0]["causes"] == nil {
		t.Errorf("verdict %q, messages %v", tr.Verdict, res.Messages)
	}
	// The healthy run: the off figures are there too.
	_, out, _ = call("", "match", "--json", "--probe", testReports+"h200x2-test-ok.json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if *res.Test.On[0][1] != 389.62 || *res.Test.Off[1][0] != 21.64 {
		t.Errorf("healthy matrix on %v off %v", res.Test.On, res.Test.Off)
	}
}
