package errvocab

import (
	"regexp"
	"sort"
	"strings"
)

// The kinds of CUDA calls that peer-to-peer trouble is met in, as APIKind
// names them.
const (
	APIIPC  = "ipc"  // cross-process memory handles: cuIpc*, cudaIpc*
	APIVMM  = "vmm"  // virtual memory and multicast, as NCCL's cuMem and NVLS paths use: cuMemCreate, cuMemMap, cuMulticast*
	APIPeer = "peer" // peer access between devices: cudaDeviceEnablePeerAccess, cuCtxEnablePeerAccess, cudaMemcpyPeer
)

// APIKind is the kind of the CUDA call name (cuIpcOpenMemHandle,
// cudaDeviceEnablePeerAccess, cuMulticastBindMem), or of "CUDA IPC"; ""
// for any other call. A failed call's kind says which entries the error met
// there most likely belongs with: an invalid argument from cuIpcOpenMemHandle
// is an IPC problem before it is anything else.
func APIKind(name string) string {
	switch {
	case name == "CUDA IPC" || strings.HasPrefix(name, "cuIpc") || strings.HasPrefix(name, "cudaIpc"):
		return APIIPC
	case strings.Contains(name, "PeerAccess") || strings.HasPrefix(name, "cuMemcpyPeer") || strings.HasPrefix(name, "cudaMemcpyPeer") ||
		strings.Contains(name, "P2PAttribute"):
		return APIPeer
	case strings.HasPrefix(name, "cuMulticast"):
		return APIVMM
	case strings.HasPrefix(name, "cuMem") && !strings.HasPrefix(name, "cuMemcpy") && !strings.HasPrefix(name, "cuMemset") &&
		!strings.HasPrefix(name, "cuMemAlloc") && !strings.HasPrefix(name, "cuMemFree") && !strings.HasPrefix(name, "cuMemGetInfo"):
		return APIVMM
	}
	return ""
}

var callRE = regexp.MustCompile(`cu(?:da)?[A-Z][A-Za-z0-9_]*|CUDA IPC`)

// APIKinds lists the kinds of the calls a text names (an entry's signature
// and pattern), each once, in order.
func APIKinds(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range callRE.FindAllString(text, -1) {
		if k := APIKind(n); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
