package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// The facts of `p2p-probe --test` and of the host fields a report has always
// had. assets/rules.js words every reason here the same way.

// maxListed is how many pairs a reason names before it counts the rest.
const maxListed = 3

// testFacts adds the p2p.test.* facts. Without a test section they stay
// unknown; when the test could not run, p2p.test.ran is false and the rest
// are unknown with the probe's error in their name, so a reason says why.
func testFacts(f Facts, t *facts.Test) {
	if t == nil {
		return
	}
	ran := boolean(t.Ran, "P2P test")
	ran.yes = reasonTestRan.en + fmt.Sprintf(" (%d GPU, %d pairs, %s each)", len(t.Devices), len(t.Pairs), Size(t.SizeBytes))
	ran.no = reasonTestNotRun.en
	if t.Error != "" {
		ran.no += ": " + t.Error
	}
	f["p2p.test.ran"] = ran
	if !t.Ran {
		why := reasonNotRunWhy.en + ")"
		if t.Error != "" {
			why = reasonNotRunWhy.en + ": " + t.Error + ")"
		}
		for _, n := range []string{"p2p.test.data_ok", "p2p.test.failed_pairs", "p2p.test.slow_pairs", "p2p.test.ipc_ok", "p2p.test.timeouts", "p2p.test.enable_error"} {
			f[n] = value{display: Display(n) + why}
		}
		return
	}
	byName := map[string]facts.TestPair{}
	for _, p := range t.Pairs {
		byName[pairName(p)] = p
	}
	s := t.Summary
	if s.DataOK != nil {
		v := boolean(*s.DataOK, "P2P data check")
		paths := 0
		for _, p := range t.Pairs {
			for _, x := range p.Paths {
				if x.Status == "ok" || x.Status == "mismatch" {
					paths++
				}
			}
		}
		v.yes = reasonIntact.en + fmt.Sprintf(" (%d pairs, %d paths checked)", len(t.Pairs), paths)
		var bad []string
		for _, p := range t.Pairs {
			if m := mismatch(p); m != "" {
				bad = append(bad, m)
			}
		}
		v.no = reasonWrong.en
		if len(bad) > 0 {
			v.no += ": " + listed(bad)
		}
		f["p2p.test.data_ok"] = v
	}
	if s.IPCOK != nil {
		v := boolean(*s.IPCOK, "cross-process P2P")
		v.yes = reasonIPCWorks.en + " (CUDA IPC and cuMem handles verified)"
		var bad []string
		for _, p := range t.Pairs {
			for _, x := range p.Paths {
				if strings.HasPrefix(x.Path, "ipc_") && x.Status != "ok" {
					bad = append(bad, pathProblem(p, x))
					break
				}
			}
		}
		v.no = reasonIPCFailed.en
		if len(bad) > 0 {
			v.no += ": " + listed(bad)
		}
		f["p2p.test.ipc_ok"] = v
	}
	count := func(name string, pairs []string, why func(facts.TestPair) string) {
		var rs []string
		for _, n := range pairs {
			p, ok := byName[n]
			if !ok {
				rs = append(rs, n)
				continue
			}
			rs = append(rs, why(p))
		}
		text := strconv.Itoa(len(pairs))
		if len(rs) > 0 {
			text += " (" + listed(rs) + ")"
		}
		f[name] = value{known: true, kind: "num", n: float64(len(pairs)), s: text, display: Display(name)}
	}
	count("p2p.test.failed_pairs", s.FailedPairs, failure)
	count("p2p.test.slow_pairs", s.SlowPairs, func(p facts.TestPair) string {
		if p.Bandwidth == nil {
			return pairName(p)
		}
		return fmt.Sprintf("%s: %s GB/s with P2P, %s GB/s without", pairName(p), GBps(p.Bandwidth.P2POn), GBps(p.Bandwidth.P2POff))
	})
	count("p2p.test.timeouts", s.Timeouts, func(p facts.TestPair) string {
		if p.Step != "" {
			return pairName(p) + ": timed out in " + p.Step
		}
		return pairName(p) + ": timed out"
	})
	enable := ""
	for _, p := range t.Pairs {
		if p.Enable != "" && p.Enable != "OK" {
			enable = p.Enable
			break
		}
	}
	f["p2p.test.enable_error"] = value{known: true, kind: "str", s: enable, display: Display("p2p.test.enable_error")}
}

func pairName(p facts.TestPair) string { return fmt.Sprintf("GPU%d->GPU%d", p.Src, p.Dst) }

