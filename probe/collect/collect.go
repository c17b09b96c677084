package collect

import (
	"fmt"
	"sort"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// Options change what a report holds.
type Options struct {
	IncludeIDs bool   // add GPU UUIDs; off by default, since they identify the machine
	Version    string // the probe's version
}

// Collect reads everything the report holds. It never fails: a query that
// fails records NVML's error name in place of its value.
func Collect(lib nvml.Interface, sys System, opt Options) (rep facts.Report) {
	rep = facts.Report{
		SchemaVersion: facts.SchemaVersion,
		Probe:         facts.Probe{Name: "p2p-probe", Version: opt.Version},
		Time:          sys.Now().UTC().Format(time.RFC3339),
		GPUs:          []facts.GPU{},
		Pairs:         []facts.Pair{},
	}
	rep.Host = host(sys)
	rep.Software = software(sys, opt)
	rep.Driver.CUDAToolkit, rep.Driver.CUDAToolkitFrom = cudaToolkit(sys)
	defer func() {
		// A library that misbehaves must not cost the user the rest of the report.
		if p := recover(); p != nil {
			rep.NVML = facts.NVML{Available: false, Error: "PANIC", Reason: fmt.Sprint("an NVML query crashed: ", p)}
		}
		rep.Summary = summarize(rep)
	}()

	if r := lib.Init(); r != nvml.SUCCESS {
		rep.NVML = facts.NVML{Error: ReturnName(r), Reason: initReason(r)}
		return rep
	}
	defer lib.Shutdown()
	rep.NVML.Available = true

	rep.Driver.Version = value(lib.SystemGetDriverVersion())
	v, r := lib.SystemGetCudaDriverVersion()
	rep.Driver.CUDA = value(cudaVersion(v), r)
	rep.Driver.NVML = value(lib.SystemGetNVMLVersion())

	n, r := lib.DeviceGetCount()
	if r != nvml.SUCCESS {
		rep.NVML.Error, rep.NVML.Reason = ReturnName(r), "NVML could not count the GPUs"
		return rep
	}
	devs := make([]nvml.Device, 0, n)
	for i := 0; i < n; i++ {
		d, r := lib.DeviceGetHandleByIndex(i)
		if r != nvml.SUCCESS {
			g := facts.GPU{Index: i, Name: facts.Failed[string](ReturnName(r)), NVLinks: []facts.NVLink{}}
			rep.GPUs = append(rep.GPUs, g)
			devs = append(devs, nil)
			continue
		}
		devs = append(devs, d)
		g := gpu(i, d, opt.IncludeIDs)
		if g.NVLinks == nil {
			g.NVLinks = []facts.NVLink{}
		}
		rep.GPUs = append(rep.GPUs, g)
	}
	for i := range devs {
		for j := range devs {
			if i == j || devs[i] == nil || devs[j] == nil {
				continue
			}
			rep.Pairs = append(rep.Pairs, pair(i, j, devs[i], devs[j], rep.GPUs[i], rep.GPUs[j]))
		}
	}
	rep.Software.ACS = acs(sys, rep.GPUs)
	return rep
}

// summarize derives the summary from the facts.
func summarize(rep facts.Report) facts.Summary {
	s := facts.Summary{BlockedPairs: []facts.BlockedPair{}}
	all, unknown := true, false
	for _, p := range rep.Pairs {
		ok := p.Read.Valid && p.Read.V == "OK" && p.Write.Valid && p.Write.V == "OK"
		if ok {
			continue
		}
		if !p.Read.Valid || !p.Write.Valid {
			unknown = true
			continue
		}
		all = false
		reason := p.Read.V
		if reason == "OK" {
			reason = p.Write.V
		}
		s.BlockedPairs = append(s.BlockedPairs, facts.BlockedPair{From: p.From, To: p.To, Reason: reason})
	}
	if rep.NVML.Available && !unknown {
		s.AllPairsP2P = &all
	}
	if rep.NVML.Available {
		n, nvlink, nvswitch, mig := len(rep.GPUs), false, false, false
		for _, g := range rep.GPUs {
			nvlink = nvlink || g.NVLinksActive > 0
			nvswitch = nvswitch || switchLinks(g) > 0
			mig = mig || g.MIGMode.Valid && g.MIGMode.V == "enabled"
		}
		s.GPUCount, s.NVLink, s.NVSwitch, s.MIG = &n, &nvlink, &nvswitch, &mig
	}
	sort.Slice(s.BlockedPairs, func(i, j int) bool {
		a, b := s.BlockedPairs[i], s.BlockedPairs[j]
		return a.From < b.From || a.From == b.From && a.To < b.To
	})
	return s
}
