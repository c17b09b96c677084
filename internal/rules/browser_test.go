package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// The shared table in the browser: assets/rules.js must give the same
// verdicts and the same reasons as Go.
func TestTableInBrowser(t *testing.T) {
	tb, machines := loadTable(t)
	b := browsertest.New(t)
	b.OpenScripts(browsertest.TempScript(t, "rules.table.js", Table()), "../../assets/rules.js")

	reports := map[string]string{}
	for name, path := range tb.Facts {
		data, err := os.ReadFile(filepath.Join("../..", path))
		if err != nil {
			t.Fatal(err)
		}
		reports[name] = string(data)
	}
	type verdict struct {
		Truth   string   `json:"truth"`
		Reasons []string `json:"reasons"`
		Error   string   `json:"error"`
	}
	run := func(report string, versions []string, when string) verdict {
		v, _ := json.Marshal(versions)
		w, _ := json.Marshal(when)
		facts := `p2pkbRules.fromReport(` + report + `)`
		expr := `(() => { try { const f = ` + facts + `; return p2pkbRules.applies(` + string(v) + `, ` + string(w) + `, f); } catch (e) { return {error: e.message}; } })()`
		raw := browsertest.Eval[json.RawMessage](b, expr)
		var out verdict
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range tb.Cases {
		if c.Pasted != "" {
			continue // pasted_browser_test.go
		}
		got := run(reports[c.Facts], c.Versions, c.When)
		want, err := Applies(c.Versions, c.When, machines[c.Facts])
		if err != nil {
			t.Fatal(err)
		}
		if got.Truth != c.Want || got.Truth != want.Truth.String() {
			t.Errorf("%s %q %v: browser %s (%v), table %s, Go %s", c.Facts, c.When, c.Versions, got.Truth, got.Reasons, c.Want, want.Truth)
		}
		if got.Reasons == nil {
			got.Reasons = []string{}
		}
		if want.Reasons == nil {
			want.Reasons = []string{}
		}
		if !reflect.DeepEqual(got.Reasons, want.Reasons) {
			t.Errorf("%s %q %v: browser reasons %q, Go %q", c.Facts, c.When, c.Versions, got.Reasons, want.Reasons)
		}
	}
	for _, c := range tb.Invalid {
		got := run("{}", c.Versions, c.When)
		if !strings.Contains(got.Error, c.Error) {
			t.Errorf("%q %v: browser error %q, want %q", c.When, c.Versions, got.Error, c.Error)
		}
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}

// What to paste to learn a fact: assets/rules.js, run on the table, gives
// the same answer as PasteFor for every fact.
func TestPasteForInBrowser(t *testing.T) {
	b := browsertest.New(t)
	b.OpenScripts(browsertest.TempScript(t, "rules.table.js", Table()), "../../assets/rules.js")
	names := append(Names(), "env.NCCL_P2P_DISABLE", "env.CUDA_VISIBLE_DEVICES", "python.torch", "python.vllm", "no.such_fact")
	some := 0
	for _, n := range names {
		arg, _ := json.Marshal(n)
		got := browsertest.Eval[string](b, `p2pkbRules.pasteFor(`+string(arg)+`)`)
		if want := PasteFor(n); got != want {
			t.Errorf("%s: browser %q, Go %q", n, got, want)
		}
		if got != "" {
			some++
		}
	}
	if some < len(names)/2 {
		t.Errorf("only %d of %d facts say what to paste", some, len(names))
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}

// Reasons in Chinese: assets/rules.js's reasonIn, run on the table, says
// every reason of the conditions' cases as ReasonIn does, in both languages.
func TestReasonInBrowser(t *testing.T) {
	all := caseReasons(t)
	b := browsertest.New(t)
	b.OpenScripts(browsertest.TempScript(t, "rules.table.js", Table()), "../../assets/rules.js")
	in, _ := json.Marshal(all)
	for _, lang := range []string{"en", "zh"} {
		got := browsertest.Eval[[]string](b, `(`+string(in)+`).map(r => p2pkbRules.reasonIn(r, "`+lang+`"))`)
		if len(got) != len(all) {
			t.Fatalf("%s: %d reasons back, want %d", lang, len(got), len(all))
		}
		for i, r := range all {
			if want := ReasonIn(r, lang); got[i] != want {
				t.Errorf("%s %q: browser %q, Go %q", lang, r, got[i], want)
			}
		}
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}
