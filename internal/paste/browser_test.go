package paste

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// The shared table in the browser: assets/paste.js must find the same facts
// as Go, with the same values, lines, kept text and sources.
func TestTableInBrowser(t *testing.T) {
	cases, inputs := loadCases(t)
	b := browsertest.New(t)
	b.OpenScripts(browsertest.TempScript(t, "rules.table.js", rules.Table()), "../../assets/rules.js", browsertest.TempScript(t, "paste.table.js", Table()), "../../assets/paste.js")

	for i, c := range cases {
		in, _ := json.Marshal(inputs[i])
		raw := browsertest.Eval[json.RawMessage](b, `p2pkbPaste.extract(`+string(in)+`)`)
		var got []Fact
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got == nil {
			got = []Fact{}
		}
		want := Extract(inputs[i])
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nbrowser %+v\n     Go %+v", c.Name, got, want)
		}
		if s := short(got); !reflect.DeepEqual(s, c.Facts) {
			t.Errorf("%s: browser %v, table %v", c.Name, s, c.Facts)
		}
		// The symptoms the input shows, the most telling first, as explain
		// answers from them (Symptom, SymptomRankIn).
		own := Facts(want)
		wantSym := []string{}
		for _, f := range want {
			if SaidOnly(f.Name) && f.Source != Said {
				continue
			}
			if cond, ok := Symptom(f.Name); ok {
				if v, err := rules.Applies(nil, cond, own); err == nil && v.Truth == rules.True {
					wantSym = append(wantSym, f.Name)
				}
			}
		}
		sort.SliceStable(wantSym, func(i, j int) bool { return SymptomRankIn(wantSym[i], want) < SymptomRankIn(wantSym[j], want) })
		gotSym := browsertest.Eval[[]string](b, `p2pkbPaste.symptoms(p2pkbPaste.extract(`+string(in)+`)).map(s => s.fact.name + (s.weak ? " weak" : "") + (s.programFirst ? " program-first" : ""))`)
		for i, n := range wantSym {
			if Weak(n) {
				wantSym[i] += " weak"
			}
			if ProgramFirst(n) {
				wantSym[i] += " program-first"
			}
		}
		if !reflect.DeepEqual(gotSym, wantSym) {
			t.Errorf("%s: symptoms: browser %v, Go %v", c.Name, gotSym, wantSym)
		}
	}

	// The bound on NCCL variables kept is the same.
	if n := browsertest.Eval[int](b, `p2pkbPaste.extract(Array.from({length: 1000}, (_, i) => "h:1:1 [0] NCCL INFO NCCL_X" + i + " set by environment to 1").join("\n")).length`); n != maxEnv {
		t.Errorf("browser keeps %d NCCL variables, want %d", n, maxEnv)
	}

	// Merging with a probe report: the same conflicts as Go.
	report, err := os.ReadFile("../../probe/testdata/real/h200x2.json")
	if err != nil {
		t.Fatal(err)
	}
	text := "vm:1:1 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\nGPU0\tGPU1\nGPU0\t X \tPHB\nGPU1\tPHB\t X \ntorch 2.11.0+cu130 cuda 13.0 devices 2\n"
	in, _ := json.Marshal(text)
	raw := browsertest.Eval[json.RawMessage](b, `(() => { const m = p2pkbPaste.merge(p2pkbRules.fromReport(`+string(report)+`), p2pkbPaste.extract(`+string(in)+`));
		return {conflicts: m.conflicts, shm: p2pkbRules.applies([], "nvlink.present && gpu.count == 2 && python.torch >= 2.11", m.facts).truth}; })()`)
	var got struct {
		Conflicts []Conflict `json:"conflicts"`
		Shm       string     `json:"shm"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	_, want := Merge(h200Probe(t), Extract(text))
	if !reflect.DeepEqual(got.Conflicts, want) || got.Shm != "applies" {
		t.Errorf("merge in the browser: %+v, Go conflicts %+v", got, want)
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}
