package rules

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Every reason the conditions' cases give reads in Chinese in zh: no fact's
// English name and none of the words Eval puts around it are left.
func TestReasonInZh(t *testing.T) {
	all := caseReasons(t)
	used := map[words]bool{} // the reasons of the table the cases give
	for _, r := range all {
		for _, w := range reasons {
			used[w] = used[w] || strings.Contains(r, w.en)
		}
		zh := ReasonIn(r, "zh")
		if ReasonIn(r, "en") != r {
			t.Errorf("ReasonIn(%q, en) changed it", r)
		}
		if strings.HasSuffix(zh, " unknown") || strings.HasSuffix(zh, " present") || strings.HasPrefix(zh, "no ") || strings.Contains(zh, " is ") {
			t.Errorf("ReasonIn(%q, zh) = %q: English words left", r, zh)
		}
		for _, name := range displayNames {
			if name.zh != name.en && (strings.HasPrefix(zh, name.en+" ") || zh == name.en) {
				t.Errorf("ReasonIn(%q, zh) = %q: the English name %q left", r, zh, name.en)
			}
		}
	}
	for _, w := range reasons {
		if !used[w] {
			t.Errorf("no case gives the reason %q: add one to testdata/cases.json", w.en)
		}
	}
	for in, want := range map[string]string{
		"GPU count 4 >= 2":               "GPU 数量 4 >= 2",
		"NVLink unknown":                 "NVLink 未知",
		"no consumer GPU":                "没有 消费级 GPU",
		"GPU architecture is \"hopper\"": "GPU 架构 为 \"hopper\"",
		"P2P blocked: GPU0-GPU2 IOH_TOPOLOGY_NOT_SUPPORTED": "P2P 被阻断: GPU0-GPU2 IOH_TOPOLOGY_NOT_SUPPORTED",
	} {
		if got := ReasonIn(in, "zh"); got != want {
			t.Errorf("ReasonIn(%q, zh) = %q, want %q", in, got, want)
		}
	}
}

// caseReasons gives every reason the conditions' cases in
// testdata/cases.json give, one per element; too few fails t.
func caseReasons(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Reason string `json:"reason"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, c := range file.Cases {
		for _, r := range strings.Split(c.Reason, "; ") {
			if r != "" {
				all = append(all, r)
			}
		}
	}
	if len(all) < 50 {
		t.Fatalf("%d reasons in the cases: the cases should hold more", len(all))
	}
	return all
}
