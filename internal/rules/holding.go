package rules

import "slices"

// Holding lists the facts that make condition e true with facts f: those
// of every part that holds, so that a fact in a clause that does not hold
// (c in "a || b && c" where only a does) does not count as read. nil when
// e does not hold.
func Holding(e Expr, f Facts) []string {
	if e == nil || e.eval(f).truth != True {
		return nil
	}
	return holding(e, f)
}

// holding is Holding for an e known to hold.
func holding(e Expr, f Facts) []string {
	switch x := e.(type) {
	case orExpr:
		var out []string
		for _, side := range []Expr{x.l, x.r} {
			if side.eval(f).truth == True {
				out = union(out, holding(side, f))
			}
		}
		return out
	case andExpr:
		return union(holding(x.l, f), holding(x.r, f))
	}
	return Reads(e)
}

// union is a with the names of b it lacks after them.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
