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
}
