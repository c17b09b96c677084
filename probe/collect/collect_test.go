package collect

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/p2pkb/p2pkb/probe/facts"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// fixtureSystem is a host with something to find and something to hide.
func fixtureSystem() System {
	return System{
		Root: fstest.MapFS{
			"etc/os-release":                {Data: []byte("NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\n")},
			"proc/sys/kernel/osrelease":     {Data: []byte("6.8.0-49-generic\n")},
			"proc/cpuinfo":                  {Data: []byte("processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n")},
			"proc/cmdline":                  {Data: []byte("BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_iommu=on iommu=pt quiet\n")},
			"sys/class/iommu/dmar0":         {Mode: os.ModeDir},
			"sys/class/dmi/id/sys_vendor":   {Data: []byte("QEMU\n")},
			"sys/class/dmi/id/product_name": {Data: []byte("Standard PC (Q35 + ICH9, 2009)\n")},
			"usr/local/cuda/version.json":   {Data: []byte(`{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}`)},
			"usr/lib/python3.12/site-packages/torch-2.5.1+cu124.dist-info/METADATA":             {Data: []byte("Name: torch\n")},
			"usr/lib/python3.12/site-packages/nvidia_nccl_cu12-2.21.5.dist-info/METADATA":       {Data: []byte("Name: nvidia-nccl-cu12\n")},
			"usr/lib/python3.12/site-packages/requests-2.32.0.dist-info/METADATA":               {Data: []byte("Name: requests\n")},
			"home/alice/.local/lib/python3.12/site-packages/jax-0.4.35.dist-info/METADATA":      {Data: []byte("Name: jax\n")},
			"home/alice/.local/lib/python3.12/site-packages/tensorflow-2.17.0.dist-info/RECORD": {Data: []byte("")},
		},
		Environ: []string{
			"PATH=/usr/bin:/bin", "HOME=/home/alice", "USER=alice", "HOSTNAME=gpu-node-17",
			"CUDA_VISIBLE_DEVICES=GPU-8c2f9e61-5d1a-4b7e-9f0c-1a2b3c4d5e6f,1",
			"NCCL_DEBUG=INFO", "NCCL_DEBUG_FILE=/home/alice/logs/nccl.gpu-node-17.%p.log", "NCCL_P2P_LEVEL=NVL",
			"TF_GPU_ALLOCATOR=cuda_malloc_async", "SECRET_TOKEN=hunter2",
		},
		Now:      func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		GOOS:     "linux",
		GOARCH:   "amd64",
		Hostname: "gpu-node-17", User: "alice", Home: "/home/alice",
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	s, err := c.Compile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, name string, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not match probe/schema.json: %v", name, err)
	}
}

// TestGolden collects each fake machine and compares with the reviewed JSON;
// the schema must accept every golden file.
func TestGolden(t *testing.T) {
	schema := compileSchema(t)
	names := make([]string, 0, len(machines))
	for n := range machines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			rep := Collect(machines[name].lib(), fixtureSystem(), Options{Version: "test"})
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("../testdata/golden", name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s; run with -update and review the diff", golden)
			}
			validate(t, schema, golden, want)
		})
	}
}

func TestRealReadingsMatchSchema(t *testing.T) {
	schema := compileSchema(t)
	files, _ := filepath.Glob("../testdata/real/*.json")
	if len(files) < 2 {
		t.Fatalf("want the real readings in probe/testdata/real, found %v", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, schema, f, data)
	}
}

// The fake two-H200 machine, built from the NVML answers recorded in
// shared/reference, must give the GPUs, pairs and summary the real probe
// printed on such a machine.
func TestFakeH200MatchesRealReading(t *testing.T) {
	var real facts.Report
	data, err := os.ReadFile("../testdata/real/h200x2.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &real); err != nil {
		t.Fatal(err)
	}
	fake := Collect(machines["h200x2-nvswitch"].lib(), fixtureSystem(), Options{})
	if !reflect.DeepEqual(fake.GPUs, real.GPUs) {
		a, _ := json.Marshal(fake.GPUs[0])
		b, _ := json.Marshal(real.GPUs[0])
		t.Errorf("GPUs differ:\nfake %s\nreal %s", a, b)
	}
	if !reflect.DeepEqual(fake.Pairs, real.Pairs) {
		t.Errorf("pairs differ:\nfake %+v\nreal %+v", fake.Pairs, real.Pairs)
	}
	if !reflect.DeepEqual(fake.Summary, real.Summary) {
		t.Errorf("summary differs:\nfake %+v\nreal %+v", fake.Summary, real.Summary)
	}
	if fake.Driver.Version != real.Driver.Version || fake.Driver.CUDA != real.Driver.CUDA {
		t.Errorf("driver differs: %+v vs %+v", fake.Driver, real.Driver)
	}
}

