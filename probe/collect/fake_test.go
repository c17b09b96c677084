package collect

import (
	"fmt"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
)

// fakeGPU is one GPU of a fake machine; fail makes named calls return an error.
type fakeGPU struct {
	name       string
	uuid       string
	arch       nvml.DeviceArchitecture
	cc         [2]int
	bus        string
	gen, width [2]int // current, max
	numa       int
	mig        int
	persist    nvml.EnableState
	virt       nvml.GpuVirtualizationMode
	memMiB     uint64
	links      []fakeLink
	fail       map[string]nvml.Return
}

type fakeLink struct {
	remote    nvml.IntNvLinkDeviceType
	remoteBus string
}

// fakeMachine answers NVML calls the way a real machine would.
type fakeMachine struct {
	init    nvml.Return
	driver  string
	cuda    int
	nvmlVer string
	gpus    []fakeGPU
	p2p     func(i, j int, idx nvml.GpuP2PCapsIndex) nvml.GpuP2PStatus
	topo    func(i, j int) nvml.GpuTopologyLevel
	fail    map[string]nvml.Return // system-level calls
}

func pciInfo(bus string) nvml.PciInfo {
	var p nvml.PciInfo
	for i := 0; i < len(bus) && i < len(p.BusId)-1; i++ {
		p.BusId[i] = uint8(bus[i])
	}
	return p
}

func (m fakeMachine) lib() nvml.Interface {
	devs := make([]*mock.Device, len(m.gpus))
	index := map[nvml.Device]int{}
	for i := range m.gpus {
		g := m.gpus[i]
		ret := func(call string) nvml.Return {
			if r, ok := g.fail[call]; ok {
				return r
			}
			return nvml.SUCCESS
		}
		d := &mock.Device{
			GetUUIDFunc:                   func() (string, nvml.Return) { return g.uuid, ret("GetUUID") },
			GetNameFunc:                   func() (string, nvml.Return) { return g.name, ret("GetName") },
			GetArchitectureFunc:           func() (nvml.DeviceArchitecture, nvml.Return) { return g.arch, ret("GetArchitecture") },
			GetCudaComputeCapabilityFunc:  func() (int, int, nvml.Return) { return g.cc[0], g.cc[1], ret("GetCudaComputeCapability") },
			GetPciInfoFunc:                func() (nvml.PciInfo, nvml.Return) { return pciInfo(g.bus), ret("GetPciInfo") },
			GetCurrPcieLinkGenerationFunc: func() (int, nvml.Return) { return g.gen[0], ret("GetCurrPcieLinkGeneration") },
			GetMaxPcieLinkGenerationFunc:  func() (int, nvml.Return) { return g.gen[1], ret("GetMaxPcieLinkGeneration") },
			GetCurrPcieLinkWidthFunc:      func() (int, nvml.Return) { return g.width[0], ret("GetCurrPcieLinkWidth") },
			GetMaxPcieLinkWidthFunc:       func() (int, nvml.Return) { return g.width[1], ret("GetMaxPcieLinkWidth") },
			GetNumaNodeIdFunc:             func() (int, nvml.Return) { return g.numa, ret("GetNumaNodeId") },
			GetMigModeFunc:                func() (int, int, nvml.Return) { return g.mig, g.mig, ret("GetMigMode") },
			GetPersistenceModeFunc:        func() (nvml.EnableState, nvml.Return) { return g.persist, ret("GetPersistenceMode") },
			GetVirtualizationModeFunc:     func() (nvml.GpuVirtualizationMode, nvml.Return) { return g.virt, ret("GetVirtualizationMode") },
			GetMemoryInfoFunc: func() (nvml.Memory, nvml.Return) {
				return nvml.Memory{Total: g.memMiB << 20}, ret("GetMemoryInfo")
			},
			GetNvLinkStateFunc: func(l int) (nvml.EnableState, nvml.Return) {
				if r := ret("GetNvLinkState"); r != nvml.SUCCESS {
					return 0, r
				}
				if l >= len(g.links) {
					return 0, nvml.ERROR_NOT_SUPPORTED
				}
				return nvml.FEATURE_ENABLED, nvml.SUCCESS
			},
			GetNvLinkRemoteDeviceTypeFunc: func(l int) (nvml.IntNvLinkDeviceType, nvml.Return) {
				return g.links[l].remote, ret("GetNvLinkRemoteDeviceType")
			},
			GetNvLinkRemotePciInfoFunc: func(l int) (nvml.PciInfo, nvml.Return) {
				return pciInfo(g.links[l].remoteBus), ret("GetNvLinkRemotePciInfo")
			},
		}
		devs[i] = d
		index[d] = i
	}
	for i, d := range devs {
		d.GetP2PStatusFunc = func(other nvml.Device, idx nvml.GpuP2PCapsIndex) (nvml.GpuP2PStatus, nvml.Return) {
			if r, ok := m.gpus[i].fail["GetP2PStatus"]; ok {
				return 0, r
			}
			return m.p2p(i, index[other], idx), nvml.SUCCESS
		}
		d.GetTopologyCommonAncestorFunc = func(other nvml.Device) (nvml.GpuTopologyLevel, nvml.Return) {
			if r, ok := m.gpus[i].fail["GetTopologyCommonAncestor"]; ok {
				return 0, r
			}
			return m.topo(i, index[other]), nvml.SUCCESS
		}
	}
	sysRet := func(call string) nvml.Return {
		if r, ok := m.fail[call]; ok {
			return r
		}
		return nvml.SUCCESS
	}
	return &mock.Interface{
		InitFunc:                       func() nvml.Return { return m.init },
		ShutdownFunc:                   func() nvml.Return { return nvml.SUCCESS },
		SystemGetDriverVersionFunc:     func() (string, nvml.Return) { return m.driver, sysRet("SystemGetDriverVersion") },
		SystemGetCudaDriverVersionFunc: func() (int, nvml.Return) { return m.cuda, sysRet("SystemGetCudaDriverVersion") },
		SystemGetNVMLVersionFunc:       func() (string, nvml.Return) { return m.nvmlVer, sysRet("SystemGetNVMLVersion") },
		DeviceGetCountFunc:             func() (int, nvml.Return) { return len(m.gpus), sysRet("DeviceGetCount") },
		DeviceGetHandleByIndexFunc: func(i int) (nvml.Device, nvml.Return) {
			if i < 0 || i >= len(devs) {
				return nil, nvml.ERROR_INVALID_ARGUMENT
			}
			return devs[i], nvml.SUCCESS
		},
	}
}

