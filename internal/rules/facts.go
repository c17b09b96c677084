package rules

import (
	"fmt"
	"strings"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// value is one fact: a bool, a number, a version or a string, or unknown.
type value struct {
	known   bool
	kind    string // bool, num, version, str
	b       bool
	s       string  // version and str; also the text of a number
	n       float64 // num
	display string  // how a reason names it: "driver 580.159.04"
	yes, no string  // a true or false fact's own reason, when it can say more than "present"
}

// Facts are the facts of one machine, by name.
type Facts map[string]value

var factNames = []string{"gpu.count", "gpu.arch", "p2p.all_pairs_ok", "p2p.blocked_pairs", "nvlink.present", "nvswitch.present",
	"mig.enabled", "virtualized", "container", "iommu.enabled", "acs.redirect", "nvml.available", "driver.version", "cuda.version", "cuda.build", "cuda.driver",
	"gpu.consumer", "topo.sys_pairs", "wsl", "slurm", "iommu.passthrough", "iommu.faults", "xid.count", "xid.nvlink",
	"nccl.version", "nccl.p2p_used", "nccl.transport", "nccl.p2p_refused",
	"p2p.test.ran", "p2p.test.data_ok", "p2p.test.failed_pairs", "p2p.test.slow_pairs", "p2p.test.ipc_ok", "p2p.test.timeouts", "p2p.test.enable_error",
	"nccl.tests.wrong", "nccl.tests.busbw", "p2p.waived", "gpu.bar1_mib", "gpu.bar1_small", "nccl.stopped_after_init", "hang.at_init", "hang.later", "hang.first", "nodes.multi_only", "ranks.diverge", "launch.master_loopback", "p2p.off_works", "storage.node_local", "launch.second_job", "train.metric_by_gpus", "run.training", "gpu.unwanted_use", "gpu.first_only", "devices.mixed", "output.close", "host.power_loss", "pcie.riser", "gpu.lost", "model.split", "p2p.copy_zeros", "p2p.link_gbs", "p2p.bw_below_link",
	"nccl.tests.busbw_peak", "nccl.tests.link_gbs", "nccl.tests.busbw_pct", "nccl.tests.nvlink", "nccl.tests.small_sizes",
	"hang.seen", "hang.said", "memory.oom", "output.wrong", "loss.nan", "loss.zero", "deepspeed.zero2", "container.p2p", "cpu.amd", "cpu.sockets", "perf.slow", "shm.small", "fabricmanager.down", "nvls.none", "windows.distributed", "perf.vs_headline",
	"nccl.nvls", "allreduce.custom",
	"perf.no_speedup", "perf.dataparallel", "ranks.same_gpu", "topo.known",
	"p2p.already_enabled", "ibverbs.warning", "fabric.not_supported", "nccl.tests.error_column",
	"llamacpp.split_mode", "llamacpp.split_tensor",
	"version.regression", "version.component", "version.good", "version.bad",
	"gpu.sharing", "gpus.isolated",
	"nccl.bundled", "version.changed", "gpu.amd", "collectives.differ"}

func knownFact(name string) bool {
	if strings.HasPrefix(name, "env.") && len(name) > 4 || strings.HasPrefix(name, "python.") && len(name) > 7 {
		return true
	}
	for _, n := range factNames {
		if n == name {
			return true
		}
	}
	return false
}

func boolean(b bool, display string) value {
	return value{known: true, kind: "bool", b: b, display: display}
}

// isTrue reads a summary's flag, which NVML's answer makes non-nil.
func isTrue(b *bool) bool { return b != nil && *b }

// FromReport turns a probe report into facts.
func FromReport(r *facts.Report) Facts {
	f := Facts{}
	nvml := r.NVML.Available
	f["nvml.available"] = boolean(nvml, "NVML")
	if nvml {
		f["gpu.count"] = value{known: true, kind: "num", n: float64(len(r.GPUs)), s: fmt.Sprint(len(r.GPUs)), display: "GPU count"}
		f["nvlink.present"] = boolean(isTrue(r.Summary.NVLink), "NVLink")
		f["nvswitch.present"] = boolean(isTrue(r.Summary.NVSwitch), "NVSwitch")
		f["mig.enabled"] = boolean(isTrue(r.Summary.MIG), "MIG")
		f["p2p.blocked_pairs"] = value{known: true, kind: "num", n: float64(len(r.Summary.BlockedPairs)), s: fmt.Sprint(len(r.Summary.BlockedPairs)), display: "pairs without P2P"}
		arch := ""
		for i, g := range r.GPUs {
			a := g.Architecture.V
			if !g.Architecture.Valid {
				arch = ""
				break
			}
			if i > 0 && a != arch {
				a = "mixed"
			}
			arch = a
		}
		if arch != "" {
			f["gpu.arch"] = value{known: true, kind: "str", s: arch, display: "GPU architecture"}
		}
	}
	if r.Summary.AllPairsP2P != nil {
		v := boolean(*r.Summary.AllPairsP2P, "P2P between all GPU pairs")
		v.yes, v.no = pairReasons(r)
		f["p2p.all_pairs_ok"] = v
	}
	if r.Host.VirtualMachine != nil {
		f["virtualized"] = boolean(*r.Host.VirtualMachine, "virtual machine")
	}
	f["container"] = boolean(r.Host.Container != "", "container")
	if r.Software.IOMMU.Enabled != nil {
		f["iommu.enabled"] = boolean(*r.Software.IOMMU.Enabled, "IOMMU")
	}
	redirect, unreadable := false, false
	for _, b := range r.Software.ACS {
		redirect = redirect || b.RequestRedirect || b.CompletionRedirect
		unreadable = unreadable || b.ACS == nil
	}
	if redirect || !unreadable {
		f["acs.redirect"] = boolean(redirect, "ACS redirect")
	}
	ver := func(name string, v facts.Value[string], display string) {
		if v.Valid && v.V != "" {
			f[name] = value{known: true, kind: "version", s: v.V, display: display}
		}
	}
	ver("driver.version", r.Driver.Version, "driver")
	ver("cuda.driver", r.Driver.CUDA, "CUDA (driver)")
	if r.Driver.CUDAToolkit != "" {
		f["cuda.version"] = value{known: true, kind: "version", s: r.Driver.CUDAToolkit, display: "CUDA"}
	} else if v, ok := f["cuda.driver"]; ok {
		v.display = "CUDA"
		f["cuda.version"] = v
	}
	for _, p := range r.Software.Python {
		name := p.Name
		if strings.HasPrefix(name, "nvidia-nccl") {
			name = "nccl"
		}
		if strings.HasPrefix(name, "cupy") {
			name = "cupy"
		}
		f["python."+name] = value{known: true, kind: "version", s: p.Version, display: p.Name}
	}
	for _, k := range []string{"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "TF_GPU_ALLOCATOR"} {
		f["env."+k] = value{known: true, kind: "str", s: r.Software.Env[k], display: k}
	}
	for k, v := range r.Software.Env {
		f["env."+k] = value{known: true, kind: "str", s: v, display: k}
	}
	f.ListNCCLEnv()
	hostFacts(f, r)
	testFacts(f, r.Test)
	return f
}

// pairReasons words the P2P fact with the pairs themselves: how the first
// pairs connect when all can do P2P, which pairs cannot and why when not.
// assets/rules.js words them the same.
func pairReasons(r *facts.Report) (yes, no string) {
	var ok, blocked []string
	for _, p := range r.Pairs {
		if p.From < p.To && len(ok) < 3 {
			ok = append(ok, fmt.Sprintf("GPU%d-GPU%d over %s", p.From, p.To, p.Connection))
		}
	}
	for _, b := range r.Summary.BlockedPairs {
		if b.From < b.To && len(blocked) < 3 {
			blocked = append(blocked, fmt.Sprintf("GPU%d-GPU%d %s", b.From, b.To, b.Reason))
		}
	}
	yes = reasonAllPairs.en
	if len(ok) > 0 {
		yes += " (" + strings.Join(ok, ", ") + ")"
	}
	no = reasonBlocked.en
	if len(blocked) > 0 {
		no += ": " + strings.Join(blocked, ", ")
	}
	return yes, no
}

// ncclEnvListed is the key under which Facts note that a source listed
// every NCCL_* variable set. No condition can name it.
const ncclEnvListed = "env.NCCL_*"

// ListNCCLEnv notes that the facts come from a source that lists every
// NCCL_* variable that is set: a probe report (it records each one), or an
// NCCL_DEBUG=INFO log (NCCL prints "NCCL_X set by environment to ..." for
// each one it reads). A variable such a source does not list was not set.
func (f Facts) ListNCCLEnv() { f[ncclEnvListed] = value{known: true, kind: "listed"} }

// get returns a fact, unknown when no source saw it. An NCCL_* variable
// not recorded was not set when a source lists them all (ListNCCLEnv), and
// is unknown otherwise: a pasted topology says nothing about the
// environment.
func (f Facts) get(name string) value {
	if v, ok := f[name]; ok {
		return v
	}
	if strings.HasPrefix(name, "env.NCCL_") {
		v := value{kind: "str", display: strings.TrimPrefix(name, "env.")}
		_, v.known = f[ncclEnvListed]
		return v
	}
	// The NCCL a job loads is the one it prints (NCCL version 2.7.8); without
	// that line, the one a Python package ships is the one it would load.
	if v, ok := f["python.nccl"]; ok && name == "nccl.version" && v.known {
		v.display = Display(name)
		return v
	}
	// The NCCL a PyTorch wheel brings is implied only where none is printed;
	// where one is, it is the one the job loads.
	if name == "nccl.bundled" {
		if v := f.get("nccl.version"); v.known {
			v.display = Display(name)
			return v
		}
	}
	return value{display: Display(name)}
}

// Display is how reasons and answers name a fact: "P2P between all GPU
// pairs" for p2p.all_pairs_ok; an env.NAME or python.NAME fact by its NAME.
func Display(fact string) string {
	if d, ok := displayNames[fact]; ok {
		return d.en
	}
	for _, p := range []string{"env.", "python."} {
		if n, ok := strings.CutPrefix(fact, p); ok && n != "" {
			return n
		}
	}
	return fact
}
