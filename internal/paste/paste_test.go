package paste

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/rules"
)

type testCase struct {
	Name  string            `json:"name"`
	Files []string          `json:"files"`
	Text  string            `json:"text"`
	Facts map[string]string `json:"facts"` // name -> value@line
}

// loadCases reads the shared table and the input of each case.
func loadCases(t testing.TB) ([]testCase, []string) {
	t.Helper()
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var tb struct {
		Cases []testCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &tb); err != nil {
		t.Fatalf("testdata/cases.json: %v", err)
	}
	inputs := make([]string, len(tb.Cases))
	for i, c := range tb.Cases {
		var b strings.Builder
		for _, f := range c.Files {
			data, err := os.ReadFile(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
		b.WriteString(c.Text)
		inputs[i] = b.String()
	}
	return tb.Cases, inputs
}

// short gives facts as the table writes them.
func short(facts []Fact) map[string]string {
	m := map[string]string{}
	for _, f := range facts {
		m[f.Name] = fmt.Sprintf("%s@%d", f.Value, f.Line)
	}
	return m
}

func TestTable(t *testing.T) {
	cases, inputs := loadCases(t)
	for i, c := range cases {
		facts := Extract(inputs[i])
		if got := short(facts); !reflect.DeepEqual(got, c.Facts) {
			t.Errorf("%s:\n got %v\nwant %v", c.Name, got, c.Facts)
		}
		lines := strings.Split(inputs[i], "\n")
		for _, f := range facts {
			if f.Line < 1 || f.Line > len(lines) || cut(lines[f.Line-1]) != f.Text {
				t.Errorf("%s: %s keeps %q, line %d of the input is not that", c.Name, f.Name, f.Text, f.Line)
			}
			if f.Source == "" || f.Kind == "" {
				t.Errorf("%s: %s has no source or kind", c.Name, f.Name)
			}
		}
	}
}

// Line by line gives what the whole text gives, with CRLF line ends too.
func TestLinesAndCRLF(t *testing.T) {
	_, inputs := loadCases(t)
	for _, in := range inputs {
		x := New()
		for i, l := range strings.Split(strings.ReplaceAll(in, "\n", "\r\n"), "\n") {
			x.Line(i+1, l)
		}
		if got, want := short(x.Facts()), short(Extract(in)); !reflect.DeepEqual(got, want) {
			t.Errorf("CRLF input: %v, want %v", got, want)
		}
	}
}

// A line is kept cut, and says so; a matrix wider than maxGPUs gives no
// facts rather than wrong ones.
func TestBounds(t *testing.T) {
	long := "NCCL INFO NCCL version 2.18.1 " + strings.Repeat("x", 10000)
	f := Extract(long)
	if len(f) != 1 || len(f[0].Text) > MaxText+len("…") || !strings.HasSuffix(f[0].Text, "…") {
		t.Fatalf("long line: %+v", f)
	}
	var env strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&env, "h:1:1 [0] NCCL INFO NCCL_X%d set by environment to 1\n", i)
	}
	if got := len(Extract(env.String())); got != maxEnv {
		t.Errorf("%d NCCL variables kept, want the bound %d", got, maxEnv)
	}
	var b strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "GPU%d\t", i)
	}
	b.WriteString("\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "GPU%d%s\n", i, strings.Repeat("\tSYS", 100))
	}
	got := short(Extract(b.String()))
	if len(got) != 0 {
		t.Errorf("wide matrix: %v, want no facts", got)
	}
}

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"[rank3]: RuntimeError: x":                             "RuntimeError: x",
		"host-1.cluster:123:456 [7] NCCL INFO x":               "NCCL INFO x",
		">> > GPU0\tX":                                         "GPU0\tX",
		"(pid=99) hello":                                       "hello",
		"[Sun Nov 22 11:00:40 2026] NVRM: Xid":                 "NVRM: Xid",
		"2024-01-02 03:04:05,123 [rank0]: NCCL INFO x":         "NCCL INFO x",
		"\x1b[4mGPU0\tGPU1\x1b[0m":                             "GPU0\tGPU1",
		"W1122 11:00:40.641000 616 torch/run.py:851] text":     "text",
		"Sep 21 09:59:59 runtime kernel: nvidia 0000:07:00.0:": "nvidia 0000:07:00.0:",
	} {
		if got := Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}

