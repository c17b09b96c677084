package diagnose

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// Ordinals a report should not have still give a bounded matrix: negative
// ones are left out, and the matrix stops at 64 GPUs while the pairs list
// keeps every pair.
func TestTestResultBounds(t *testing.T) {
	tt := &facts.Test{Ran: true, Devices: []facts.TestDevice{{Ordinal: -1, LocalGBps: 1}, {Ordinal: 1 << 40, LocalGBps: 2}},
		Pairs: []facts.TestPair{{Src: 0, Dst: 1 << 40, Status: "failed", Bandwidth: &facts.Bandwidth{P2POn: 3}}, {Src: -5, Dst: 2, Status: "slow"}}}
	r := testResult(tt, rules.Facts{})
	if len(r.P2POn) != 64 || len(r.P2POn[0]) != 64 || len(r.Pairs) != 2 {
		t.Fatalf("matrix %dx%d, %d pairs", len(r.P2POn), len(r.P2POn[0]), len(r.Pairs))
	}
	for i, row := range r.P2POn {
		for j, v := range row {
			if v != nil {
				t.Errorf("cell %d,%d = %v from an ordinal out of range", i, j, *v)
			}
		}
	}
	var out bytes.Buffer
	writeTest(&out, tt, rules.Facts{}, "en")
	if n := strings.Count(out.String(), "\n    63 "); n != 2 {
		t.Errorf("%d rows of GPU 63 in the two matrices:\n%s", n, out.String())
	}
}

// The checks in match --json are the rules' verdicts on the same report.
func TestTestResultChecks(t *testing.T) {
	data, err := os.ReadFile("../rules/testdata/reports/h200x2-test-timeout.json")
	if err != nil {
		t.Fatal(err)
	}
	var rep facts.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	r := testResult(rep.Test, rules.FromReport(&rep))
	got := map[string]string{}
	for _, c := range r.Checks {
		h := "null"
		if c.Holds != nil {
			h = map[bool]string{true: "true", false: "false"}[*c.Holds]
		}
		got[c.Fact] = h
	}
	want := map[string]string{"p2p.test.data_ok": "true", "p2p.test.ipc_ok": "null", "p2p.test.failed_pairs == 0": "true",
		"p2p.test.slow_pairs == 0": "true", "p2p.test.timeouts == 0": "false"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s holds %s, want %s", k, got[k], v)
		}
	}
	if *r.P2POn[0][1] != 389.62 || *r.P2POff[1][0] != 21.64 || *r.P2POn[1][1] != 1918.7 {
		t.Errorf("matrix %v", r.P2POn)
	}
}
