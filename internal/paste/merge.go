package paste

import (
	"strconv"

	"github.com/p2pkb/p2pkb/internal/rules"
)

// Conflict is a fact the paste and a probe report both give, with
// different values: the log may come from another machine or another time.
type Conflict struct {
	Name  string `json:"name"`
	Log   string `json:"log"`   // the value in the paste
	Probe string `json:"probe"` // the value the probe found, which wins
	Line  int    `json:"line"`  // where the paste says so
}

// Facts turns pasted facts into rules facts. An NCCL_DEBUG=INFO log lists
// the NCCL_* variables set, so an NCCL_* it does not list was not set;
// without one, every NCCL_* stays unknown.
func Facts(pasted []Fact) rules.Facts {
	f := rules.Facts{}
	for _, p := range pasted {
		// The extractor gives only known names and well-formed values.
		_ = f.Set(p.Name, p.Kind, p.Value)
		if p.Source == "NCCL" {
			f.ListNCCLEnv()
		}
	}
	return f
}

// Merge judges with the probe's facts where it has them and the paste's
// elsewhere, and lists where the two disagree. probe may be nil.
func Merge(probe rules.Facts, pasted []Fact) (rules.Facts, []Conflict) {
	f := Facts(pasted)
	var conflicts []Conflict
	for name, v := range probe {
		f[name] = v
	}
	for _, p := range pasted {
		kind, val, ok := probe.Lookup(p.Name)
		if !ok && p.Name == "nccl.version" {
			// The probe finds the NCCL a Python package ships.
			kind, val, ok = probe.Lookup("python.nccl")
		}
		if ok && !same(kind, val, p.Value) {
			conflicts = append(conflicts, Conflict{Name: p.Name, Log: p.Value, Probe: val, Line: p.Line})
		}
	}
	return f, conflicts
}

func same(kind, a, b string) bool {
	switch kind {
	case "version":
		return rules.CompareVersions(a, b) == 0
	case "num":
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		return err1 == nil && err2 == nil && x == y
	}
	return a == b
}