func allOK(i, j int, idx nvml.GpuP2PCapsIndex) nvml.GpuP2PStatus { return nvml.P2P_STATUS_OK }

func links(n int, remote nvml.IntNvLinkDeviceType, bus string) []fakeLink {
	out := make([]fakeLink, n)
	for i := range out {
		out[i] = fakeLink{remote: remote, remoteBus: bus}
	}
	return out
}

func h200(bus string) fakeGPU {
	return fakeGPU{
		name: "NVIDIA H200", uuid: "GPU-" + fmt.Sprintf("%08x", len(bus)) + "-1111-2222-3333-444455556666",
		arch: nvml.DEVICE_ARCH_HOPPER, cc: [2]int{9, 0}, bus: bus,
		gen: [2]int{5, 5}, width: [2]int{16, 16}, mig: 0, persist: nvml.FEATURE_ENABLED,
		virt: nvml.GPU_VIRTUALIZATION_MODE_PASSTHROUGH, memMiB: 143771,
		// Every link goes to an NVSwitch, whose remote PCI bus reads 0xff.
		links: links(18, nvml.NVLINK_DEVICE_TYPE_SWITCH, "ffffffff:ff:ff.f"),
		fail:  map[string]nvml.Return{"GetNumaNodeId": nvml.ERROR_NOT_SUPPORTED},
	}
}

