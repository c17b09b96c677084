package p2pcheck

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// peerBW is what testdata/real/peer_bw.cu, built with nvcc, printed on the
// same machine in the same run as the probe.
type peerBW struct {
	Size    int64 `json:"size"`
	Devices []struct {
		Ordinal   int     `json:"ordinal"`
		H2DGBps   float64 `json:"h2d_gbps"`
		LocalGBps float64 `json:"local_gbps"`
		D2HGBps   float64 `json:"d2h_gbps"`
	} `json:"devices"`
	Pairs []struct {
		From        int     `json:"from"`
		To          int     `json:"to"`
		P2POff      float64 `json:"p2p_off"`
		BidirP2POff float64 `json:"bidir_p2p_off"`
		P2POn       float64 `json:"p2p_on"`
		BidirP2POn  float64 `json:"bidir_p2p_on"`
	} `json:"pairs"`
}

func readReal(t *testing.T, name string) (*facts.Report, peerBW) {
	t.Helper()
	f, err := os.Open("../testdata/real/" + name + "-test.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Test == nil {
		t.Fatalf("%s has no test section", name)
	}
	var ref peerBW
	data, err := os.ReadFile("../testdata/real/nvcc/" + name + "-peer_bw.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.Size != rep.Test.SizeBytes {
		t.Fatalf("%s: nvcc copied %d bytes, the probe %d", name, ref.Size, rep.Test.SizeBytes)
	}
	return rep, ref
}

// agree fails unless the probe's figure is within tol (0.10 = 10%) of nvcc's.
func agree(t *testing.T, what string, probe, nvcc, tol float64) {
	t.Helper()
	if nvcc <= 0 || math.Abs(probe-nvcc)/nvcc > tol {
		t.Errorf("%s: probe %.1f GB/s, nvcc %.1f GB/s: more than %.0f%% apart", what, probe, nvcc, tol*100)
	}
}

// tolerance is how far apart the probe's and nvcc's figures may be: they
// come from separate processes a few seconds apart.
const tolerance = 0.10

// nvlinkGBps is what 18 NVLinks at 26.562 GB/s carry in one direction (H200).
const nvlinkGBps = 18 * 26.562

func checkDevices(t *testing.T, rep *facts.Report, ref peerBW) {
	if len(rep.Test.Devices) != len(ref.Devices) || len(rep.Test.Devices) != len(rep.GPUs) {
		t.Fatalf("devices: probe %d, nvcc %d, NVML %d", len(rep.Test.Devices), len(ref.Devices), len(rep.GPUs))
	}
	for i, d := range rep.Test.Devices {
		if d.DataOK == nil || !*d.DataOK || d.Error != "" {
			t.Errorf("GPU%d: %+v", i, d)
		}
		r := ref.Devices[i]
		agree(t, "host to device", d.H2DGBps, r.H2DGBps, tolerance)
		agree(t, "device to host", d.D2HGBps, r.D2HGBps, tolerance)
		agree(t, "local copy", d.LocalGBps, r.LocalGBps, tolerance)
	}
}

func TestRealH200x2(t *testing.T) {
	rep, ref := readReal(t, "h200x2")
	test := rep.Test
	if test.DurationMS > 10000 {
		t.Errorf("the test took %d ms on two H200s, the target is 10 s", test.DurationMS)
	}
	checkDevices(t, rep, ref)
	checkNVLinkPairs(t, test)
	if len(ref.Pairs) != 2 {
		t.Fatalf("nvcc measured %d pairs", len(ref.Pairs))
	}
	for i, p := range test.Pairs {
		b, r := p.Bandwidth, ref.Pairs[i]
		if r.From != p.Src || r.To != p.Dst {
			t.Fatalf("nvcc pair %d is %d->%d, the probe's %d->%d", i, r.From, r.To, p.Src, p.Dst)
		}
		agree(t, "P2P on", b.P2POn, r.P2POn, tolerance)
		agree(t, "P2P off", b.P2POff, r.P2POff, tolerance)
		agree(t, "bidirectional P2P on", b.BidirP2POn, r.BidirP2POn, tolerance)
		agree(t, "bidirectional P2P off", b.BidirP2POff, r.BidirP2POff, tolerance)
	}
}

