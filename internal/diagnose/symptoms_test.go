package diagnose

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/paste"
)

// A paste with no error line is answered from what it shows: each symptom
// at its line, with the entries whose conditions hold because of it; a paste
// that shows none gets no message.
func TestSymptoms(t *testing.T) {
	s := repoSite(t)
	read := func(name string) string {
		b, err := os.ReadFile("../paste/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	rows := "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n" +
		"        1024           256     float     sum      -1    19.97    0.05    0.05      3    19.67    0.05    0.05      4\n"
	for _, c := range []struct {
		name, in string
		line     int
		first    string // the first cause; "" for no message
	}{
		{"setpci reads ACS redirect", "$ sudo setpci -s 00:01.0 ECAP_ACS+6.w\n001d\n", 2, "linux/acs-request-redirect-enabled"},
		{"setpci reads no redirect", "$ sudo setpci -s 00:01.0 ECAP_ACS+6.w\n0000\n", 0, ""},
		{"BAR1 below memory", "    FB Memory Usage\n        Total                             : 24576 MiB\n    BAR1 Memory Usage\n        Total                             : 256 MiB\n", 4, "cuda/map-buffer-object-failed-bar1"},
		{"BAR1 covers memory (H200)", read("h200x2-nvidia-smi-q.txt"), 0, ""},
		{"nccl-tests rows with wrong values", rows, 2, "nccl/nccl-tests-out-of-bounds-values"},
		{"a log that stops after NCCL's init", read("horovod-hang-after-init.log"), 11, "pytorch/nccl-watchdog-timeout"},
		{"NCCL init, then the program goes on", read("nccl-init-then-tensorflow.log"), 0, ""},
		{"P2P-enabled figures below the staged copy", read("p2pbandwidth-slow.txt"), 12, "cuda/p2p-bandwidth-below-link"},
	} {
		var out bytes.Buffer
		if _, err := Explain(&out, s, strings.NewReader(c.in), nil, Options{Lang: "en", JSON: true, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		var d Diagnosis
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		var errs []Message
		for _, m := range d.Messages {
			if m.Severity == "error" {
				errs = append(errs, m)
			}
		}
		switch {
		case c.first == "" && len(errs) > 0:
			t.Errorf("%s: %d error messages, want none (first %s at line %d)", c.name, len(errs), errs[0].Causes[0].ID, errs[0].Line)
		case c.first == "":
		case len(errs) != 1:
			t.Errorf("%s: %d error messages, want 1", c.name, len(errs))
		case errs[0].Line != c.line || errs[0].Causes[0].ID != c.first || errs[0].Causes[0].Verdict != "applies":
			t.Errorf("%s: line %d, first cause %s (%s); want line %d, %s (applies)", c.name, errs[0].Line, errs[0].Causes[0].ID, errs[0].Causes[0].Verdict, c.line, c.first)
		}
	}
}