// machines are the cases the probe must report right, each read from a real
// machine's answers or built to match what NVML documents.
var machines = map[string]fakeMachine{
	"no-library": {init: nvml.ERROR_LIBRARY_NOT_FOUND},
	"no-gpu":     {driver: "580.159.04", cuda: 13000, nvmlVer: "13.580.159.04"},
	"one-gpu": {driver: "580.159.04", cuda: 13000, nvmlVer: "13.580.159.04", p2p: allOK,
		gpus: []fakeGPU{{name: "NVIDIA H100 80GB HBM3", arch: nvml.DEVICE_ARCH_HOPPER, cc: [2]int{9, 0}, bus: "00000000:00:06.0",
			gen: [2]int{5, 5}, width: [2]int{16, 16}, persist: nvml.FEATURE_ENABLED, virt: nvml.GPU_VIRTUALIZATION_MODE_PASSTHROUGH, memMiB: 81559,
			fail: map[string]nvml.Return{"GetNumaNodeId": nvml.ERROR_NOT_SUPPORTED}}}},
	// ../shared/reference/h200x2/README.md lists every one of these answers.
	"h200x2-nvswitch": {driver: "580.159.04", cuda: 13000, nvmlVer: "13.580.159.04",
		gpus: []fakeGPU{h200("00000000:00:06.0"), h200("00000000:00:07.0")},
		p2p: func(i, j int, idx nvml.GpuP2PCapsIndex) nvml.GpuP2PStatus {
			if idx == nvml.P2P_CAPS_INDEX_PROP {
				return nvml.P2P_STATUS_NOT_SUPPORTED
			}
			return nvml.P2P_STATUS_OK
		},
		topo: func(i, j int) nvml.GpuTopologyLevel { return nvml.TOPOLOGY_HOSTBRIDGE }},
	// Four PCIe GPUs on two sockets: 0-1 and 2-3 share a switch; 0<->2 crosses
	// sockets on a chipset that refuses it; 1<->3 is disabled by a registry key.
	"pcie4-blocked": {driver: "535.183.01", cuda: 12020, nvmlVer: "12.535.183.01",
		gpus: []fakeGPU{pcie("00000000:1a:00.0", 0), pcie("00000000:1b:00.0", 0), pcie("00000000:88:00.0", 1), pcie("00000000:89:00.0", 1)},
		p2p: func(i, j int, idx nvml.GpuP2PCapsIndex) nvml.GpuP2PStatus {
			switch {
			case idx == nvml.P2P_CAPS_INDEX_NVLINK:
				return nvml.P2P_STATUS_NOT_SUPPORTED
			case i+j == 2 && i != j && (i == 0 || j == 0):
				return nvml.P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED
			case (i == 1 && j == 3) || (i == 3 && j == 1):
				return nvml.P2P_STATUS_DISABLED_BY_REGKEY
			case idx == nvml.P2P_CAPS_INDEX_PROP:
				return nvml.P2P_STATUS_NOT_SUPPORTED
			}
			return nvml.P2P_STATUS_OK
		},
		topo: func(i, j int) nvml.GpuTopologyLevel {
			if i/2 == j/2 {
				return nvml.TOPOLOGY_SINGLE
			}
			return nvml.TOPOLOGY_SYSTEM
		}},
	"mig-enabled": {driver: "550.90.07", cuda: 12040, nvmlVer: "12.550.90.07", p2p: allOK,
		topo: func(i, j int) nvml.GpuTopologyLevel { return nvml.TOPOLOGY_NODE },
		gpus: []fakeGPU{migGPU("00000000:07:00.0", 1), migGPU("00000000:0f:00.0", 0)}},
	// A driver older than some calls: NVML answers FUNCTION_NOT_FOUND.
	"old-driver": {driver: "418.226.00", cuda: 10010, nvmlVer: "10.418.226.00",
		fail: map[string]nvml.Return{"SystemGetCudaDriverVersion": nvml.ERROR_FUNCTION_NOT_FOUND},
		p2p:  allOK, topo: func(i, j int) nvml.GpuTopologyLevel { return nvml.TOPOLOGY_MULTIPLE },
		gpus: []fakeGPU{oldGPU("00000000:04:00.0"), oldGPU("00000000:05:00.0")}},
}

func pcie(bus string, numa int) fakeGPU {
	return fakeGPU{name: "NVIDIA L40S", arch: nvml.DEVICE_ARCH_ADA, cc: [2]int{8, 9}, bus: bus, numa: numa,
		gen: [2]int{4, 4}, width: [2]int{16, 16}, persist: nvml.FEATURE_DISABLED, virt: nvml.GPU_VIRTUALIZATION_MODE_NONE, memMiB: 46068}
}

func migGPU(bus string, mig int) fakeGPU {
	return fakeGPU{name: "NVIDIA A100-SXM4-80GB", arch: nvml.DEVICE_ARCH_AMPERE, cc: [2]int{8, 0}, bus: bus, mig: mig,
		gen: [2]int{4, 4}, width: [2]int{16, 16}, persist: nvml.FEATURE_ENABLED, virt: nvml.GPU_VIRTUALIZATION_MODE_NONE, memMiB: 81920,
		links: links(12, nvml.NVLINK_DEVICE_TYPE_SWITCH, "")}
}

func oldGPU(bus string) fakeGPU {
	return fakeGPU{name: "Tesla V100-PCIE-16GB", cc: [2]int{7, 0}, bus: bus, gen: [2]int{3, 3}, width: [2]int{16, 16},
		virt: nvml.GPU_VIRTUALIZATION_MODE_NONE, memMiB: 16160,
		fail: map[string]nvml.Return{
			"GetArchitecture": nvml.ERROR_FUNCTION_NOT_FOUND, "GetNumaNodeId": nvml.ERROR_FUNCTION_NOT_FOUND,
			"GetMigMode": nvml.ERROR_NOT_SUPPORTED, "GetNvLinkState": nvml.ERROR_NOT_SUPPORTED,
		}}
}
