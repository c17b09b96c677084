package p2pcheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// slowRatio: P2P whose bandwidth is not at least this many times the
// staged copy's is not really peer-to-peer (the ACS and IOMMU cases), and
// the pair is "slow".
const slowRatio = 1.1

// summarize judges each pair the children left unjudged, and derives the
// summary and verdict from pairs and devices.
func summarize(t *facts.Test) {
	for i := range t.Pairs {
		judge(&t.Pairs[i])
	}
	s := facts.TestSummary{FailedPairs: []string{}, SlowPairs: []string{}, Timeouts: []string{}}
	checked, corrupt := false, false
	ipcRan, ipcOK := false, true
	for _, d := range t.Devices {
		if d.DataOK != nil {
			checked = true
			corrupt = corrupt || !*d.DataOK
		}
	}
	for _, p := range t.Pairs {
		name := pairName(p)
		switch p.Status {
		case "failed":
			s.FailedPairs = append(s.FailedPairs, name)
		case "slow":
			s.SlowPairs = append(s.SlowPairs, name)
		case "timeout":
			s.Timeouts = append(s.Timeouts, name)
		}
		for _, path := range p.Paths {
			if path.Status == "ok" || path.Status == "mismatch" {
				checked = true
			}
			corrupt = corrupt || path.Status == "mismatch"
			if strings.HasPrefix(path.Path, "ipc_") && path.Status != "skipped" {
				ipcRan = true
				ipcOK = ipcOK && path.Status == "ok"
			}
		}
		if p.Status == "timeout" && strings.HasPrefix(p.Step, "ipc_") {
			ipcRan, ipcOK = true, false
		}
	}
	if checked {
		ok := !corrupt
		s.DataOK = &ok
	}
	if ipcRan {
		s.IPCOK = &ipcOK
	}
	s.Verdict = verdict(t, s)
	t.Summary = s
}

func pairName(p facts.TestPair) string { return fmt.Sprintf("GPU%d->GPU%d", p.Src, p.Dst) }

// judge sets the status and reason of a pair from its paths, enable result
// and bandwidth, unless its child already gave it one (a timeout or a
// failed step).
func judge(p *facts.TestPair) {
	if p.Status != "" {
		return
	}
	name := pairName(*p)
	var problems []string
	for _, path := range p.Paths {
		switch path.Status {
		case "mismatch":
			m := path.FirstMismatch
			problems = append(problems, fmt.Sprintf("%s: %s copied, %d words wrong, first at offset %d: expected %s, got %s (%s)",
				name, sizeText(path.Bytes), path.WrongWords, m.Offset, m.Expected, m.Got, path.Path))
		case "error":
			problems = append(problems, fmt.Sprintf("%s: %s: %s", name, path.Path, path.Error))
		}
	}
	if p.Enable != "" && p.Enable != "OK" {
		problems = append(problems, fmt.Sprintf("%s: cuCtxEnablePeerAccess: %s although cuDeviceCanAccessPeer says yes", name, p.Enable))
	}
	switch {
	case len(problems) > 0:
		p.Status, p.Reason = "failed", strings.Join(problems, "; ")
	case p.CanAccessPeer == nil:
		p.Status = "skipped"
		p.Reason = fmt.Sprintf("%s: cuDeviceCanAccessPeer failed, so no P2P path was tried", name)
	case !*p.CanAccessPeer:
		p.Status = "skipped"
		p.Reason = fmt.Sprintf("%s: cuDeviceCanAccessPeer says no, so no P2P path was tried; the staged copy through host memory was verified", name)
	case p.Bandwidth != nil && p.Bandwidth.P2POn > 0 && p.Bandwidth.P2POn < slowRatio*p.Bandwidth.P2POff:
		p.Status = "slow"
		p.Reason = fmt.Sprintf("%s: %.1f GB/s with peer access on, %.1f GB/s staged through host memory: P2P is no faster than the host path",
			name, p.Bandwidth.P2POn, p.Bandwidth.P2POff)
	default:
		p.Status = "ok"
	}
}

// verdict is one or two sentences for people.
func verdict(t *facts.Test, s facts.TestSummary) string {
	if !t.Ran {
		return "The P2P test could not run: " + t.Error
	}
	var out []string
	if s.DataOK != nil && !*s.DataOK {
		var bad []string
		for _, d := range t.Devices {
			if d.DataOK != nil && !*d.DataOK {
				bad = append(bad, fmt.Sprintf("GPU%d", d.Ordinal))
			}
		}
		for _, p := range t.Pairs {
			for _, path := range p.Paths {
				if path.Status == "mismatch" {
					bad = append(bad, pairName(p))
					break
				}
			}
		}
		out = append(out, fmt.Sprintf("Data arrived wrong (%s): copies that report success corrupt data on this machine.", strings.Join(bad, ", ")))
	}
	if len(s.Timeouts) > 0 {
		out = append(out, fmt.Sprintf("Copies hung and were killed (%s).", strings.Join(s.Timeouts, ", ")))
	}
	if rest := without(s.FailedPairs, t); len(rest) > 0 {
		out = append(out, fmt.Sprintf("%d of %d pairs failed (%s).", len(s.FailedPairs), len(t.Pairs), strings.Join(s.FailedPairs, ", ")))
	}
	if s.IPCOK != nil && !*s.IPCOK && len(s.FailedPairs) == 0 {
		out = append(out, "Memory shared between processes (CUDA IPC) did not work.")
	}
	if len(s.SlowPairs) > 0 {
		out = append(out, fmt.Sprintf("P2P is no faster than copies staged through host memory (%s): peer traffic probably goes through the CPU.", strings.Join(s.SlowPairs, ", ")))
	}
	if len(out) > 0 {
		return strings.Join(out, " ")
	}
	if len(t.Pairs) == 0 {
		return fmt.Sprintf("One GPU: copies within it and to and from host memory arrived intact (%s each).", sizeText(t.SizeBytes))
	}
	ok, skipped := 0, 0
	var ratios []float64
	for _, p := range t.Pairs {
		switch p.Status {
		case "ok":
			ok++
			if b := p.Bandwidth; b != nil && b.P2POff > 0 {
				ratios = append(ratios, b.P2POn/b.P2POff)
			}
		case "skipped":
			skipped++
		}
	}
	v := fmt.Sprintf("All %d pairs with P2P moved %s intact through peer copies and both IPC paths", ok, sizeText(t.SizeBytes))
	if len(ratios) > 0 {
		sort.Float64s(ratios)
		v += fmt.Sprintf("; P2P is %.0fx as fast as copies staged through host memory", ratios[len(ratios)/2])
	}
	v += "."
	if skipped > 0 {
		v += fmt.Sprintf(" %d pairs have no P2P (cuDeviceCanAccessPeer says no); their staged copies arrived intact.", skipped)
	}
	return v
}

// without is the failed pairs unless every failure is already told by the
// data sentence: each failed pair has a path that arrived wrong and nothing
// else wrong.
func without(failed []string, t *facts.Test) []string {
	for _, p := range t.Pairs {
		if p.Status != "failed" {
			continue
		}
		mismatch := false
		for _, path := range p.Paths {
			switch path.Status {
			case "mismatch":
				mismatch = true
			case "ok", "skipped":
			default:
				return failed
			}
		}
		if !mismatch || p.Enable != "" && p.Enable != "OK" || p.Step != "" {
			return failed
		}
	}
	return nil
}