// nvidia-smi topo -m printed on the real machines: the probe's connection
// labels must be the same.
func TestRealReadingsAgreeWithNvidiaSmi(t *testing.T) {
	for _, m := range []string{"h200x2", "h200x4", "h100"} {
		var rep facts.Report
		data, _ := os.ReadFile("../testdata/real/" + m + ".json")
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		smi, err := os.ReadFile("../testdata/real/" + m + "-nvidia-smi.txt")
		if err != nil {
			t.Fatal(err)
		}
		matrix := topoMatrix(string(smi))
		if len(matrix) != len(rep.GPUs) {
			t.Fatalf("%s: nvidia-smi shows %d GPUs, the probe %d", m, len(matrix), len(rep.GPUs))
		}
		for _, p := range rep.Pairs {
			if got, want := p.Connection, matrix[p.From][p.To]; got != want {
				t.Errorf("%s: GPU%d-GPU%d is %s, nvidia-smi says %s", m, p.From, p.To, got, want)
			}
			if p.Read.V != "OK" || p.Write.V != "OK" || p.Prop.V != "NOT_SUPPORTED" {
				t.Errorf("%s: pair %+v, nvidia-smi topo -p2p says read/write OK, prop NS", m, p)
			}
		}
	}
}

// topoMatrix reads the GPU rows of nvidia-smi topo -m.
func topoMatrix(out string) [][]string {
	var m [][]string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], "GPU") || strings.Contains(line, "\x1b") {
			continue
		}
		if len(m) > 0 && len(f)-1 < len(m[0]) {
			break
		}
		var row []string
		for _, c := range f[1:] {
			if c == "X" || strings.HasPrefix(c, "NV") || c == "PIX" || c == "PXB" || c == "PHB" || c == "NODE" || c == "SYS" {
				row = append(row, c)
			} else {
				break
			}
		}
		m = append(m, row)
		if len(m) == len(row) {
			break
		}
	}
	return m
}

func TestDefaultOutputIdentifiesNobody(t *testing.T) {
	sys := fixtureSystem()
	rep := Collect(machines["h200x2-nvswitch"].lib(), sys, Options{})
	out, _ := json.Marshal(rep)
	for _, secret := range []string{"gpu-node-17", "alice", "8c2f9e61", "GPU-0000", "hunter2", "/home/"} {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("default output contains %q: %s", secret, out)
		}
	}
	if rep.Software.Env["NCCL_DEBUG_FILE"] != "~/logs/nccl.<redacted>.%p.log" || rep.Software.Env["CUDA_VISIBLE_DEVICES"] != "GPU-<redacted>,1" {
		t.Errorf("env not redacted as expected: %v", rep.Software.Env)
	}
	with := Collect(machines["h200x2-nvswitch"].lib(), sys, Options{IncludeIDs: true})
	if with.GPUs[0].UUID == "" || !strings.HasPrefix(with.Software.Env["CUDA_VISIBLE_DEVICES"], "GPU-8c2f9e61") {
		t.Errorf("--include-ids must add UUIDs: %+v %v", with.GPUs[0].UUID, with.Software.Env)
	}
}

