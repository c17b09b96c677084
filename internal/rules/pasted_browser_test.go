package rules_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// The shared table's cases on pasted text in the browser: assets/paste.js
// reads the paste and assets/rules.js judges it, as pasted_test.go does in Go.
func TestTablePastedInBrowser(t *testing.T) {
	tb, texts := loadPasted(t)
	b := browsertest.New(t)
	b.OpenScripts(browsertest.TempScript(t, "rules.table.js", rules.Table()), "../../assets/rules.js", browsertest.TempScript(t, "paste.table.js", paste.Table()), "../../assets/paste.js")
	n := 0
	for _, c := range tb.Cases {
		if c.Pasted == "" {
			continue
		}
		n++
		text, _ := json.Marshal(texts[c.Pasted])
		v, _ := json.Marshal(c.Versions)
		w, _ := json.Marshal(c.When)
		raw := browsertest.Eval[json.RawMessage](b, `(() => { try { const f = p2pkbPaste.merge(null, p2pkbPaste.extract(`+string(text)+`)).facts; return p2pkbRules.applies(`+string(v)+`, `+string(w)+`, f); } catch (e) { return {error: e.message}; } })()`)
		var got struct {
			Truth   string   `json:"truth"`
			Reasons []string `json:"reasons"`
			Error   string   `json:"error"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if got.Truth != c.Want || !strings.Contains(strings.Join(got.Reasons, "; "), c.Reason) {
			t.Errorf("pasted %s %q: browser %s (%q %s), table %s (%q)", c.Pasted, c.When, got.Truth, got.Reasons, got.Error, c.Want, c.Reason)
		}
	}
	if n == 0 {
		t.Fatal("the table has no cases on pasted text")
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}
