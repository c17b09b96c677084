package diagnose

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/paste"
)

// explain on every output recorded on the two H200s in kb/repro: the facts
// the log carries, each with its line, and its messages with their causes,
// as JSON and as text.
func TestExplainReproductionLogs(t *testing.T) {
	s := repoSite(t)
	files, err := filepath.Glob("../../kb/repro/*.h200x2*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("%d reproduction logs", len(files))
	}
	// Facts each log must give; the CUDA API programs print only calls and
	// errors, which carry no facts, and the machine's reading no message.
	want := map[string]map[string]string{
		"machine.h200x2.txt":          {"nvlink.present": "true", "gpu.count": "2", "driver.version": "580.159.04", "p2p.all_pairs_ok": "true"},
		"torch_errors.h200x2.txt":     {"python.torch": "2.11.0+cu130", "gpu.consumer": "false"},
		"nccl_p2p_disable.h200x2.txt": {"env.NCCL_P2P_DISABLE": "1", "nccl.p2p_used": "false", "nccl.transport": "SHM"},
		"nccl_default.h200x2.txt":     {"nccl.p2p_used": "true", "nccl.transport": "P2P", "cuda.driver": "13.0"},
		"p2p_errors.h200x2.txt":       {},
		"ipc_errors.h200x2.txt":       {},
		// The simpleP2P article's corrected program, which ran without an error.
		"simplep2p_corrected.h200x2.txt": {},
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(file)
		lines := strings.Split(string(data), "\n")
		facts, ok := want[name]
		if !ok && strings.HasPrefix(name, "nccl_") {
			facts = map[string]string{"nccl.version": "2.28.9"}
		}
		for _, lang := range []string{"en", "zh"} {
			var out bytes.Buffer
			if _, err := Explain(&out, s, bytes.NewReader(data), nil, Options{Lang: lang, JSON: true, Paste: paste.New()}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var d Diagnosis
			if err := json.Unmarshal(out.Bytes(), &d); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := map[string]string{}
			for _, f := range d.Facts {
				got[f.Name] = f.Value
				if f.Line < 1 || f.Line > len(lines) || !strings.HasPrefix(lines[f.Line-1], strings.TrimSuffix(f.Text, "…")) {
					t.Errorf("%s: fact %s from line %d %q, which the file does not have there", name, f.Name, f.Line, f.Text)
				}
			}
			if facts == nil && len(d.Facts) == 0 || facts != nil && len(facts) == 0 && len(d.Facts) > 0 {
				t.Errorf("%s: facts %v", name, got)
			}
			for k, v := range facts {
				if got[k] != v {
					t.Errorf("%s: fact %s = %q, want %q", name, k, got[k], v)
				}
			}
			if len(d.Messages) == 0 && name != "machine.h200x2.txt" && name != "simplep2p_corrected.h200x2.txt" {
				t.Errorf("%s: no known message", name)
			}
			closest := 0
			for _, m := range d.Messages {
				if m.ByWords {
					// Nothing recognized (the machine's readings, whose
					// prose says "no nv-fabricmanager process"): the
					// entries closest to its words, marked, on no line.
					closest++
					if len(d.Messages) != 1 || m.Line != 0 || m.Severity != "by_words" || len(m.Causes) == 0 {
						t.Errorf("%s: by words: %d messages, line %d, severity %s", name, len(d.Messages), m.Line, m.Severity)
					}
					continue
				}
				// A message no entry names is answered from its parts, which may have no entry yet: then it says what to collect.
				if len(m.Causes) == 0 && !(m.Composed && len(m.Collect) > 0) || m.Line < 1 || m.Line > len(lines) || strings.TrimSpace(lines[m.Line-1]) != m.LineText {
					t.Errorf("%s: message at line %d %q with %d causes", name, m.Line, m.LineText, len(m.Causes))
				}
			}
			if d.Errors+d.Notes+closest != len(d.Messages) {
				t.Errorf("%s: %d errors and %d notes, %d messages", name, d.Errors, d.Notes, len(d.Messages))
			}

			// The text a person reads lists the same.
			out.Reset()
			if _, err := Explain(&out, s, bytes.NewReader(data), nil, Options{Lang: lang, Paste: paste.New()}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			text := out.String()
			if len(d.Facts) > 0 && !strings.Contains(text, factText(lang, "facts")) {
				t.Errorf("%s (%s): the text lists no facts", name, lang)
			}
			for _, m := range d.Messages {
				if len(m.Causes) > 0 && !strings.Contains(text, m.Causes[0].ID) {
					t.Errorf("%s (%s): the text lacks %s", name, lang, m.Causes[0].ID)
				}
			}
		}
	}
}
