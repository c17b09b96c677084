package facts

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every reading the probe wrote, real or golden, has the report's shape.
func TestReadAcceptsEveryReading(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*/*.json")
	if len(files) < 20 {
		t.Fatalf("only %d readings found", len(files))
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Read(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// The limits in the struct tags are the constants the package documents.
func TestShapeLimits(t *testing.T) {
	s := ReportShape()
	test := s.Fields["test"]
	for _, c := range []struct {
		name string
		got  int
		want int
	}{
		{"gpus", s.Fields["gpus"].Max, MaxGPUs},
		{"pairs", s.Fields["pairs"].Max, MaxPairs},
		{"summary.blocked_pairs", s.Fields["summary"].Fields["blocked_pairs"].Max, MaxPairs},
		{"test.devices", test.Fields["devices"].Max, MaxGPUs},
		{"test.pairs", test.Fields["pairs"].Max, MaxPairs},
		{"test.summary.failed_pairs", test.Fields["summary"].Fields["failed_pairs"].Max, MaxPairs},
		{"gpus[].name", s.Fields["gpus"].Of.Fields["name"].Of.Max, MaxString},
		{"software.python", s.Fields["software"].Fields["python"].Max, MaxItems},
	} {
		if c.got != c.want {
			t.Errorf("%s: limit %d, want %d", c.name, c.got, c.want)
		}
	}
}

// hostileReports are documents that pass the head check (name and schema
// version) and leave the shape, each with the path Read names.
var hostileReports = []struct{ Name, Doc, Path string }{
	{"null GPU", `{"gpus": [null]}`, "gpus[0]"},
	{"package name a number", `{"software": {"python": [{"name": 7, "version": "1"}]}}`, "software.python[0].name"},
	{"65 GPUs", `{"gpus": [` + strings.TrimSuffix(strings.Repeat(`{"index": 0},`, 65), ",") + `]}`, "gpus"},
	{"unknown field", `{"gpus": [{"index": 0, "onload": "x"}]}`, "gpus[0].onload"},
	{"long name", `{"gpus": [{"name": "` + strings.Repeat("é", MaxString+1) + `"}]}`, "gpus[0].name"},
	{"index past 2^53", `{"gpus": [{"index": 1e19}]}`, "gpus[0].index"},
	{"fractional index", `{"pairs": [{"from": 0.5}]}`, "pairs[0].from"},
	{"summary a list", `{"summary": []}`, "summary"},
	{"null string", `{"driver": {"cuda_toolkit": null}}`, "driver.cuda_toolkit"},
	{"error of a number", `{"driver": {"version": {"error": 3}}}`, "driver.version"},
	{"deep", `{"gpus": [{"nvlinks": [[[[[[[[]]]]]]]]}]}`, "gpus[0].nvlinks[0]"},
	{"env of objects", `{"software": {"env": {"NCCL_X": {}}}}`, "software.env.NCCL_X"},
	{"test pairs over the limit", `{"test": {"ran": true, "pairs": [` + strings.TrimSuffix(strings.Repeat(`{},`, MaxPairs+1), ",") + `]}}`, "test.pairs"},
}

// withHead makes a table document a report as far as the head check goes.
func withHead(doc string) string {
	return `{"schema_version": 1, "probe": {"name": "p2p-probe"}, ` + strings.TrimPrefix(doc, "{")
}

func TestReadRefusesOutOfShape(t *testing.T) {
	for _, c := range hostileReports {
		_, err := Read(strings.NewReader(withHead(c.Doc)))
		var se *ShapeError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a shape error", c.Name, err)
			continue
		}
		if se.Path != c.Path {
			t.Errorf("%s: error at %q (%v), want %q", c.Name, se.Path, err, c.Path)
		}
	}
	// Values where Go writes null: lists, pointers and unknown Values.
	ok := withHead(`{"gpus": null, "pairs": null, "host": {"virtual_machine": null}, "driver": {"version": null, "cuda": {"error": "ERROR_UNKNOWN"}}}`)
	if _, err := Read(strings.NewReader(ok)); err != nil {
		t.Errorf("nulls Go writes refused: %v", err)
	}
}
