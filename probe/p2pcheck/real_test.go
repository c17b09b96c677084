package p2pcheck

import (
	"encoding/json"
	"fmt"
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

func readReport(t *testing.T, name string) *facts.Report {
	t.Helper()
	f, err := os.Open("../testdata/real/" + name + ".json")
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
	return rep
}

// readReal reads the probe's test named name and what peer_bw.cu printed in
// the same run, nvcc/ref.
func readReal(t *testing.T, name, ref string) (*facts.Report, peerBW) {
	t.Helper()
	rep := readReport(t, name)
	var bw peerBW
	data, err := os.ReadFile("../testdata/real/nvcc/" + ref + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &bw); err != nil {
		t.Fatal(err)
	}
	if bw.Size != rep.Test.SizeBytes {
		t.Fatalf("%s: nvcc copied %d bytes, the probe %d", name, bw.Size, rep.Test.SizeBytes)
	}
	return rep, bw
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

// Real runs on H200s behind NVSwitch: every pair and path verified, the
// figures within 10% of nvcc's of the same run, and the whole test within
// the time a node's check may take (3 s for 2 GPUs, 5 s for 4).
func TestRealH200(t *testing.T) {
	for _, m := range []struct {
		name  string
		gpus  int
		maxMS int64
	}{{"h200x2", 2, 3000}, {"h200x4", 4, 5000}} {
		t.Run(m.name, func(t *testing.T) {
			for _, size := range []string{"", "-256MiB"} {
				rep, ref := readReal(t, m.name+"-test"+size, m.name+"-peer_bw"+size)
				test := rep.Test
				if size == "" && test.DurationMS > m.maxMS {
					t.Errorf("the test took %d ms on %d H200s, the target is %d ms", test.DurationMS, m.gpus, m.maxMS)
				}
				checkDevices(t, rep, ref)
				checkNVLinkPairs(t, test, m.gpus)
				if len(ref.Pairs) != len(test.Pairs) {
					t.Fatalf("nvcc measured %d pairs, the probe %d", len(ref.Pairs), len(test.Pairs))
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
		})
	}
}

// Pairs that share no GPU run at the same time; their copies are timed one
// pair at a time. On the same machine, a run with one pair at a time
// (--test-jobs 1) gives the same figures within the spread of two runs.
func TestRealConcurrentMatchesOneAtATime(t *testing.T) {
	for _, m := range []string{"h200x2", "h200x4"} {
		con, one := readReport(t, m+"-test").Test, readReport(t, m+"-test-serial").Test
		if len(con.Pairs) != len(one.Pairs) {
			t.Fatalf("%s: %d and %d pairs", m, len(con.Pairs), len(one.Pairs))
		}
		for i, p := range con.Pairs {
			q := one.Pairs[i]
			what := fmt.Sprintf("%s GPU%d->GPU%d", m, p.Src, p.Dst)
			agree(t, what+" P2P on", p.Bandwidth.P2POn, q.Bandwidth.P2POn, tolerance)
			agree(t, what+" P2P off", p.Bandwidth.P2POff, q.Bandwidth.P2POff, tolerance)
			agree(t, what+" both ways, P2P on", p.Bandwidth.BidirP2POn, q.Bandwidth.BidirP2POn, tolerance)
			agree(t, what+" both ways, P2P off", p.Bandwidth.BidirP2POff, q.Bandwidth.BidirP2POff, tolerance)
		}
	}
}

// checkNVLinkPairs: every pair of the H200s verified on every path, at a
// bandwidth their 18 NVLinks allow.
func checkNVLinkPairs(t *testing.T, test *facts.Test, gpus int) {
	t.Helper()
	s := test.Summary
	if !test.Ran || s.DataOK == nil || !*s.DataOK || s.IPCOK == nil || !*s.IPCOK || len(s.FailedPairs)+len(s.SlowPairs)+len(s.Timeouts) != 0 {
		t.Fatalf("summary %+v", s)
	}
	if len(test.Pairs) != gpus*(gpus-1) {
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
	rep, ref := readReal(t, "h100-test", "h100-peer_bw")
	test := rep.Test
	if !test.Ran || len(test.Pairs) != 0 || test.Summary.DataOK == nil || !*test.Summary.DataOK {
		t.Fatalf("%+v", test)
	}
	checkDevices(t, rep, ref)
}

// Deadlines that fired inside real CUDA work: the pairs past them are
// timeouts with the step they were in, the pairs after the second hang are
// not tried, and the document is whole.
func TestRealTimeouts(t *testing.T) {
	for _, m := range []string{"h200x2", "h200x4"} {
		test := readReport(t, m+"-test-timeout-120ms").Test
		if !test.Ran || len(test.Summary.Timeouts) < 2 {
			t.Fatalf("%s: %+v", m, test.Summary)
		}
		for _, p := range test.Pairs {
			switch p.Status {
			case "timeout":
				if p.Step == "" || !strings.Contains(p.Reason, "no answer within 120ms") {
					t.Errorf("%s: %+v", m, p)
				}
			case "skipped":
				if !strings.Contains(p.Reason, "not tried after") {
					t.Errorf("%s: %+v", m, p)
				}
			default:
				t.Errorf("%s: a pair that neither hung nor was skipped: %+v", m, p)
			}
		}
	}
}
