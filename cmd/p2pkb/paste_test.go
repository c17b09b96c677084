package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

func readFile(t *testing.T, paths ...string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// explain lists the facts of the log with their lines, in text and JSON.
func TestExplainListsFacts(t *testing.T) {
	log := readFile(t, "../../internal/paste/testdata/h200x2-topo-m.txt", "../../kb/repro/nccl_p2p_disable.h200x2.txt")
	code, out, _ := call(log, "explain")
	if code != 1 { // the log of a healthy run: notes, no error
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`Facts found in the input\n`, `\n  nvlink\.present +true +line 2: GPU0  X  NV18 `,
		`\n  nccl\.p2p_used +false +line 87: vm:651:651 \[0\] NCCL INFO Channel 00 : 0\[0\] -> 1\[1\] via SHM/direct/direct\n`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("explain lacks %q:\n%s", want, out[:min(len(out), 2000)])
		}
	}
	if i, j := strings.Index(out, "Facts found"), strings.Index(out, "○ line"); i < 0 || j < i {
		t.Errorf("facts do not come before the explanations")
	}
	_, out, _ = call(log, "explain", "--json")
	var res struct {
		Facts []struct {
			Name, Value, Text string
			Line              int
		}
		Messages []struct{ Severity string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range res.Facts {
		got[f.Name] = f.Value
	}
	if got["nvlink.present"] != "true" || got["nccl.p2p_used"] != "false" || got["env.NCCL_P2P_DISABLE"] != "1" || len(res.Messages) == 0 {
		t.Errorf("explain --json: %v, %d messages", got, len(res.Messages))
	}
}

// Without --probe, match judges with the facts of the paste alone: topo
// -p2p saying GNS makes the hardware cause apply, OK everywhere rules it out.
func TestMatchWithPasteFactsAlone(t *testing.T) {
	sig := "RuntimeError: CUDA error: peer access is not supported between these two devices"
	verdict := func(paste string) (string, []any) {
		code, out, errOut := call(paste+"\n"+sig+"\n", "match", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var res struct {
			Messages []struct{ Causes []map[string]any }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Messages {
			for _, e := range m.Causes {
				if e["id"] == "cuda/peer-access-unsupported-by-hardware" {
					r, _ := e["reasons"].([]any)
					return e["verdict"].(string), r
				}
			}
		}
		t.Fatalf("no hardware entry in %s", out)
		return "", nil
	}
	if v, r := verdict(readFile(t, "../../internal/paste/testdata/topo-5090x2-gns.txt")); v != "applies" {
		t.Errorf("GNS pairs: %s %v", v, r)
	}
	if v, r := verdict(readFile(t, "../../internal/paste/testdata/h200x2-topo-m.txt", "../../internal/paste/testdata/h200x2-topo-p2p.txt")); v != "does_not_apply" {
		t.Errorf("all pairs OK: %s %v", v, r)
	}
}

// With --probe, the probe's facts win and each conflict is named.
func TestMatchReportsConflicts(t *testing.T) {
	paste := "vm:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\nRuntimeError: CUDA error: peer access is not supported between these two devices\n"
	code, out, errOut := call(paste, "match", "--probe", "../../probe/testdata/real/h200x2.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "the log says NCCL 2.18.1 (line 1), the probe found 2.28.9 on this machine") {
		t.Errorf("no conflict in:\n%s", out)
	}
	_, out, _ = call(paste, "match", "--json", "--probe", "../../probe/testdata/real/h200x2.json")
	var res struct {
		Conflicts []struct {
			Name, Log, Probe string
			Line             int
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Conflicts) != 1 || res.Conflicts[0].Probe != "2.28.9" || res.Conflicts[0].Line != 1 {
		t.Errorf("conflicts %+v (%v)", res.Conflicts, err)
	}
}

// explain --lang zh names facts in Chinese in its reasons as in its facts.
func TestExplainZhNamesFactsInChinese(t *testing.T) {
	log := readFile(t, "../../kb/repro/nccl_p2p_disable.h200x2.txt")
	_, en, _ := call(log, "explain")
	if !strings.Contains(en, "P2P between all GPU pairs unknown") {
		t.Fatalf("the English explanation gives no reason naming a fact:\n%s", en)
	}
	_, zh, _ := call(log, "explain", "--lang", "zh")
	for _, bad := range []string{"P2P between all GPU pairs", " unknown", "nvlink.present"} {
		if strings.Contains(zh, bad) {
			t.Errorf("explain --lang zh prints %q:\n%s", bad, zh)
		}
	}
	if !strings.Contains(zh, "所有 GPU 对之间的 P2P 未知") {
		t.Errorf("explain --lang zh gives no reason in Chinese:\n%s", zh)
	}
}
