package collect

import (
	"encoding/binary"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// System is the host as the probe reads it besides NVML.
type System struct {
	Root    fs.FS            // the file system from "/": /proc, /sys, /etc, site-packages
	Environ []string         // KEY=value
	Now     func() time.Time //
	GOOS    string
	GOARCH  string
	// Hostname, User and Home are what must not appear in the report; values
	// that contain them are redacted.
	Hostname, User, Home string
}

// Local is this machine.
func Local() System {
	host, _ := os.Hostname()
	home, _ := os.UserHomeDir()
	return System{
		Root: os.DirFS("/"), Environ: os.Environ(), Now: time.Now,
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		Hostname: host, User: os.Getenv("USER"), Home: home,
	}
}

func (s System) read(p string) string {
	b, err := fs.ReadFile(s.Root, strings.TrimPrefix(p, "/"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func (s System) getenv(key string) string {
	for _, kv := range s.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

func host(s System) facts.Host {
	h := facts.Host{OS: s.GOOS, Arch: s.GOARCH, Kernel: s.read("/proc/sys/kernel/osrelease")}
	for _, line := range strings.Split(s.read("/etc/os-release"), "\n") {
		if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
			h.OS = strings.Trim(v, `"'`)
		}
	}
	if cpu := s.read("/proc/cpuinfo"); cpu != "" {
		vm := regexp.MustCompile(`(?m)^flags\s*:.*\bhypervisor\b`).MatchString(cpu)
		h.VirtualMachine = &vm
	}
	vendor := strings.ToLower(s.read("/sys/class/dmi/id/sys_vendor") + " " + s.read("/sys/class/dmi/id/product_name"))
	for _, v := range []struct{ match, name string }{
		{"qemu", "kvm"}, {"kvm", "kvm"}, {"amazon ec2", "kvm"}, {"google compute engine", "kvm"},
		{"vmware", "vmware"}, {"microsoft corporation virtual machine", "hyperv"}, {"xen", "xen"},
		{"virtualbox", "virtualbox"}, {"openstack", "kvm"},
	} {
		if strings.Contains(vendor, v.match) {
			h.Hypervisor = v.name
			t := true
			h.VirtualMachine = &t
			break
		}
	}
	cgroup := s.read("/proc/1/cgroup")
	switch {
	case s.getenv("KUBERNETES_SERVICE_HOST") != "" || strings.Contains(cgroup, "kubepods"):
		h.Container = "kubernetes"
	case exists(s.Root, ".dockerenv") || strings.Contains(cgroup, "docker"):
		h.Container = "docker"
	case exists(s.Root, "run/.containerenv"):
		h.Container = "podman"
	case strings.Contains(cgroup, "containerd"):
		h.Container = "containerd"
	case strings.Contains(cgroup, "lxc"):
		h.Container = "lxc"
	}
	return h
}

func exists(fsys fs.FS, p string) bool {
	_, err := fs.Stat(fsys, p)
	return err == nil
}

var (
	uuidRE   = regexp.MustCompile(`(?i)\b(GPU|MIG)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	envNames = map[string]bool{"CUDA_VISIBLE_DEVICES": true, "CUDA_DEVICE_ORDER": true, "TF_GPU_ALLOCATOR": true}
)

func software(s System, opt Options) facts.Software {
	sw := facts.Software{Env: map[string]string{}, ACS: []facts.Bridge{}, Python: python(s)}
	for _, kv := range s.Environ {
		k, v, _ := strings.Cut(kv, "=")
		if envNames[k] || strings.HasPrefix(k, "NCCL_") {
			sw.Env[k] = redact(s, v, opt.IncludeIDs)
		}
	}
	sw.IOMMU.KernelArgs = []string{}
	for _, arg := range strings.Fields(s.read("/proc/cmdline")) {
		if strings.Contains(arg, "iommu") {
			sw.IOMMU.KernelArgs = append(sw.IOMMU.KernelArgs, arg)
		}
	}
	if entries, err := fs.ReadDir(s.Root, "sys/class/iommu"); err == nil {
		on := len(entries) > 0
		sw.IOMMU.Enabled = &on
	}
	return sw
}

// redact removes what identifies the machine or a person from an
// environment value: GPU UUIDs, the host and user names, the home directory.
func redact(s System, v string, includeIDs bool) string {
	if !includeIDs {
		v = uuidRE.ReplaceAllString(v, "$1-<redacted>")
	}
	if s.Home != "" && s.Home != "/" {
		v = strings.ReplaceAll(v, s.Home, "~")
	}
	for _, secret := range []string{s.Hostname, s.User} {
		if len(secret) >= 3 {
			v = strings.ReplaceAll(v, secret, "<redacted>")
		}
	}
	return v
}

// cudaToolkit reads the toolkit version from CUDA_HOME or /usr/local/cuda.
// The path itself is not reported: it may lie in a home directory.
func cudaToolkit(s System) (version, from string) {
	for _, c := range []struct{ dir, name string }{{s.getenv("CUDA_HOME"), "CUDA_HOME"}, {"/usr/local/cuda", "/usr/local/cuda"}} {
		if c.dir == "" {
			continue
		}
		var vj struct {
			CUDA struct {
				Version string `json:"version"`
			} `json:"cuda"`
		}
		if err := json.Unmarshal([]byte(s.read(path.Join(c.dir, "version.json"))), &vj); err == nil && vj.CUDA.Version != "" {
			return vj.CUDA.Version, c.name
		}
		if txt := s.read(path.Join(c.dir, "version.txt")); strings.HasPrefix(txt, "CUDA Version ") {
			return strings.TrimPrefix(txt, "CUDA Version "), c.name
		}
		// Toolkits without a version file still name the runtime library by version.
		libs, _ := fs.Glob(s.Root, strings.TrimPrefix(path.Join(c.dir, "lib64", "libcudart.so.*.*.*"), "/"))
		for _, lib := range libs {
			if v := strings.TrimPrefix(path.Base(lib), "libcudart.so."); strings.Count(v, ".") == 2 {
				return v, c.name
			}
		}
	}
	return "", ""
}

// pythonPackages are the distributions whose versions decide P2P behaviour.
var pythonPackages = regexp.MustCompile(`^(torch|tensorflow|tensorflow[-_]gpu|tf[-_]nightly|jax|jaxlib|jax[-_]cuda\d+[-_]plugin|cupy(?:[-_]cuda\w+)?|nvidia[-_]nccl[-_]cu\d+)-([^-]+)\.(?:dist|egg)-info$`)

// python finds P2P-relevant packages by their metadata folders in the usual
// site-packages locations, without running Python.
func python(s System) []facts.Package {
	roots := []string{"usr/lib", "usr/local/lib", "opt/conda/lib"}
	for _, env := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if v := s.getenv(env); v != "" {
			roots = append(roots, strings.TrimPrefix(path.Join(v, "lib"), "/"))
		}
	}
	if s.Home != "" {
		roots = append(roots, strings.TrimPrefix(path.Join(s.Home, ".local/lib"), "/"))
	}
	// A virtual environment whose bin/ is on PATH, activated or not.
	for _, dir := range strings.Split(s.getenv("PATH"), ":") {
		if path.IsAbs(dir) && path.Base(dir) == "bin" {
			roots = append(roots, strings.TrimPrefix(path.Join(path.Dir(dir), "lib"), "/"))
		}
	}
	seen := map[facts.Package]bool{}
	out := []facts.Package{}
	for _, root := range roots {
		pys, _ := fs.Glob(s.Root, root+"/python3*")
		for _, py := range pys {
			for _, sub := range []string{"site-packages", "dist-packages"} {
				entries, err := fs.ReadDir(s.Root, path.Join(py, sub))
				if err != nil {
					continue
				}
				for _, e := range entries {
					m := pythonPackages.FindStringSubmatch(e.Name())
					if m == nil {
						continue
					}
					p := facts.Package{Name: strings.ReplaceAll(strings.ToLower(m[1]), "_", "-"), Version: m[2]}
					if !seen[p] {
						seen[p] = true
						out = append(out, p)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Name < out[j].Name || out[i].Name == out[j].Name && out[i].Version < out[j].Version
	})
	return out
}

// acs reads the ACS control register of every bridge above each GPU from
// PCI config space in sysfs. Reading past the first 64 bytes needs root.
func acs(s System, gpus []facts.GPU) []facts.Bridge {
	out := []facts.Bridge{}
	for _, g := range gpus {
		if !g.PCIBusID.Valid {
			continue
		}
		bdf := sysfsBDF(g.PCIBusID.V)
		link, err := readlink(s.Root, "sys/bus/pci/devices/"+bdf)
		if err != nil {
			continue
		}
		// .../pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0: every element
		// between the root and the GPU is a bridge.
		parts := strings.Split(link, "/")
		for i := len(parts) - 2; i >= 0; i-- {
			p := parts[i]
			if !bdfRE.MatchString(p) {
				break
			}
			out = append(out, bridge(s, g.Index, p))
		}
	}
	return out
}

var bdfRE = regexp.MustCompile(`^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`)

// sysfsBDF turns NVML's 00000000:00:06.0 into sysfs's 0000:00:06.0.
func sysfsBDF(id string) string {
	dom, rest, ok := strings.Cut(id, ":")
	if !ok || len(dom) < 4 {
		return id
	}
	return dom[len(dom)-4:] + ":" + rest
}

// readlink resolves a sysfs symlink when the file system is the real one.
func readlink(fsys fs.FS, p string) (string, error) {
	if rl, ok := fsys.(interface{ ReadLink(string) (string, error) }); ok {
		return rl.ReadLink(p)
	}
	return os.Readlink("/" + p)
}

const (
	acsCapID   = 0x000d
	acsRR      = 1 << 2 // P2P Request Redirect
	acsCR      = 1 << 3 // P2P Completion Redirect
	extCapBase = 0x100
)

func bridge(s System, gpu int, bdf string) facts.Bridge {
	b := facts.Bridge{GPU: gpu, BusID: bdf}
	cfg, err := fs.ReadFile(s.Root, "sys/bus/pci/devices/"+bdf+"/config")
	if err != nil {
		b.Error = "config space unreadable"
		return b
	}
	if len(cfg) <= extCapBase {
		b.Error = "extended config space unreadable (run as root to read ACS)"
		return b
	}
	found := false
	for off, hops := extCapBase, 0; off >= extCapBase && off+8 <= len(cfg) && hops < 64; hops++ {
		hdr := binary.LittleEndian.Uint32(cfg[off:])
		if hdr == 0 || hdr == 0xffffffff {
			break
		}
		if hdr&0xffff == acsCapID {
			ctrl := binary.LittleEndian.Uint16(cfg[off+6:])
			b.RequestRedirect, b.CompletionRedirect = ctrl&acsRR != 0, ctrl&acsCR != 0
			found = true
			break
		}
		off = int(hdr >> 20)
	}
	b.ACS = &found
	return b
}
