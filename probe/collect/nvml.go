// Package collect gathers a facts.Report: from NVML for the GPUs and the
// pairs between them, and from /proc, /sys and the environment for what
// around them changes P2P. NVML comes in as an nvml.Interface and the host
// as a System, so tests run every case on mocks and fixtures.
package collect

import (
	"fmt"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/p2pkb/p2pkb/probe/facts"
)

var returnNames = map[nvml.Return]string{
	nvml.ERROR_UNINITIALIZED: "ERROR_UNINITIALIZED", nvml.ERROR_INVALID_ARGUMENT: "ERROR_INVALID_ARGUMENT",
	nvml.ERROR_NOT_SUPPORTED: "ERROR_NOT_SUPPORTED", nvml.ERROR_NO_PERMISSION: "ERROR_NO_PERMISSION",
	nvml.ERROR_ALREADY_INITIALIZED: "ERROR_ALREADY_INITIALIZED", nvml.ERROR_NOT_FOUND: "ERROR_NOT_FOUND",
	nvml.ERROR_INSUFFICIENT_SIZE: "ERROR_INSUFFICIENT_SIZE", nvml.ERROR_INSUFFICIENT_POWER: "ERROR_INSUFFICIENT_POWER",
	nvml.ERROR_DRIVER_NOT_LOADED: "ERROR_DRIVER_NOT_LOADED", nvml.ERROR_TIMEOUT: "ERROR_TIMEOUT",
	nvml.ERROR_IRQ_ISSUE: "ERROR_IRQ_ISSUE", nvml.ERROR_LIBRARY_NOT_FOUND: "ERROR_LIBRARY_NOT_FOUND",
	nvml.ERROR_FUNCTION_NOT_FOUND: "ERROR_FUNCTION_NOT_FOUND", nvml.ERROR_CORRUPTED_INFOROM: "ERROR_CORRUPTED_INFOROM",
	nvml.ERROR_GPU_IS_LOST: "ERROR_GPU_IS_LOST", nvml.ERROR_RESET_REQUIRED: "ERROR_RESET_REQUIRED",
	nvml.ERROR_OPERATING_SYSTEM: "ERROR_OPERATING_SYSTEM", nvml.ERROR_LIB_RM_VERSION_MISMATCH: "ERROR_LIB_RM_VERSION_MISMATCH",
	nvml.ERROR_IN_USE: "ERROR_IN_USE", nvml.ERROR_MEMORY: "ERROR_MEMORY", nvml.ERROR_NO_DATA: "ERROR_NO_DATA",
	nvml.ERROR_VGPU_ECC_NOT_SUPPORTED: "ERROR_VGPU_ECC_NOT_SUPPORTED", nvml.ERROR_INSUFFICIENT_RESOURCES: "ERROR_INSUFFICIENT_RESOURCES",
	nvml.ERROR_FREQ_NOT_SUPPORTED: "ERROR_FREQ_NOT_SUPPORTED", nvml.ERROR_ARGUMENT_VERSION_MISMATCH: "ERROR_ARGUMENT_VERSION_MISMATCH",
	nvml.ERROR_DEPRECATED: "ERROR_DEPRECATED", nvml.ERROR_NOT_READY: "ERROR_NOT_READY", nvml.ERROR_GPU_NOT_FOUND: "ERROR_GPU_NOT_FOUND",
	nvml.ERROR_INVALID_STATE: "ERROR_INVALID_STATE", nvml.ERROR_RESET_TYPE_NOT_SUPPORTED: "ERROR_RESET_TYPE_NOT_SUPPORTED",
	nvml.ERROR_UNKNOWN: "ERROR_UNKNOWN",
}

// ReturnName is the stable name of an NVML return code, as the report records it.
func ReturnName(r nvml.Return) string {
	if n, ok := returnNames[r]; ok {
		return n
	}
	return fmt.Sprintf("ERROR_%d", int32(r))
}

var p2pNames = map[nvml.GpuP2PStatus]string{
	nvml.P2P_STATUS_OK: "OK", nvml.P2P_STATUS_CHIPSET_NOT_SUPPORTED: "CHIPSET_NOT_SUPPORTED",
	nvml.P2P_STATUS_GPU_NOT_SUPPORTED: "GPU_NOT_SUPPORTED", nvml.P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED: "IOH_TOPOLOGY_NOT_SUPPORTED",
	nvml.P2P_STATUS_DISABLED_BY_REGKEY: "DISABLED_BY_REGKEY", nvml.P2P_STATUS_NOT_SUPPORTED: "NOT_SUPPORTED",
	nvml.P2P_STATUS_UNKNOWN: "UNKNOWN",
}

