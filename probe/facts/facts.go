// Package facts defines what p2p-probe reports about a GPU node: the JSON
// document, field by field. It has no cgo and no NVML, so the site and
// p2pkb match can read a report anywhere. The structs are the documentation
// of the format; probe/schema.json states the same for other tools.
package facts

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// SchemaVersion is the version of the report format. It changes when a field
// changes meaning or goes away; new fields do not change it.
const SchemaVersion = 1

// Report is everything the probe found on one machine.
type Report struct {
	SchemaVersion int      `json:"schema_version"`   // SchemaVersion
	Probe         Probe    `json:"probe"`            // the program that wrote it
	Time          string   `json:"time"`             // RFC 3339, UTC
	NVML          NVML     `json:"nvml"`             // whether NVML answered, and why not
	Host          Host     `json:"host"`             //
	Driver        Driver   `json:"driver"`           //
	GPUs          []GPU    `json:"gpus" max:"64"`    // by NVML index
	Pairs         []Pair   `json:"pairs" max:"4032"` // every ordered pair of distinct GPUs
	Software      Software `json:"software"`         // what around the GPUs changes P2P
	Summary       Summary  `json:"summary"`          // derived, for people and the matcher
	Test          *Test    `json:"test,omitempty"`   // what --test measured; absent without --test
}

// Probe names the program that wrote the report.
type Probe struct {
	Name    string `json:"name"`    // p2p-probe
	Version string `json:"version"` //
}

// NVML says whether the NVIDIA management library answered.
type NVML struct {
	Available bool   `json:"available"`        // Init succeeded
	Error     string `json:"error,omitempty"`  // NVML's error name when it did not, ERROR_LIBRARY_NOT_FOUND
	Reason    string `json:"reason,omitempty"` // the same, for a person
}

// Host is the operating system around the GPUs. Nothing here names the machine.
type Host struct {
	OS             string `json:"os"`                   // PRETTY_NAME of /etc/os-release, or GOOS
	Kernel         string `json:"kernel"`               // kernel release
	Arch           string `json:"arch"`                 // amd64, arm64
	VirtualMachine *bool  `json:"virtual_machine"`      // running under a hypervisor; null when it cannot be told
	Hypervisor     string `json:"hypervisor,omitempty"` // kvm, vmware, hyperv, xen, ... when known
	Container      string `json:"container,omitempty"`  // docker, podman, kubernetes, containerd, lxc, ... when known
}

// Driver is the NVIDIA driver and the CUDA versions around it.
type Driver struct {
	Version         Value[string] `json:"version"`                     // 580.159.04
	CUDA            Value[string] `json:"cuda"`                        // highest CUDA the driver supports, 13.0
	NVML            Value[string] `json:"nvml"`                        // NVML library version
	CUDAToolkit     string        `json:"cuda_toolkit,omitempty"`      // from version.json of CUDA_HOME or /usr/local/cuda
	CUDAToolkitFrom string        `json:"cuda_toolkit_from,omitempty"` // CUDA_HOME or /usr/local/cuda
}

// GPU is one device as NVML sees it.
type GPU struct {
	Index             int           `json:"index"`               // NVML index (not CUDA's, which CUDA_DEVICE_ORDER may change)
	UUID              string        `json:"uuid,omitempty"`      // only with --include-ids
	Name              Value[string] `json:"name"`                // NVIDIA H200
	Architecture      Value[string] `json:"architecture"`        // hopper, ampere, ...
	ComputeCapability Value[string] `json:"compute_capability"`  // 9.0
	PCIBusID          Value[string] `json:"pci_bus_id"`          // 00000000:00:06.0
	PCIeGen           Link[int]     `json:"pcie_generation"`     //
	PCIeWidth         Link[int]     `json:"pcie_width"`          //
	NUMANode          Value[int]    `json:"numa_node"`           //
	MIGMode           Value[string] `json:"mig_mode"`            // enabled, disabled
	Persistence       Value[string] `json:"persistence_mode"`    // enabled, disabled
	Virtualization    Value[string] `json:"virtualization_mode"` // none, passthrough, vgpu, host_vgpu, host_vsga
	MemoryMiB         Value[int]    `json:"memory_mib"`          // total framebuffer
	NVLinks           []NVLink      `json:"nvlinks"`             // every link NVML reports, active or not
	NVLinksActive     int           `json:"nvlinks_active"`      //
}

// Link is a current and a maximum value of a PCIe link property.
type Link[T any] struct {
	Current Value[T] `json:"current"`
	Max     Value[T] `json:"max"`
}

// NVLink is one NVLink of a GPU.
type NVLink struct {
	Link       int           `json:"link"`                       // link number
	Active     Value[bool]   `json:"active"`                     //
	RemoteType Value[string] `json:"remote_type,omitzero"`       // gpu, nvswitch, ibmnpu, unknown; for active links
	RemotePCI  Value[string] `json:"remote_pci_bus_id,omitzero"` // the remote GPU's bus id, for GPU-to-GPU links
}

// Pair is what NVML says of GPU From reaching GPU To.
type Pair struct {
	From       int           `json:"from"`
	To         int           `json:"to"`
	Read       Value[string] `json:"p2p_read"`    // P2P status: OK, CHIPSET_NOT_SUPPORTED, GPU_NOT_SUPPORTED, IOH_TOPOLOGY_NOT_SUPPORTED, DISABLED_BY_REGKEY, NOT_SUPPORTED, UNKNOWN
	Write      Value[string] `json:"p2p_write"`   //
	NVLink     Value[string] `json:"p2p_nvlink"`  //
	Atomics    Value[string] `json:"p2p_atomics"` //
	Prop       Value[string] `json:"p2p_prop"`    //
	Topology   Value[string] `json:"topology"`    // NVML's common ancestor: INTERNAL, SINGLE, MULTIPLE, HOSTBRIDGE, NODE, SYSTEM
	PCIPath    string        `json:"pci_path"`    // the same as nvidia-smi's letters: X, PIX, PXB, PHB, NODE, SYS; "" when unknown
	NVLinks    int           `json:"nvlinks"`     // active NVLinks between the two
	NVSwitch   bool          `json:"nvswitch"`    // those links pass through an NVSwitch
	Connection string        `json:"connection"`  // the label nvidia-smi topo -m prints: NV18, PHB, SYS, ...
}