// The same machine with copies of 256 MiB: no nvcc figures beside it, but
// every word verified and the NVLink in its range.
func TestRealH200x2Large(t *testing.T) {
	f, err := os.Open("../testdata/real/h200x2-test-256MiB.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Test == nil || rep.Test.SizeBytes != 256<<20 {
		t.Fatalf("test %+v", rep.Test)
	}
	checkNVLinkPairs(t, rep.Test)
}

// checkNVLinkPairs: both pairs of the two H200s verified on every path, at
// a bandwidth their 18 NVLinks allow.
func checkNVLinkPairs(t *testing.T, test *facts.Test) {
	t.Helper()
	s := test.Summary
	if !test.Ran || s.DataOK == nil || !*s.DataOK || s.IPCOK == nil || !*s.IPCOK || len(s.FailedPairs)+len(s.SlowPairs)+len(s.Timeouts) != 0 {
		t.Fatalf("summary %+v", s)
	}
	if len(test.Pairs) != 2 {
		t.Fatalf("%d pairs", len(test.Pairs))
	}
	for _, p := range test.Pairs {
		if p.Status != "ok" || p.Enable != "OK" || p.CanAccessPeer == nil || !*p.CanAccessPeer {
			t.Errorf("pair %+v", p)
		}
		seen := map[string]bool{}
		for _, x := range p.Paths {
			seen[x.Path] = true
			if x.Status != "ok" || x.Bytes != test.SizeBytes || x.WrongWords != 0 {
				t.Errorf("%d->%d %s: %+v", p.Src, p.Dst, x.Path, x)
			}
		}
		if len(seen) != 4 {
			t.Errorf("%d->%d: paths %v, want all four", p.Src, p.Dst, seen)
		}
		b := p.Bandwidth
		// NVLink carries what its links allow and no more; a copy engine gets
		// about 80% of it on a healthy link, and below 60% is no healthy NVLink.
		if b.P2POn > nvlinkGBps || b.P2POn < 0.6*nvlinkGBps {
			t.Errorf("%d->%d: %.1f GB/s with P2P on; 18 NVLinks carry %.1f GB/s", p.Src, p.Dst, b.P2POn, nvlinkGBps)
		}
		if b.BidirP2POn > 2*nvlinkGBps {
			t.Errorf("%d->%d: %.1f GB/s both ways; 18 NVLinks carry %.1f", p.Src, p.Dst, b.BidirP2POn, 2*nvlinkGBps)
		}
		if l := p.LatencyUS; l == nil || l.P2POn <= 0 || l.P2POn >= l.P2POff {
			t.Errorf("%d->%d: latency %+v: P2P should be quicker than staged", p.Src, p.Dst, p.LatencyUS)
		}
	}
}

func TestRealH100(t *testing.T) {
	rep, ref := readReal(t, "h100")
	test := rep.Test
	if !test.Ran || len(test.Pairs) != 0 || test.Summary.DataOK == nil || !*test.Summary.DataOK {
		t.Fatalf("%+v", test)
	}
	checkDevices(t, rep, ref)
}

// Deadlines that fired inside real CUDA work: each pair is a timeout with the
// step it was in, and the document is whole.
func TestRealTimeouts(t *testing.T) {
	f, err := os.Open("../testdata/real/h200x2-test-timeout-700ms.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	test := rep.Test
	if !test.Ran || len(test.Pairs) != 2 || len(test.Summary.Timeouts) != 2 {
		t.Fatalf("%+v", test)
	}
	for _, p := range test.Pairs {
		if p.Status != "timeout" || p.Step == "" || !strings.Contains(p.Reason, "no answer within 700ms") {
			t.Errorf("%+v", p)
		}
	}
}
