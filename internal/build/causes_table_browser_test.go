package build_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// causesCase is a row of internal/diagnose/testdata/causes.json, which
// internal/diagnose runs through explain and match.
type causesCase struct {
	Name     string            `json:"name"`
	Files    []string          `json:"files"`
	Text     string            `json:"text"`
	Probe    string            `json:"probe"`
	Facts    map[string]string `json:"facts"`
	Silent   []string          `json:"silent"`
	Messages []struct {
		Verdict   string   `json:"verdict"`
		First     string   `json:"first"`
		Out       []string `json:"out"`
		TellApart string   `json:"tell_apart"`
	} `json:"messages"`
}

// pageCauses is what the search page shows of a pasted text: the boxes of
// messages with several causes (or none left), the results with their
// marks, and the facts the Your machine panel took from the paste.
type pageCauses struct {
	Boxes []struct {
		Verdict string `json:"verdict"`
		Causes  []struct {
			ID    string `json:"id"`
			Truth string `json:"truth"`
		} `json:"causes"`
		Tell    string `json:"tell"`
		Collect int    `json:"collect"`
		Text    string `json:"text"`
	} `json:"boxes"`
	Results []struct {
		ID      string `json:"id"`
		Applies string `json:"applies"`
		When    string `json:"when"`
	} `json:"results"`
	Facts []string `json:"facts"`
}

const readCauses = `(() => ({
  boxes: [...document.querySelectorAll("#search-causes .causes")].map(b => ({verdict: b.dataset.verdict,
    causes: [...b.querySelectorAll("li[data-cause-id]")].map(li => ({id: li.dataset.causeId, truth: li.dataset.truth || ""})),
    tell: (b.querySelector(".tell-apart") || {textContent: ""}).textContent, collect: b.querySelectorAll(".collect-next li").length, text: b.textContent})),
  results: [...document.querySelectorAll("#search-results li[data-result-id]")].map(li => ({id: li.dataset.resultId, applies: li.dataset.applies || "", when: li.dataset.appliesWhen || ""})),
  facts: [...document.querySelectorAll(".machine-paste li[data-fact]")].map(li => li.textContent)
}))()`

// The table of real-shaped pastes through the search page, with the probe
// report loaded in the Your machine panel where the case gives one: the
// same facts and the same cause first as explain and match, in both
// languages.
func TestBrowserCausesTable(t *testing.T) {
	data, err := os.ReadFile("../diagnose/testdata/causes.json")
	if err != nil {
		t.Fatal(err)
	}
	var tb struct {
		Cases []causesCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &tb); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	for _, c := range tb.Cases {
		var parts []string
		for _, f := range c.Files {
			data, err := os.ReadFile(filepath.Join("../..", f))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, strings.TrimRight(string(data), "\n"))
		}
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
		q := strings.Join(parts, "\n") + "\n"
		for _, lang := range []string{"en", "zh"} {
			b.Do(chromedp.Navigate(root+lang+"/search/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
			browsertest.Eval[any](b, `(() => { localStorage.clear(); return null; })()`)
			if c.Probe != "" {
				report, err := os.ReadFile(filepath.Join("../..", c.Probe))
				if err != nil {
					t.Fatal(err)
				}
				paste(t, b, string(report))
				if browsertest.Eval[string](b, `localStorage.getItem("p2pkb.probe") || ""`) == "" {
					t.Fatalf("%s (%s): the panel did not keep the report", c.Name, lang)
				}
			}
			runQuery(t, b, root, lang, q)
			var p pageCauses
			raw := browsertest.Eval[json.RawMessage](b, readCauses)
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			facts := map[string]string{}
			for _, f := range p.Facts {
				// "name = value · line: text"
				name, rest, _ := strings.Cut(f, " = ")
				value, _, _ := strings.Cut(rest, " · ")
				facts[name] = value
			}
			for name, want := range c.Facts {
				if facts[name] != want {
					t.Errorf("%s (%s): fact %s = %q, want %q", c.Name, lang, name, facts[name], want)
				}
			}
			for _, id := range c.Silent {
				for _, box := range p.Boxes {
					for _, x := range box.Causes {
						if x.ID == id {
							t.Errorf("%s (%s): a box shows %s", c.Name, lang, id)
						}
					}
				}
			}
			for _, want := range c.Messages {
				found := false
				for _, box := range p.Boxes {
					has := false
					for _, x := range box.Causes {
						has = has || x.ID == want.First
					}
					if !has {
						continue
					}
					found = true
					if box.Causes[0].ID != want.First || box.Verdict != want.Verdict {
						t.Errorf("%s (%s): %s first, verdict %s; want %s first, %s", c.Name, lang, box.Causes[0].ID, box.Verdict, want.First, want.Verdict)
					}
					for _, id := range want.Out {
						for _, x := range box.Causes {
							if x.ID == id && x.Truth != "does_not_apply" {
								t.Errorf("%s (%s): %s %s, want ruled out", c.Name, lang, id, x.Truth)
							}
						}
					}
					if (want.Verdict == "ruled_out") != (box.Collect > 0) {
						t.Errorf("%s (%s): verdict %s with %d things to collect", c.Name, lang, box.Verdict, box.Collect)
					}
					if want.Verdict == "ruled_out" {
						words := browsertest.Eval[[]string](b, `(s => [s.ruledOut.replace("%d", `+fmt.Sprint(len(box.Causes))+`), s.collect, s.collectSameMachine, s.collectNew])(document.getElementById("search-causes").dataset)`)
						for _, w := range words {
							if !strings.Contains(box.Text, w) {
								t.Errorf("%s (%s): the causes shown lack %q: %s", c.Name, lang, w, box.Text)
							}
						}
					}
					if want.TellApart != "" && !strings.Contains(box.Tell, rules.Display(want.TellApart)) {
						t.Errorf("%s (%s): tell apart %q lacks %s", c.Name, lang, box.Tell, rules.Display(want.TellApart))
					}
					break
				}
				if found {
					continue
				}
				// A message with one cause has no box: its result carries the mark.
				for _, r := range p.Results {
					if r.ID != want.First {
						continue
					}
					found = true
					verdict := "unknown"
					switch {
					case r.Applies == "does_not_apply":
						verdict = "ruled_out"
					case r.Applies == "applies" && r.When != "":
						verdict = "applies"
					}
					if verdict != want.Verdict {
						t.Errorf("%s (%s): %s marked %q (condition %q), want the message %s", c.Name, lang, r.ID, r.Applies, r.When, want.Verdict)
					}
				}
				if !found {
					t.Errorf("%s (%s): %s is neither among the causes shown nor in the results", c.Name, lang, want.First)
				}
			}
		}
	}
	checkQuiet(t, b, root)
}
