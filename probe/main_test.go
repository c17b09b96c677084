package main

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"

	"github.com/p2pkb/p2pkb/probe/facts"
	"github.com/p2pkb/p2pkb/probe/p2pcheck"
)

func noLibrary() nvml.Interface {
	return &mock.Interface{InitFunc: func() nvml.Return { return nvml.ERROR_LIBRARY_NOT_FOUND }}
}

func TestNoNVMLExitsTwoWithReason(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(nil, &out, &errOut, noLibrary())
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	var rep facts.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if rep.NVML.Available || rep.NVML.Error != "ERROR_LIBRARY_NOT_FOUND" || !strings.Contains(rep.NVML.Reason, "driver") {
		t.Errorf("nvml = %+v", rep.NVML)
	}
}

func TestDriverMismatchExitsOne(t *testing.T) {
	lib := &mock.Interface{InitFunc: func() nvml.Return { return nvml.ERROR_LIB_RM_VERSION_MISMATCH }}
	if code := run([]string{"--pretty"}, io.Discard, io.Discard, lib); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}

func TestLinkRoundTrips(t *testing.T) {
	var out bytes.Buffer
	run([]string{"--link", "https://kb.example.org/docs/"}, &out, io.Discard, noLibrary())
	link := strings.TrimSpace(out.String())
	base, frag, ok := strings.Cut(link, "#probe=")
	if !ok || base != "https://kb.example.org/docs/" {
		t.Fatalf("link = %q", link)
	}
	raw, err := base64.RawURLEncoding.DecodeString(frag)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var rep facts.Report
	if err := json.Unmarshal(data, &rep); err != nil || rep.SchemaVersion != facts.SchemaVersion {
		t.Errorf("fragment does not hold the report: %v %s", err, data)
	}
}

// The real binary on this machine: no GPU here, so NVML is missing.
func TestBinaryWithoutGPU(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := t.TempDir() + "/p2p-probe"
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Skipf("NVML answered on this machine (err=%v): nothing to check", err)
	}
	if exit.ExitCode() != 2 {
		t.Errorf("exit %d, want 2", exit.ExitCode())
	}
	var rep facts.Report
	if err := json.Unmarshal(out, &rep); err != nil || rep.NVML.Reason == "" {
		t.Errorf("want JSON with a reason, got %v: %s", err, out)
	}

	// --test re-executes the binary, which finds no libcuda either.
	out, _ = exec.Command(bin, "--test", "--test-size", "4KiB").Output()
	var withTest facts.Report
	if err := json.Unmarshal(out, &withTest); err != nil || withTest.Test == nil {
		t.Fatalf("want JSON with a test section, got %v: %s", err, out)
	}
	if tt := withTest.Test; tt.Ran || !strings.Contains(tt.Error, "libcuda.so.1") || !strings.Contains(tt.Summary.Verdict, "could not run") {
		t.Errorf("test section %+v", tt)
	}
}

// --test adds the test section with the size asked for; without it the
// probe stays read-only and the test never runs.
func TestTestFlag(t *testing.T) {
	defer func(f func(p2pcheck.Options) *facts.Test) { testRun = f }(testRun)
	var got []p2pcheck.Options
	testRun = func(o p2pcheck.Options) *facts.Test {
		got = append(got, o)
		return &facts.Test{Ran: true, SizeBytes: o.Size, Devices: []facts.TestDevice{}, Pairs: []facts.TestPair{}}
	}
	var out bytes.Buffer
	run(nil, &out, io.Discard, noLibrary())
	if len(got) != 0 || strings.Contains(out.String(), `"test"`) {
		t.Fatalf("plain run ran the test: %v\n%s", got, out.String())
	}
	out.Reset()
	code := run([]string{"--test", "--test-size", "4MiB", "--test-timeout", "5s"}, &out, io.Discard, noLibrary())
	if code != 2 {
		t.Errorf("exit %d: the test must not change the exit status NVML gives", code)
	}
	if len(got) != 1 || got[0].Size != 4<<20 || got[0].Timeout.Seconds() != 5 {
		t.Fatalf("options %+v", got)
	}
	rep, err := facts.Read(&out)
	if err != nil || rep.Test == nil || !rep.Test.Ran || rep.Test.SizeBytes != 4<<20 {
		t.Errorf("report %v %+v", err, rep)
	}

	// A crash inside the test leaves the rest of the report.
	testRun = func(p2pcheck.Options) *facts.Test { panic("boom") }
	out.Reset()
	run([]string{"--test"}, &out, io.Discard, noLibrary())
	rep, err = facts.Read(&out)
	if err != nil || rep.Test == nil || rep.Test.Ran || !strings.Contains(rep.Test.Error, "boom") || rep.NVML.Error != "ERROR_LIBRARY_NOT_FOUND" {
		t.Errorf("after a crash: %v %+v", err, rep)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"4096": 4096, "64MiB": 64 << 20, "256 KiB": 256 << 10, "1G": 1 << 30, "2MB": 2 << 20} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "64 apples", "1KiB", "17GiB", "4098", "-4MiB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
	var errOut bytes.Buffer
	if code := run([]string{"--test", "--test-size", "lots"}, io.Discard, &errOut, noLibrary()); code != 1 || !strings.Contains(errOut.String(), "--test-size") {
		t.Errorf("exit %d, %q", code, errOut.String())
	}
}

func TestVersionHelpAndFormat(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--version"}, &out, &errOut, noLibrary()); code != 0 || !strings.HasPrefix(out.String(), "p2p-probe ") {
		t.Errorf("--version: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"--help"}, &out, &errOut, noLibrary()); code != 0 || !strings.Contains(errOut.String(), "exit status:") || !strings.Contains(errOut.String(), "2  no NVIDIA driver") {
		t.Errorf("--help: exit %d:\n%s", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"--format", "yaml"}, &out, &errOut, noLibrary()); code != 1 || !strings.Contains(errOut.String(), "--format") {
		t.Errorf("--format yaml: exit %d, %q", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code := run([]string{"--format", "prometheus"}, &out, &errOut, noLibrary())
	if code != 2 || !strings.Contains(out.String(), "p2p_probe_nvml_available 0") {
		t.Errorf("--format prometheus without a driver: exit %d:\n%s", code, out.String())
	}
	if !strings.Contains(errOut.String(), "exit status 2: no NVIDIA driver") {
		t.Errorf("stderr %q does not say why the exit status is 2", errOut.String())
	}
}

// Without a driver the summary says unknown (null), not zero GPUs and no
// NVLink, and stderr says why the exit status is 2.
func TestNoDriverSummaryIsUnknown(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut, noLibrary()); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	var rep struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"gpu_count", "all_pairs_p2p", "nvlink", "nvswitch", "mig"} {
		if v, ok := rep.Summary[k]; !ok || v != nil {
			t.Errorf("summary.%s = %v, want null", k, v)
		}
	}
	if !strings.Contains(errOut.String(), "exit status 2: no NVIDIA driver") {
		t.Errorf("stderr %q does not say why the exit status is 2", errOut.String())
	}
}
