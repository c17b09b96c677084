package diagnose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// CausesCase is one row of testdata/causes.json, the table of real-shaped
// pastes that Explain and Match here, and the search page in a browser
// (internal/build), must read alike.
type causesCase struct {
	Name     string            `json:"name"`
	Files    []string          `json:"files"` // joined with a newline, then Text
	Text     string            `json:"text"`
	Probe    string            `json:"probe"`  // a p2p-probe report: the machine
	Facts    map[string]string `json:"facts"`  // facts the paste must give, by name, with their values
	Silent   []string          `json:"silent"` // causes no message may hold: a healthy line's, ruled out
	Messages []struct {
		Verdict   string   `json:"verdict"`    // applies, unknown or ruled_out
		First     string   `json:"first"`      // the cause ranked first; names the message
		Out       []string `json:"out"`        // causes that must be ruled out
		TellApart string   `json:"tell_apart"` // a fact that would tell the causes apart
		Words     string   `json:"words"`      // words the first cause's root cause says
	} `json:"messages"`
}

func loadCauses(t *testing.T) []causesCase {
	t.Helper()
	data, err := os.ReadFile("testdata/causes.json")
	if err != nil {
		t.Fatal(err)
	}
	var tb struct {
		Cases []causesCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &tb); err != nil {
		t.Fatal(err)
	}
	return tb.Cases
}

func (c causesCase) input(t *testing.T) string {
	t.Helper()
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
	return strings.Join(parts, "\n") + "\n"
}

func TestCausesTable(t *testing.T) {
	s := repoSite(t)
	for _, c := range loadCauses(t) {
		for _, lang := range []string{"en", "zh"} {
			var f rules.Facts
			o := Options{Lang: lang, JSON: true, Paste: paste.New()}
			if c.Probe != "" {
				f = probeFacts(t, filepath.Join("../..", c.Probe))
			}
			var out bytes.Buffer
			var err error
			if c.Probe != "" {
				_, err = Match(&out, s, f, strings.NewReader(c.input(t)), o)
			} else {
				_, err = Explain(&out, s, strings.NewReader(c.input(t)), f, o)
			}
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			var d Diagnosis
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			got := map[string]string{}
			for _, x := range d.Facts {
				got[x.Name] = x.Value
			}
			for name, want := range c.Facts {
				if got[name] != want {
					t.Errorf("%s (%s): fact %s = %q, want %q", c.Name, lang, name, got[name], want)
				}
			}
			for _, id := range c.Silent {
				for _, m := range d.Messages {
					for _, x := range m.Causes {
						if x.ID == id {
							t.Errorf("%s (%s): line %d shows %s (%s)", c.Name, lang, m.Line, id, x.Verdict)
						}
					}
				}
			}
			for _, want := range c.Messages {
				var m *Message
				for i := range d.Messages {
					for _, x := range d.Messages[i].Causes {
						if x.ID == want.First && m == nil {
							m = &d.Messages[i]
						}
					}
				}
				if m == nil {
					t.Errorf("%s (%s): no message has %s among its causes", c.Name, lang, want.First)
					continue
				}
				first := m.Causes[0]
				if first.ID != want.First || m.Verdict != want.Verdict {
					t.Errorf("%s (%s): line %d: %s first, verdict %s; want %s first, %s", c.Name, lang, m.Line, first.ID, m.Verdict, want.First, want.Verdict)
				}
				for _, id := range want.Out {
					for _, x := range m.Causes {
						if x.ID == id && (x.Verdict != "does_not_apply" || len(x.Reasons) == 0) {
							t.Errorf("%s (%s): %s %s %v, want ruled out with a reason", c.Name, lang, id, x.Verdict, x.Reasons)
						}
					}
				}
				if (want.Verdict == "ruled_out") != (len(m.Collect) > 0) {
					t.Errorf("%s (%s): verdict %s, what to collect next %q", c.Name, lang, m.Verdict, m.Collect)
				}
				if want.Verdict == "ruled_out" {
					// The words a person reads: every cause ruled out, and what to collect next.
					var txt bytes.Buffer
					o := Options{Lang: lang}
					if err := writeMessage(&txt, *m, o, true); err != nil {
						t.Fatal(err)
					}
					for _, w := range append([]string{fmt.Sprintf(text(lang, "ruled_out"), len(m.Causes)), text(lang, "collect")}, m.Collect...) {
						if !strings.Contains(txt.String(), w) {
							t.Errorf("%s (%s): the text lacks %q:\n%s", c.Name, lang, w, txt.String())
						}
					}
				}
				if want.TellApart != "" && (m.TellApart == nil || !contains(m.TellApart.Facts, want.TellApart)) {
					t.Errorf("%s (%s): tell apart %+v lacks %s", c.Name, lang, m.TellApart, want.TellApart)
				}
				if want.Words != "" && lang == "en" && !strings.Contains(first.RootCause, want.Words) {
					t.Errorf("%s: the root cause of %s lacks %q: %s", c.Name, first.ID, want.Words, first.RootCause)
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
