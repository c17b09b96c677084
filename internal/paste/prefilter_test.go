package paste

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readAll gives the facts of lines read three ways: through the prefilter
// as strings and as bytes, and in full, line by line (the reference).
func readAll(lines []string) (asString, asBytes, full []Fact) {
	x, y, z := New(), New(), New()
	z.unfiltered = true
	for i, l := range lines {
		x.Line(i+1, l)
		y.LineBytes(i+1, []byte(l))
		z.Line(i+1, l)
	}
	return x.Facts(), y.Facts(), z.Facts()
}

func splitLines(in string) []string {
	lines := strings.Split(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// samePrefiltered fails t unless the prefiltered extractor gives exactly the
// facts, lines and texts of the unfiltered one.
func samePrefiltered(t *testing.T, what string, lines []string) {
	t.Helper()
	s, b, full := readAll(lines)
	if !reflect.DeepEqual(s, full) {
		t.Fatalf("%s: prefiltered %+v\nunfiltered %+v", what, s, full)
	}
	if !reflect.DeepEqual(b, full) {
		t.Fatalf("%s: prefiltered bytes %+v\nunfiltered %+v", what, b, full)
	}
}

// The prefilter skips only lines that change nothing: on every real paste
// and log here, alone, repeated (so that readers are done when the repeats
// come), all in one, and shuffled, the facts are those of reading every line.
func TestPrefilterChangesNothing(t *testing.T) {
	var names, inputs []string
	for _, glob := range []string{"testdata/*.txt", "testdata/*.log", "testdata/*.json", "../../kb/repro/*.txt"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			names, inputs = append(names, f), append(inputs, string(b))
		}
	}
	cs, cases := loadCases(t)
	for i, c := range cs {
		names, inputs = append(names, "case "+c.Name), append(inputs, cases[i])
	}
	if len(inputs) < 40 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	var all []string
	for i, in := range inputs {
		lines := splitLines(in)
		samePrefiltered(t, names[i], lines)
		samePrefiltered(t, names[i]+" repeated", append(append([]string{}, lines...), lines...))
		all = append(all, lines...)
	}
	samePrefiltered(t, "all inputs in one", all)
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 5; k++ {
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		samePrefiltered(t, "all inputs shuffled", all)
	}
}

// The prefilter does skip: a training log's lines that tell nothing new
// are not read in full.
func TestPrefilterSkips(t *testing.T) {
	data, err := os.ReadFile("testdata/h200x2-nccl-default.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(string(data))
	x := New()
	quietLines := 0
	for round := 0; round < 2; round++ {
		for i, l := range lines {
			if round == 1 && quiet(x, l) {
				quietLines++
			}
			x.Line(i+1, l)
		}
	}
	if quietLines < len(lines)*9/10 {
		t.Errorf("read again, %d of %d lines skipped; want nine in ten", quietLines, len(lines))
	}
}

func TestNCCLHost(t *testing.T) {
	for in, want := range map[string]string{
		"vm:586:586 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM": "vm",
		"node-1.cluster_a:12:345 [7] NCCL WARN x":                            "node-1.cluster_a",
		"vm:586:586 [0] NCCL":                    "",
		"vm:586 [0] NCCL INFO":                   "",
		":586:586 [0] NCCL INFO":                 "",
		"[1,0]<stdout>:vm:586:586 [0] NCCL INFO": "",
		"vm:586:586 [x] NCCL INFO":               "",
	} {
		got := ""
		if n := ncclHost(in); n > 0 {
			got = in[:n]
		}
		if m := reNCCLHost.FindStringSubmatchIndex(in); want != "" && (m == nil || m[0] != 0 || in[m[2]:m[3]] != want) {
			t.Errorf("%q: the pattern finds %v, the table says %q", in, m, want)
		}
		if got != want {
			t.Errorf("ncclHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkLineRepeated reads a training log's lines once more after the
// log, as a long log reads them: most are skipped by the prefilter.
func BenchmarkLineRepeated(b *testing.B) {
	data, err := os.ReadFile("../../kb/repro/nccl_default.h200x2.txt")
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range splitLines(string(data)) {
		lines = append(lines, []byte(l))
	}
	x := New()
	for i, l := range lines {
		x.LineBytes(i+1, l)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, l := range lines {
			x.LineBytes(j+1, l)
		}
	}
}