// Software is what changes P2P behaviour around the driver.
type Software struct {
	Env    map[string]string `json:"env"`            // CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER, TF_GPU_ALLOCATOR and every NCCL_* that is set
	IOMMU  IOMMU             `json:"iommu"`          //
	ACS    []Bridge          `json:"acs" max:"4096"` // PCIe bridges above each GPU
	Python []Package         `json:"python"`         // torch, tensorflow, jax, cupy, NCCL wheels found in site-packages
}

// IOMMU is the kernel's IOMMU configuration.
type IOMMU struct {
	KernelArgs []string `json:"kernel_args"` // intel_iommu=on, amd_iommu=off, iommu=pt, iommu.passthrough=1 ...
	Enabled    *bool    `json:"enabled"`     // /sys/class/iommu has devices; null when it cannot be told
}

// Bridge is one PCIe bridge between a GPU and the root complex, with its
// Access Control Services state: request or completion redirect sends P2P
// traffic up to the root complex, where it may be slow or blocked.
type Bridge struct {
	GPU                int    `json:"gpu"`                 // the GPU below it
	BusID              string `json:"bus_id"`              // the bridge's PCI address
	ACS                *bool  `json:"acs"`                 // has an ACS capability; null when config space was unreadable
	RequestRedirect    bool   `json:"request_redirect"`    // ACS P2P Request Redirect enabled
	CompletionRedirect bool   `json:"completion_redirect"` // ACS P2P Completion Redirect enabled
	Error              string `json:"error,omitempty"`     // why it could not be read (not root, ...)
}

// Package is one Python distribution found by its metadata.
type Package struct {
	Name    string `json:"name"`    // torch, tensorflow, jax, jaxlib, cupy-cuda12x, nvidia-nccl-cu12, ...
	Version string `json:"version"` // as in the metadata, 2.11.0+cu130
}

// Summary is derived from the rest, for people and for rules.
// Its counts and flags are null where NVML could not be asked: no driver
// is not no GPU.
type Summary struct {
	GPUCount     *int          `json:"gpu_count"`
	AllPairsP2P  *bool         `json:"all_pairs_p2p"`            // every pair can read and write; null when some status is unknown
	BlockedPairs []BlockedPair `json:"blocked_pairs" max:"4032"` // pairs that cannot, with NVML's reason
	NVLink       *bool         `json:"nvlink"`                   // some GPU has an active NVLink
	NVSwitch     *bool         `json:"nvswitch"`                 // some NVLink goes to an NVSwitch
	MIG          *bool         `json:"mig"`                      // some GPU has MIG enabled
}

// BlockedPair is a pair of GPUs without P2P.
type BlockedPair struct {
	From   int    `json:"from"`
	To     int    `json:"to"`
	Reason string `json:"reason"` // NVML's status for read or write: IOH_TOPOLOGY_NOT_SUPPORTED, ...
}

// Value is a fact that may have failed to read: in JSON either the value
// itself or {"error": "<NVML error name>"}. The zero Value is "not asked".
type Value[T any] struct {
	V     T
	Err   string // NVML's error name, ERROR_NOT_SUPPORTED
	Valid bool   // V holds the answer
}

// Of returns a Value holding v.
func Of[T any](v T) Value[T] { return Value[T]{V: v, Valid: true} }

// Failed returns a Value for a query that failed with the named error.
func Failed[T any](err string) Value[T] { return Value[T]{Err: err} }

// IsZero reports whether the value was never asked, for omitzero.
func (v Value[T]) IsZero() bool { return !v.Valid && v.Err == "" }

// MarshalJSON writes the value, or {"error": name}, or null when not asked.
func (v Value[T]) MarshalJSON() ([]byte, error) {
	switch {
	case v.Valid:
		return json.Marshal(v.V)
	case v.Err != "":
		return json.Marshal(struct {
			Error string `json:"error"`
		}{v.Err})
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *Value[T]) UnmarshalJSON(b []byte) error {
	*v = Value[T]{}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '{' {
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(b, &e); err == nil && e.Error != "" {
			v.Err = e.Error
			return nil
		}
	}
	if fastValue(b, &v.V) {
		v.Valid = true
		return nil
	}
	if err := json.Unmarshal(b, &v.V); err != nil {
		return err
	}
	v.Valid = true
	return nil
}

// fastValue reads the common plain values, a string without escapes, an
// integer or a boolean, without a second pass of encoding/json: a report
// holds hundreds of them and a fleet thousands of reports. It reports
// false for anything else, which json.Unmarshal then reads.
func fastValue(b []byte, dst any) bool {
	switch p := dst.(type) {
	case *string:
		if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
			return false
		}
		inner := b[1 : len(b)-1]
		for _, c := range inner {
			if c == '\\' || c == '"' || c < 0x20 || c >= 0x80 {
				return false
			}
		}
		*p = string(inner)
		return true
	case *int:
		n, err := strconv.Atoi(string(b))
		if err != nil {
			return false
		}
		*p = n
		return true
	case *bool:
		switch string(b) {
		case "true":
			*p = true
		case "false":
			*p = false
		default:
			return false
		}
		return true
	}
	return false
}