// mismatch words a pair's first path that arrived wrong, "" when none did.
func mismatch(p facts.TestPair) string {
	for _, x := range p.Paths {
		if x.Status == "mismatch" || x.WrongWords > 0 {
			return pathProblem(p, x)
		}
	}
	return ""
}

// pathProblem words what went wrong on one path of a pair.
func pathProblem(p facts.TestPair, x facts.TestPath) string {
	name := pairName(p)
	switch {
	case x.WrongWords > 0 || x.FirstMismatch != nil:
		s := fmt.Sprintf("%s: %s copied, %d words wrong", name, Size(x.Bytes), x.WrongWords)
		if m := x.FirstMismatch; m != nil {
			s += fmt.Sprintf(", first at offset %d: expected %s, got %s", m.Offset, m.Expected, m.Got)
		}
		return s
	case x.Error != "":
		return name + " " + x.Path + ": " + x.Error
	}
	return name + " " + x.Path + ": " + x.Status
}

// failure words why a pair failed: wrong data first, then a refused enable,
// then a path's error, then the probe's own words.
func failure(p facts.TestPair) string {
	if m := mismatch(p); m != "" {
		return m
	}
	if p.Enable != "" && p.Enable != "OK" {
		return pairName(p) + ": enabling peer access: " + p.Enable
	}
	for _, x := range p.Paths {
		if x.Error != "" {
			return pathProblem(p, x)
		}
	}
	if p.Reason != "" {
		return p.Reason
	}
	if p.Step != "" {
		return pairName(p) + ": failed in " + p.Step
	}
	return pairName(p) + ": failed"
}

// listed joins reasons, naming the first few and counting the rest.
func listed(rs []string) string {
	if len(rs) <= maxListed {
		return strings.Join(rs, "; ")
	}
	return strings.Join(rs[:maxListed], "; ") + fmt.Sprintf("; and %d more", len(rs)-maxListed)
}

// Size words a byte count in the largest binary unit that divides it.
func Size(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return strconv.FormatInt(b>>30, 10) + " GiB"
	case b >= 1<<20:
		return strconv.FormatFloat(float64(b)/(1<<20), 'f', -1, 64) + " MiB"
	case b >= 1<<10:
		return strconv.FormatFloat(float64(b)/(1<<10), 'f', -1, 64) + " KiB"
	}
	return strconv.FormatInt(b, 10) + " bytes"
}

// GBps words a bandwidth with one decimal, rounded half up as JavaScript's
// Math.round does, so that Go and the browser print the same figure.
func GBps(x float64) string {
	return strconv.FormatFloat(math.Floor(x*10+0.5)/10, 'f', 1, 64)
}

// hostFacts adds what the host fields say: consumer GPUs, WSL2, and the
// IOMMU mode from the kernel arguments.
func hostFacts(f Facts, r *facts.Report) {
	if r.NVML.Available {
		consumer, unknown := "", false
		for _, g := range r.GPUs {
			if !g.Name.Valid {
				unknown = true
				continue
			}
			if l := strings.ToLower(g.Name.V); consumer == "" && (strings.Contains(l, "geforce") || strings.Contains(l, "titan")) {
				consumer = g.Name.V
			}
		}
		if consumer != "" || !unknown {
			v := boolean(consumer != "", "consumer GPU")
			v.yes = "consumer GPU (" + consumer + ")"
			f["gpu.consumer"] = v
		}
	}
	if k := r.Host.Kernel; k != "" {
		l := strings.ToLower(k)
		v := boolean(strings.Contains(l, "microsoft") || strings.Contains(l, "wsl"), "WSL2")
		v.yes = "WSL2 (kernel " + k + ")"
		f["wsl"] = v
	}
	if args := r.Software.IOMMU.KernelArgs; len(args) > 0 {
		pt := false
		for _, a := range args { // the kernel takes the last setting
			switch a {
			case "iommu=pt", "iommu.passthrough=1", "iommu.passthrough=y", "iommu.passthrough=on":
				pt = true
			case "iommu=nopt", "iommu.passthrough=0", "iommu.passthrough=n", "iommu.passthrough=off":
				pt = false
			}
		}
		v := boolean(pt, "IOMMU passthrough")
		v.yes = "IOMMU passthrough (kernel args " + strings.Join(args, " ") + ")"
		v.no = "no IOMMU passthrough (kernel args " + strings.Join(args, " ") + ")"
		f["iommu.passthrough"] = v
	}
}

// Text is how a number or string fact reads in a reason: for the test's
// pair counts, the count and the pairs ("1 (GPU0->GPU1: ...)"); "" when the
// fact is unknown.
func (f Facts) Text(name string) string {
	v := f.get(name)
	if !v.known || v.kind == "bool" {
		return ""
	}
	return v.s
}
