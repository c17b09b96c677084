package rules

import (
	"testing"
)

// fuzzMachines are the real and golden probe readings the cases use, and a
// machine with no facts at all.
func fuzzMachines(f *testing.F) ([]Facts, table) {
	tb, byName := loadTable(f)
	machines := []Facts{{}}
	for _, m := range byName {
		machines = append(machines, m)
	}
	return machines, tb
}

// FuzzCondition parses arbitrary conditions. One that parses prints as a
// condition that parses to the same thing and judges every machine the same;
// one that does not gives an error with its column.
func FuzzCondition(f *testing.F) {
	machines, tb := fuzzMachines(f)
	for _, c := range tb.Cases {
		f.Add(c.When)
	}
	for _, c := range tb.Invalid {
		f.Add(c.When)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			if len(err.Error()) == 0 {
				t.Fatal("empty error")
			}
			return
		}
		if e == nil {
			return
		}
		again, err := Parse(e.String())
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", src, e.String(), err)
		}
		if again.String() != e.String() {
			t.Fatalf("%q: printed %q, printed again %q", src, e.String(), again.String())
		}
		for _, m := range machines {
			if a, b := Eval(e, m).Truth, Eval(again, m).Truth; a != b {
				t.Fatalf("%q judged %v, printed and parsed again %v", src, a, b)
			}
		}
	})
}

// FuzzVersions checks version constraints and the version order: comparing
// is antisymmetric and a version equals itself.
func FuzzVersions(f *testing.F) {
	for _, s := range [][2]string{{"580.159.04", "525"}, {"13.0", "12.4"}, {"2.11.0+cu130", "2.1"}, {"cuda>=11.8", "1.0.0rc1"}, {"nvidia-driver>=525", ""}} {
		f.Add(s[0], s[1])
	}
	machines, _ := fuzzMachines(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		if CompareVersions(a, a) != 0 {
			t.Fatalf("%q != itself", a)
		}
		if x, y := CompareVersions(a, b), CompareVersions(b, a); x != -y {
			t.Fatalf("compare(%q, %q) = %d but compare(%q, %q) = %d", a, b, x, b, a, y)
		}
		e, err := Constraint(a)
		if err != nil || e == nil {
			return
		}
		for _, m := range machines {
			Eval(e, m)
		}
	})
}