var topologyNames = map[nvml.GpuTopologyLevel][2]string{
	nvml.TOPOLOGY_INTERNAL:   {"INTERNAL", "X"},
	nvml.TOPOLOGY_SINGLE:     {"SINGLE", "PIX"},
	nvml.TOPOLOGY_MULTIPLE:   {"MULTIPLE", "PXB"},
	nvml.TOPOLOGY_HOSTBRIDGE: {"HOSTBRIDGE", "PHB"},
	nvml.TOPOLOGY_NODE:       {"NODE", "NODE"},
	nvml.TOPOLOGY_SYSTEM:     {"SYSTEM", "SYS"},
}

var archNames = map[nvml.DeviceArchitecture]string{
	nvml.DEVICE_ARCH_KEPLER: "kepler", nvml.DEVICE_ARCH_MAXWELL: "maxwell", nvml.DEVICE_ARCH_PASCAL: "pascal",
	nvml.DEVICE_ARCH_VOLTA: "volta", nvml.DEVICE_ARCH_TURING: "turing", nvml.DEVICE_ARCH_AMPERE: "ampere",
	nvml.DEVICE_ARCH_ADA: "ada", nvml.DEVICE_ARCH_HOPPER: "hopper", nvml.DEVICE_ARCH_BLACKWELL: "blackwell",
}

var virtNames = map[nvml.GpuVirtualizationMode]string{
	nvml.GPU_VIRTUALIZATION_MODE_NONE: "none", nvml.GPU_VIRTUALIZATION_MODE_PASSTHROUGH: "passthrough",
	nvml.GPU_VIRTUALIZATION_MODE_VGPU: "vgpu", nvml.GPU_VIRTUALIZATION_MODE_HOST_VGPU: "host_vgpu",
	nvml.GPU_VIRTUALIZATION_MODE_HOST_VSGA: "host_vsga",
}

var linkTypes = map[nvml.IntNvLinkDeviceType]string{
	nvml.NVLINK_DEVICE_TYPE_GPU: "gpu", nvml.NVLINK_DEVICE_TYPE_IBMNPU: "ibmnpu",
	nvml.NVLINK_DEVICE_TYPE_SWITCH: "nvswitch", nvml.NVLINK_DEVICE_TYPE_UNKNOWN: "unknown",
}

// value turns an NVML answer into a facts.Value.
func value[T any](v T, r nvml.Return) facts.Value[T] {
	if r != nvml.SUCCESS {
		return facts.Failed[T](ReturnName(r))
	}
	return facts.Of(v)
}

// named turns an NVML enum answer into its name.
func named[K comparable](k K, r nvml.Return, names map[K]string) facts.Value[string] {
	if r != nvml.SUCCESS {
		return facts.Failed[string](ReturnName(r))
	}
	if n, ok := names[k]; ok {
		return facts.Of(n)
	}
	return facts.Of(fmt.Sprintf("UNKNOWN_%v", k))
}

func enabled(s nvml.EnableState) string {
	if s == nvml.FEATURE_ENABLED {
		return "enabled"
	}
	return "disabled"
}

