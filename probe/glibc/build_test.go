package glibc

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// oldest is the glibc the probe must start on.
const oldest = "2.17"

// newer reports whether glibc version a ("2.34") is later than b.
func newer(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x > y
		}
	}
	return false
}

// glibcNeeds is the highest GLIBC_ version of any symbol the binary
// imports, and the symbols that need more than oldest: what objdump -T shows.
func glibcNeeds(t *testing.T, path string) (string, []string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	top, tooNew := "0", []string(nil)
	for _, s := range syms {
		v, ok := strings.CutPrefix(s.Version, "GLIBC_")
		if !ok || s.Section != elf.SHN_UNDEF {
			continue
		}
		if newer(v, top) {
			top = v
		}
		if newer(v, oldest) {
			tooNew = append(tooNew, s.Name+"@"+s.Version)
		}
	}
	return top, tooNew
}

// build runs make probe into dir, as a release is built.
func build(t *testing.T, dir string) {
	t.Helper()
	for _, tool := range []string{"aarch64-linux-gnu-gcc", "qemu-aarch64-static"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (make probe-tools installs it as root): %v", tool, err)
		}
	}
	if testing.Short() {
		t.Skip("builds the probe for two architectures")
	}
	cmd := exec.Command("make", "-s", "probe", "PROBE_BIN="+dir, "PROBE_VERSION=build-test")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make probe: %v\n%s", err, out)
	}
}

// make probe builds both architectures; neither asks for a glibc newer
// than 2.17, and each starts and says, with exit status 2 and its JSON,
// that this machine has no driver. The arm64 one runs under qemu.
func TestBinariesStartOnOldGlibc(t *testing.T) {
	dir := t.TempDir()
	build(t, dir)
	for _, arch := range []string{"amd64", "arm64"} {
		bin := filepath.Join(dir, "p2p-probe-linux-"+arch)
		top, tooNew := glibcNeeds(t, bin)
		if len(tooNew) > 0 || top == "0" {
			t.Errorf("%s needs GLIBC_%s: %v", arch, top, tooNew)
		}
		t.Logf("%s: highest glibc version needed: GLIBC_%s", arch, top)
		f, _ := elf.Open(bin)
		libs, _ := f.ImportedLibraries()
		f.Close()
		for _, lib := range []string{"libc.so.6", "libdl.so.2", "libpthread.so.0"} {
			if !strings.Contains(strings.Join(libs, " "), lib) {
				t.Errorf("%s does not name %s, where glibc before 2.34 keeps the old functions: %v", arch, lib, libs)
			}
		}

		var cmd *exec.Cmd
		switch arch {
		case "amd64":
			cmd = exec.Command(bin)
		case "arm64":
			cmd = exec.Command("qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu", bin)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			if _, statErr := os.Stat("/dev/nvidiactl"); statErr == nil && arch == "amd64" {
				continue // a machine with a driver answers otherwise
			}
			t.Errorf("%s: %v, want exit status 2\n%s", arch, err, stderr.String())
			continue
		}
		var rep struct {
			Probe struct{ Version string }
			Host  struct{ Arch string }
			NVML  struct {
				Available bool
				Error     string
			}
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("%s: output is not JSON: %v\n%s", arch, err, stdout.String())
		}
		if rep.Host.Arch != arch || rep.NVML.Available || rep.NVML.Error != "ERROR_LIBRARY_NOT_FOUND" || rep.Probe.Version != "build-test" {
			t.Errorf("%s: %+v", arch, rep)
		}
		if !strings.Contains(stderr.String(), "exit status 2: no NVIDIA driver") {
			t.Errorf("%s: stderr says %q", arch, stderr.String())
		}
	}
}

func TestNewer(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"2.34", "2.17", true}, {"2.3.2", "2.17", false}, {"2.17", "2.17", false}, {"2.2.5", "2.3", false}, {"2.18", "2.17", true}} {
		if got := newer(c.a, c.b); got != c.want {
			t.Errorf("newer(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