func TestHostAndSoftwareFacts(t *testing.T) {
	rep := Collect(machines["no-gpu"].lib(), fixtureSystem(), Options{})
	if rep.Host.OS != "Ubuntu 24.04.3 LTS" || rep.Host.Kernel != "6.8.0-49-generic" || rep.Host.Hypervisor != "kvm" || rep.Host.VirtualMachine == nil || !*rep.Host.VirtualMachine {
		t.Errorf("host = %+v", rep.Host)
	}
	if got := strings.Join(rep.Software.IOMMU.KernelArgs, " "); got != "intel_iommu=on iommu=pt" || rep.Software.IOMMU.Enabled == nil || !*rep.Software.IOMMU.Enabled {
		t.Errorf("iommu = %+v", rep.Software.IOMMU)
	}
	if rep.Driver.CUDAToolkit != "12.4.1" || rep.Driver.CUDAToolkitFrom != "/usr/local/cuda" {
		t.Errorf("toolkit = %q from %q", rep.Driver.CUDAToolkit, rep.Driver.CUDAToolkitFrom)
	}
	var pkgs []string
	for _, p := range rep.Software.Python {
		pkgs = append(pkgs, p.Name+"=="+p.Version)
	}
	if got := strings.Join(pkgs, " "); got != "jax==0.4.35 nvidia-nccl-cu12==2.21.5 tensorflow==2.17.0 torch==2.5.1+cu124" {
		t.Errorf("python packages = %s", got)
	}
	if _, ok := rep.Software.Env["SECRET_TOKEN"]; ok || len(rep.Software.Env) != 5 {
		t.Errorf("env = %v", rep.Software.Env)
	}
}

func TestBlockedPairsAndLabels(t *testing.T) {
	rep := Collect(machines["pcie4-blocked"].lib(), fixtureSystem(), Options{})
	if rep.Summary.AllPairsP2P == nil || *rep.Summary.AllPairsP2P {
		t.Fatalf("all_pairs_p2p = %v", rep.Summary.AllPairsP2P)
	}
	want := []facts.BlockedPair{{From: 0, To: 2, Reason: "IOH_TOPOLOGY_NOT_SUPPORTED"}, {From: 1, To: 3, Reason: "DISABLED_BY_REGKEY"}, {From: 2, To: 0, Reason: "IOH_TOPOLOGY_NOT_SUPPORTED"}, {From: 3, To: 1, Reason: "DISABLED_BY_REGKEY"}}
	if !reflect.DeepEqual(rep.Summary.BlockedPairs, want) {
		t.Errorf("blocked = %+v", rep.Summary.BlockedPairs)
	}
	for _, p := range rep.Pairs {
		want := "SYS"
		if p.From/2 == p.To/2 {
			want = "PIX"
		}
		if p.Connection != want || p.NVLinks != 0 {
			t.Errorf("pair %d-%d: %s with %d links, want %s", p.From, p.To, p.Connection, p.NVLinks, want)
		}
	}
}

func TestOldDriverRecordsErrorsAndGoesOn(t *testing.T) {
	rep := Collect(machines["old-driver"].lib(), fixtureSystem(), Options{})
	if rep.Driver.CUDA.Err != "ERROR_FUNCTION_NOT_FOUND" || rep.GPUs[0].Architecture.Err != "ERROR_FUNCTION_NOT_FOUND" {
		t.Errorf("failed calls must record their error: %+v %+v", rep.Driver.CUDA, rep.GPUs[0].Architecture)
	}
	if rep.GPUs[1].Name.V != "Tesla V100-PCIE-16GB" || len(rep.Pairs) != 2 || rep.Pairs[0].Connection != "PXB" {
		t.Errorf("the rest must still be read: %+v", rep.Pairs)
	}
}

func TestMIG(t *testing.T) {
	rep := Collect(machines["mig-enabled"].lib(), fixtureSystem(), Options{})
	if rep.Summary.MIG == nil || !*rep.Summary.MIG || rep.GPUs[0].MIGMode.V != "enabled" || rep.GPUs[1].MIGMode.V != "disabled" {
		t.Errorf("mig: %+v %+v", rep.Summary, rep.GPUs[0].MIGMode)
	}
	if rep.Pairs[0].Connection != "NV12" || !rep.Pairs[0].NVSwitch {
		t.Errorf("A100 pair over NVSwitch: %+v", rep.Pairs[0])
	}
}

func TestNoLibrary(t *testing.T) {
	rep := Collect(machines["no-library"].lib(), fixtureSystem(), Options{})
	if rep.NVML.Available || rep.NVML.Error != "ERROR_LIBRARY_NOT_FOUND" || !strings.Contains(rep.NVML.Reason, "libnvidia-ml.so.1") {
		t.Errorf("nvml = %+v", rep.NVML)
	}
	if rep.Summary.AllPairsP2P != nil || rep.Host.OS == "" {
		t.Errorf("without NVML the host facts remain and P2P is unknown: %+v", rep.Summary)
	}
}
