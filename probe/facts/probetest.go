package facts

// Test is what `p2p-probe --test` found by moving real data between the GPUs
// through the CUDA driver API: every ordered pair and path, checked word by
// word and timed. It is absent from a report when no test was asked for; a
// test that could not run says why in Error and leaves the rest empty.
//
// Devices are numbered as CUDA numbers them (CUDA_DEVICE_ORDER and
// CUDA_VISIBLE_DEVICES apply); PCIBusID ties each to its NVML index.
type Test struct {
	Ran        bool         `json:"ran"`              // a CUDA context was made and at least one check ran
	Error      string       `json:"error,omitempty"`  // why the test could not run: "libcuda.so.1: cannot open shared object file"
	Driver     string       `json:"driver,omitempty"` // cuDriverGetVersion as major.minor, 13.0
	SizeBytes  int64        `json:"size_bytes"`       // buffer size of each copy (--test-size)
	DurationMS int64        `json:"duration_ms"`      // wall time of the whole test
	Devices    []TestDevice `json:"devices" max:"64"` // by CUDA ordinal
	Pairs      []TestPair   `json:"pairs" max:"4032"` // every ordered pair of distinct devices
	Summary    TestSummary  `json:"summary"`          // derived, for people and rules
	Notes      []string     `json:"notes,omitempty"`  // what was skipped and why, in plain words
}

// TestDevice is one GPU's own figures, so a single-GPU node still gets some.
type TestDevice struct {
	Ordinal   int     `json:"ordinal"`              // CUDA device ordinal
	Name      string  `json:"name"`                 // cuDeviceGetName
	PCIBusID  string  `json:"pci_bus_id"`           // cuDeviceGetPCIBusId, to match the NVML GPU
	LocalGBps float64 `json:"local_gbps,omitempty"` // device-to-device copy within the GPU
	H2DGBps   float64 `json:"h2d_gbps,omitempty"`   // pinned host to device
	D2HGBps   float64 `json:"d2h_gbps,omitempty"`   // device to pinned host
	DataOK    *bool   `json:"data_ok"`              // the local and host copies arrived intact; null when not checked
	Error     string  `json:"error,omitempty"`      // the driver's error name and the step: "cuCtxCreate: CUDA_ERROR_OUT_OF_MEMORY"
}

// TestPair is what moving data from one GPU to another did.
type TestPair struct {
	Src           int        `json:"from"`                 // source CUDA ordinal
	Dst           int        `json:"to"`                   // destination CUDA ordinal
	CanAccessPeer *bool      `json:"can_access_peer"`      // cuDeviceCanAccessPeer
	Attributes    *P2PAttrs  `json:"attributes,omitempty"` // cuDeviceGetP2PAttribute
	Enable        string     `json:"enable"`               // cuCtxEnablePeerAccess: "OK" or the driver's error name verbatim, CUDA_ERROR_TOO_MANY_PEERS; "" when not tried
	Paths         []TestPath `json:"paths"`                // each way data was moved and checked
	Bandwidth     *Bandwidth `json:"bandwidth,omitempty"`  // GB/s with peer access on and off
	LatencyUS     *Latency   `json:"latency_us,omitempty"` // one small copy, microseconds
	Status        string     `json:"status"`               // ok, failed, slow, timeout, skipped
	Step          string     `json:"step,omitempty"`       // the step a timeout or failure happened in
	Reason        string     `json:"reason,omitempty"`     // plain words: "GPU0->GPU1: 4 MiB copied, 1048576 words wrong, first at offset 0: expected 0x9e3779b9, got 0x00000000"
}

// P2PAttrs are the driver's P2P attributes of an ordered pair.
type P2PAttrs struct {
	PerformanceRank int  `json:"performance_rank"`
	AccessSupported bool `json:"access_supported"`
	NativeAtomics   bool `json:"native_atomics"`
	ArrayAccess     bool `json:"cuda_array_access"`
}

// TestPath is one way of moving data from Src to Dst, checked word by word.
type TestPath struct {
	Path          string    `json:"path"`                     // peer_copy (peer access on, one process), ipc_legacy (cuIpcOpenMemHandle in a second process), ipc_cumem (cuMem POSIX fd handle in a second process), staged_copy (peer access off)
	Status        string    `json:"status"`                   // ok, mismatch, error, timeout, skipped
	Bytes         int64     `json:"bytes"`                    // bytes copied and checked
	WrongWords    int64     `json:"wrong_words"`              // 32-bit words that differ from the pattern
	FirstMismatch *Mismatch `json:"first_mismatch,omitempty"` //
	Error         string    `json:"error,omitempty"`          // the driver call and its error name: "cuIpcOpenMemHandle: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"
}

// Mismatch is the first word that arrived wrong.
type Mismatch struct {
	Offset   int64  `json:"offset"`   // byte offset in the buffer
	Expected string `json:"expected"` // 0x9e3779b9
	Got      string `json:"got"`      // 0x00000000
}

// Bandwidth is copy-engine bandwidth in GB/s (1e9 bytes per second).
type Bandwidth struct {
	P2POn       float64 `json:"p2p_on"`                 // Src to Dst with peer access enabled
	P2POff      float64 `json:"p2p_off"`                // the same with peer access off: the driver stages through host memory
	BidirP2POn  float64 `json:"bidir_p2p_on,omitempty"` // both directions at once, summed
	BidirP2POff float64 `json:"bidir_p2p_off,omitempty"`
}

// Latency is the time of one 4-byte copy, in microseconds.
type Latency struct {
	P2POn  float64 `json:"p2p_on"`
	P2POff float64 `json:"p2p_off"`
}

// TestSummary is derived from the pairs. Pair names read "GPU0->GPU1".
type TestSummary struct {
	DataOK      *bool    `json:"data_ok"`                 // every pair and path that ran was verified intact; null when none ran
	IPCOK       *bool    `json:"ipc_ok"`                  // every cross-process path worked and verified; null when none ran
	FailedPairs []string `json:"failed_pairs" max:"4032"` // pairs where enabling, copying or checking failed
	SlowPairs   []string `json:"slow_pairs" max:"4032"`   // pairs whose P2P bandwidth is not above the staged copy's
	Timeouts    []string `json:"timeouts" max:"4032"`     // pairs killed at the deadline
	Verdict     string   `json:"verdict"`                 // one sentence for people
}