// busID reads NVML's NUL-terminated bus id.
func busID(p nvml.PciInfo) string {
	b := make([]byte, 0, len(p.BusId))
	for _, c := range p.BusId {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return strings.ToLower(string(b))
}

// cudaVersion turns 13000 into "13.0".
func cudaVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// gpu reads one device.
func gpu(i int, d nvml.Device, includeIDs bool) facts.GPU {
	g := facts.GPU{Index: i}
	if includeIDs {
		if u, r := d.GetUUID(); r == nvml.SUCCESS {
			g.UUID = u
		}
	}
	g.Name = value(d.GetName())
	arch, r := d.GetArchitecture()
	g.Architecture = named(arch, r, archNames)
	major, minor, r := d.GetCudaComputeCapability()
	g.ComputeCapability = value(fmt.Sprintf("%d.%d", major, minor), r)
	pci, r := d.GetPciInfo()
	g.PCIBusID = value(busID(pci), r)
	g.PCIeGen.Current = value(d.GetCurrPcieLinkGeneration())
	g.PCIeGen.Max = value(d.GetMaxPcieLinkGeneration())
	g.PCIeWidth.Current = value(d.GetCurrPcieLinkWidth())
	g.PCIeWidth.Max = value(d.GetMaxPcieLinkWidth())
	g.NUMANode = value(d.GetNumaNodeId())
	mig, _, r := d.GetMigMode()
	g.MIGMode = value(enabled(nvml.EnableState(mig)), r)
	pers, r := d.GetPersistenceMode()
	g.Persistence = value(enabled(pers), r)
	virt, r := d.GetVirtualizationMode()
	g.Virtualization = named(virt, r, virtNames)
	mem, r := d.GetMemoryInfo()
	g.MemoryMiB = value(int(mem.Total/(1<<20)), r)

	for l := 0; l < nvml.NVLINK_MAX_LINKS; l++ {
		st, r := d.GetNvLinkState(l)
		if r == nvml.ERROR_NOT_SUPPORTED || r == nvml.ERROR_INVALID_ARGUMENT {
			// The GPU has no link with this number (or no NVLink at all).
			continue
		}
		link := facts.NVLink{Link: l, Active: value(st == nvml.FEATURE_ENABLED, r)}
		if r == nvml.SUCCESS && st == nvml.FEATURE_ENABLED {
			g.NVLinksActive++
			t, r := d.GetNvLinkRemoteDeviceType(l)
			link.RemoteType = named(t, r, linkTypes)
			if r == nvml.SUCCESS && t == nvml.NVLINK_DEVICE_TYPE_GPU {
				p, r := d.GetNvLinkRemotePciInfo(l)
				link.RemotePCI = value(busID(p), r)
			}
		}
		g.NVLinks = append(g.NVLinks, link)
	}
	return g
}

// pair reads what NVML says of a to b, and derives the nvidia-smi label.
func pair(i, j int, a, b nvml.Device, ga, gb facts.GPU) facts.Pair {
	p := facts.Pair{From: i, To: j}
	for _, c := range []struct {
		dst *facts.Value[string]
		idx nvml.GpuP2PCapsIndex
	}{
		{&p.Read, nvml.P2P_CAPS_INDEX_READ}, {&p.Write, nvml.P2P_CAPS_INDEX_WRITE},
		{&p.NVLink, nvml.P2P_CAPS_INDEX_NVLINK}, {&p.Atomics, nvml.P2P_CAPS_INDEX_ATOMICS},
		{&p.Prop, nvml.P2P_CAPS_INDEX_PROP},
	} {
		s, r := a.GetP2PStatus(b, c.idx)
		*c.dst = named(s, r, p2pNames)
	}
	level, r := a.GetTopologyCommonAncestor(b)
	if r == nvml.SUCCESS {
		n := topologyNames[level]
		p.Topology, p.PCIPath = facts.Of(n[0]), n[1]
		if n[0] == "" {
			p.Topology = facts.Of(fmt.Sprintf("UNKNOWN_%d", level))
		}
	} else {
		p.Topology = facts.Failed[string](ReturnName(r))
	}

	// Direct links name the remote GPU's bus id; links to an NVSwitch do not
	// (it reads 0xff), and every GPU on the switch fabric reaches every other
	// over all its switch links, which is what nvidia-smi counts.
	direct := 0
	for _, l := range ga.NVLinks {
		if l.RemotePCI.Valid && gb.PCIBusID.Valid && l.RemotePCI.V == gb.PCIBusID.V {
			direct++
		}
	}
	switched := min(switchLinks(ga), switchLinks(gb))
	if direct == 0 && switched > 0 && (!p.NVLink.Valid || p.NVLink.V == "OK") {
		p.NVLinks, p.NVSwitch = switched, true
	} else {
		p.NVLinks = direct
	}
	switch {
	case p.NVLinks > 0:
		p.Connection = fmt.Sprintf("NV%d", p.NVLinks)
	case p.PCIPath != "":
		p.Connection = p.PCIPath
	default:
		p.Connection = "?"
	}
	return p
}

func switchLinks(g facts.GPU) int {
	n := 0
	for _, l := range g.NVLinks {
		if l.Active.Valid && l.Active.V && l.RemoteType.Valid && l.RemoteType.V == "nvswitch" {
			n++
		}
	}
	return n
}

// initReason explains a failed nvml.Init to a person.
func initReason(r nvml.Return) string {
	switch r {
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return "the NVIDIA management library (libnvidia-ml.so.1) was not found: no NVIDIA driver is installed on this machine, or it is not visible inside this container (run the container with the NVIDIA container toolkit, e.g. --gpus all)"
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return "the NVIDIA kernel driver is not loaded: check 'lsmod | grep nvidia' and 'dmesg'"
	case nvml.ERROR_NO_PERMISSION:
		return "no permission to open the NVIDIA devices (/dev/nvidia*)"
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		return "the NVIDIA library and kernel module versions differ: the driver was upgraded without a reboot or module reload"
	}
	return "NVML could not start: " + ReturnName(r)
}
