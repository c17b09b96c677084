package build_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/diagnose"
	"github.com/p2pkb/p2pkb/internal/kb"
	pastefacts "github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// pageMarks is how an entry page marks the entry, its workarounds (in the
// order shown) and its dead ends for the machine in the panel.
type pageMarks struct {
	Entry       string   `json:"entry"`
	EntryText   string   `json:"entryText"`
	Workarounds []string `json:"workarounds"`
	WorkText    []string `json:"workText"`
	DeadEnds    []string `json:"deadEnds"`
}

const readMarks = `(() => {
  const v = el => (el.querySelector(".verdict") || {textContent: ""}).textContent;
  const ws = [...document.querySelectorAll(".workarounds ol li[data-workaround]")], ds = [...document.querySelectorAll("li[data-dead-end]")];
  return {entry: document.querySelector("article.entry").dataset.applies || "", entryText: v(document.querySelector("article.entry .badges")),
    workarounds: ws.map(li => li.dataset.applies || ""), workText: ws.map(v), deadEnds: ds.map(li => li.dataset.applies || "")};
})()`

// The real p2p-probe --test reading of the two H200s, and the document with
// zeros injected, pasted on the page of the real IOMMU silent-corruption
// entry: the page shows the bandwidth matrix, marks the entry as not
// applying to the real machine and as applying to the one whose copies
// arrived as zeros, and p2pkb match gives the same verdicts for the entry,
// its workarounds and its dead ends, in both languages.
func TestBrowserRealTestReportOnTheIOMMUEntry(t *testing.T) {
	const id = "cuda/p2p-silent-corruption-iommu"
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	model := site.New(k, a, "")
	e := k.ByID[id]
	if e == nil || e.AppliesWhen != "!p2p.test.data_ok" {
		t.Fatalf("%s: applies_when %q", id, e.AppliesWhen)
	}
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()

	for _, c := range []struct {
		doc, want string
		matrix    []string // cells of the bandwidth matrix, P2P on / off
		failed    int      // cells marked failed
	}{
		{"../../probe/testdata/real/h200x2-test.json", "does_not_apply",
			[]string{rules.GBps(388.9) + " / " + rules.GBps(37.4), rules.GBps(388.5) + " / " + rules.GBps(37.4), rules.GBps(1944), rules.GBps(55.3)}, 0},
		{"../../probe/testdata/golden/test-zeros.json", "applies", []string{rules.GBps(209.9) + " / " + rules.GBps(16.8)}, 1},
	} {
		doc, err := os.ReadFile(c.doc)
		if err != nil {
			t.Fatal(err)
		}
		r, err := facts.Read(bytes.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		f := rules.FromReport(r)
		for _, lang := range []string{"en", "zh"} {
			// p2pkb match --probe doc, given the entry's message.
			var js bytes.Buffer
			o := diagnose.Options{Lang: lang, JSON: true, Test: r.Test, Paste: pastefacts.New()}
			if _, err := diagnose.Match(&js, model, f, strings.NewReader(e.Signature+"\n"), o); err != nil {
				t.Fatal(err)
			}
			var d diagnose.Diagnosis
			if err := json.Unmarshal(js.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			var cause *diagnose.Cause
			for i := range d.Messages {
				for j := range d.Messages[i].Causes {
					if d.Messages[i].Causes[j].ID == id {
						cause = &d.Messages[i].Causes[j]
					}
				}
			}
			if cause == nil {
				t.Fatalf("%s (%s): match does not give %s for its own signature", c.doc, lang, id)
			}
			if d.Test == nil || !d.Test.Ran {
				t.Errorf("%s (%s): match prints no test", c.doc, lang)
			}

			// The page.
			b.Do(chromedp.Navigate(root+lang+"/kb/"+id+"/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
			browsertest.Eval[any](b, `(() => { localStorage.clear(); return null; })()`)
			paste(t, b, string(doc))
			m := browsertest.Eval[string](b, `(document.querySelector("table.bandwidth") || {textContent: ""}).textContent`)
			for _, want := range c.matrix {
				if !strings.Contains(m, want) {
					t.Errorf("%s (%s): bandwidth matrix %q lacks %q", c.doc, lang, m, want)
				}
			}
			if n := browsertest.Eval[int](b, `document.querySelectorAll("table.bandwidth td.pair-failed").length`); n != c.failed {
				t.Errorf("%s (%s): %d pairs marked failed, want %d", c.doc, lang, n, c.failed)
			}
			var p pageMarks
			if err := json.Unmarshal(browsertest.Eval[json.RawMessage](b, readMarks), &p); err != nil {
				t.Fatal(err)
			}
			if p.Entry != c.want || cause.Verdict != c.want {
				t.Errorf("%s (%s): page %s, match %s; want %s", c.doc, lang, p.Entry, cause.Verdict, c.want)
			}
			// The page gives reasons in its language, as explain --lang does.
			inLang := func(rs []string) string {
				out := make([]string, len(rs))
				for i, r := range rs {
					out[i] = rules.ReasonIn(r, lang)
				}
				return strings.Join(out, "; ")
			}
			if reasons := inLang(cause.Reasons); reasons == "" || !strings.HasSuffix(p.EntryText, ": "+reasons) {
				t.Errorf("%s (%s): page says %q, match %q", c.doc, lang, p.EntryText, reasons)
			}
			if len(p.Workarounds) != len(cause.Workarounds) || len(p.DeadEnds) != len(cause.DeadEnds) {
				t.Fatalf("%s (%s): page %d workarounds and %d dead ends, match %d and %d", c.doc, lang, len(p.Workarounds), len(p.DeadEnds), len(cause.Workarounds), len(cause.DeadEnds))
			}
			for i, w := range cause.Workarounds {
				if p.Workarounds[i] != w.Verdict || len(w.Reasons) > 0 && !strings.HasSuffix(p.WorkText[i], ": "+inLang(w.Reasons)) {
					t.Errorf("%s (%s): workaround %d: page %s %q, match %s %v (%.40s)", c.doc, lang, i, p.Workarounds[i], p.WorkText[i], w.Verdict, w.Reasons, w.Text)
				}
			}
			for i, de := range cause.DeadEnds {
				if p.DeadEnds[i] != de.Verdict {
					t.Errorf("%s (%s): dead end %d: page %s, match %s", c.doc, lang, i, p.DeadEnds[i], de.Verdict)
				}
			}
			if lang == "en" {
				b.Screenshot("iommu_entry_" + c.want)
			}
		}
	}
	checkQuiet(t, b, root)
}
