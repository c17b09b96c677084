package draft

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// Real lines as users paste them, with the log's prefixes.
var pastes = []struct {
	text, msg, domain string
}{
	{"host-a:1234:5678 [0] NCCL INFO cudaDriverVersion 13000\nhost-a:1234:5678 [1] transport/p2p.cc:275 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices",
		"transport/p2p.cc:275 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices", "nccl"},
	{"Traceback (most recent call last):\n  File \"/home/u/train.py\", line 12, in <module>\n    b = a.to('cuda:1')\n[rank1]: RuntimeError: CUDA error: peer access is not supported between these two devices",
		"RuntimeError: CUDA error: peer access is not supported between these two devices", "pytorch"},
	{"[ 1234.567890] AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0012 address=0x7f3c00000 flags=0x0020]",
		"AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0012 address=0x7f3c00000 flags=0x0020]", "linux"},
	{"> cudaErrorPeerAccessUnsupported: peer access is not supported between these two devices",
		"cudaErrorPeerAccessUnsupported: peer access is not supported between these two devices", "cuda"},
	{"(pid=4242) [2026-11-20 10:00:01,123] custom_all_reduce.cuh:368 Cuda failure 'invalid argument'",
		"custom_all_reduce.cuh:368 Cuda failure 'invalid argument'", "vllm"},
}

func schemaFS(t *testing.T) fstest.MapFS {
	t.Helper()
	b, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{kb.SchemaFile: {Data: b}}
}

// A skeleton's regex matches the line it came from and its signature, with
// the numbers and addresses free to vary; lint refuses it, naming only the
// fields that still say TODO; once they are written, it loads.
func TestSkeleton(t *testing.T) {
	for _, p := range pastes {
		d, err := New(p.text, "2026-11-23")
		if err != nil {
			t.Fatalf("%q: %v", p.text, err)
		}
		if d.Signature != p.msg {
			t.Errorf("signature %q, want %q", d.Signature, p.msg)
		}
		if !strings.HasPrefix(d.Path, p.domain+"/") {
			t.Errorf("%q: path %s, want domain %s", p.msg, d.Path, p.domain)
		}
		re := regexp.MustCompile(d.Regex)
		if !re.MatchString(d.Line) {
			t.Errorf("regex %s does not match its line %q", d.Regex, d.Line)
		}
		// Another occurrence with other numbers and addresses is the same message.
		other := regexp.MustCompile(`\b\d+\b`).ReplaceAllString(p.msg, "7")
		if !re.MatchString(other) {
			t.Errorf("regex %s does not match %q", d.Regex, other)
		}

		fsys := schemaFS(t)
		fsys[d.Path] = &fstest.MapFile{Data: d.JSON}
		_, err = kb.Load(fsys)
		if err == nil {
			t.Fatalf("%s: lint accepts a skeleton with TODOs", d.Path)
		}
		for _, line := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
			if !strings.Contains(line, "TODO") {
				t.Errorf("%s: a problem other than a TODO: %s", d.Path, line)
			}
		}
		filled := strings.ReplaceAll(string(d.JSON), "https://example.invalid/TODO", "https://example.org/report")
		filled = strings.ReplaceAll(filled, "TODO: component and version it was seen with, e.g. CUDA 12.4", "CUDA 13.0")
		filled = regexp.MustCompile(`TODO: [^"]*`).ReplaceAllString(filled, "written")
		if strings.Contains(filled, kb.TODO) {
			t.Fatalf("the test's fill-in left a TODO:\n%s", filled)
		}
		fsys[d.Path] = &fstest.MapFile{Data: []byte(filled)}
		if _, err := kb.Load(fsys); err != nil {
			t.Errorf("%s: filled in, it still does not load: %v", d.Path, err)
		}
	}
}