// Throughput of the extractor on a real-shaped log; make bench reports it
// with go test -bench.
func BenchmarkExtract(b *testing.B) {
	data, err := os.ReadFile("testdata/h200x2-nccl-default.log")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x := New()
		for n, l := range lines {
			x.Line(n+1, l)
		}
		x.Facts()
	}
}

// Any text: no panic, the same facts whole or line by line, every fact a
// fact rules knows, on a line of the input whose text it shows; the
// prefilter skips only lines that change nothing, also when the text comes
// again and its readers are done.
func FuzzExtract(f *testing.F) {
	_, inputs := loadCases(f)
	for _, in := range inputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		facts := Extract(in)
		lines := strings.Split(in, "\n")
		if err := checkFacts(facts, len(lines)); err != nil {
			t.Fatal(err)
		}
		for _, f := range facts {
			if want := cut(lines[f.Line-1]); f.Text != want {
				t.Fatalf("%s from line %d %q shows %q", f.Name, f.Line, want, f.Text)
			}
		}
		x := New()
		for i, l := range lines {
			if i == len(lines)-1 && l == "" {
				break
			}
			x.Line(i+1, l)
		}
		if got, want := short(x.Facts()), short(facts); !reflect.DeepEqual(got, want) {
			t.Fatalf("line by line %v, whole %v", got, want)
		}
		samePrefiltered(t, "input twice", append(append([]string{}, lines...), lines...))
		sameStrip(t, lines)
		sameEnvName(t, lines)
	})
}

func checkFacts(facts []Fact, lines int) error {
	for _, f := range facts {
		if err := (rules.Facts{}).Set(f.Name, f.Kind, f.Value); err != nil {
			return fmt.Errorf("%+v: %w", f, err)
		}
		if f.Line < 1 || f.Line > lines {
			return fmt.Errorf("%+v: line out of the input's %d", f, lines)
		}
	}
	return nil
}

// A change of release said beside a hang names the hang's cause, as a
// version said to work against one said to fail does, so explain answers it
// first; said beside a slow run it stays behind what the run shows.
func TestChangeBesideHangRanksFirst(t *testing.T) {
	order := func(in string) []string {
		facts := Extract(in)
		var names []string
		for _, f := range facts {
			if SymptomRank(f.Name) >= 0 {
				names = append(names, f.Name)
			}
		}
		sort.SliceStable(names, func(i, j int) bool { return SymptomRankIn(names[i], facts) < SymptomRankIn(names[j], facts) })
		return names
	}
	// https://github.com/pytorch/pytorch/issues/44171
	hang := order("After Ubuntu host got an automatical update of linux-modules-nvidia-440-5.4.0-45-generic:amd64 driver, the Pytorch DDP trainning in docker container will get stuck at loss.backward(), with cpu 100% and GPU 100% usage.\n")
	if i, j := slices.Index(hang, "version.changed"), slices.Index(hang, "hang.seen"); i < 0 || j < 0 || i > j {
		t.Errorf("a hang after a driver update: symptoms %v, want version.changed before hang.seen", hang)
	}
	// https://github.com/ggml-org/llama.cpp/issues/4055
	slow := order("2) Also the codebase in ggllm.cpp (which was an optimized ggml/cuda from an older version) did not suffer from the same performance degradation, it was maybe 1.5 times slower in multi-gpu than in single GPU (still bad but not 5-10 times slower)\n")
	if i, j := slices.Index(slow, "version.changed"), slices.Index(slow, "perf.slow"); i < 0 || j < 0 || i < j {
		t.Errorf("a slow run beside an older version: symptoms %v, want perf.slow before version.changed", slow)
	}
}
