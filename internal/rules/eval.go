package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

type fact string

func (x fact) String() string { return string(x) }

func (x fact) eval(f Facts) result {
	v := f.get(string(x))
	switch {
	case !v.known:
		return result{Unknown, []string{v.display + " unknown"}}
	case v.kind != "bool":
		return result{Unknown, []string{fmt.Sprintf("%s is not true or false", x)}}
	case v.b && v.yes != "":
		return result{True, []string{v.yes}}
	case v.b:
		return result{True, []string{v.display + " present"}}
	case v.no != "":
		return result{False, []string{v.no}}
	}
	return result{False, []string{"no " + v.display}}
}

type lit struct {
	text         string
	num, boolean bool
}

func (l lit) String() string {
	if l.num || l.boolean {
		return l.text
	}
	// The language's strings have no escapes: a string is everything
	// between its quotes, so it prints back the same way.
	return `"` + l.text + `"`
}

func (l lit) eval(Facts) result {
	if l.boolean {
		if l.text == "true" {
			return result{True, nil}
		}
		return result{False, nil}
	}
	return result{Unknown, []string{l.String() + " is not true or false"}}
}

type notExpr struct{ e Expr }

func (n notExpr) String() string { return "!" + n.e.String() }
func (n notExpr) eval(f Facts) result {
	r := n.e.eval(f)
	return result{r.truth.not(), r.reasons}
}

type andExpr struct{ l, r Expr }

func (a andExpr) String() string { return "(" + a.l.String() + " && " + a.r.String() + ")" }
func (a andExpr) eval(f Facts) result {
	l, r := a.l.eval(f), a.r.eval(f)
	switch {
	case l.truth == False && r.truth == False:
		return result{False, append(l.reasons, r.reasons...)}
	case l.truth == False:
		return l
	case r.truth == False:
		return r
	case l.truth == True && r.truth == True:
		return result{True, append(l.reasons, r.reasons...)}
	}
	return result{Unknown, unknownReasons(l, r)}
}

type orExpr struct{ l, r Expr }

func (o orExpr) String() string { return "(" + o.l.String() + " || " + o.r.String() + ")" }
func (o orExpr) eval(f Facts) result {
	l, r := o.l.eval(f), o.r.eval(f)
	switch {
	case l.truth == True:
		return l
	case r.truth == True:
		return r
	case l.truth == False && r.truth == False:
		return result{False, append(l.reasons, r.reasons...)}
	}
	return result{Unknown, unknownReasons(l, r)}
}

// unknownReasons names each fact not known once, however many times the
// condition reads it.
func unknownReasons(l, r result) []string {
	var out []string
	for _, x := range []result{l, r} {
		if x.truth == Unknown {
			for _, s := range x.reasons {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

type cmpExpr struct {
	op   string
	l, r Expr
}

func (c cmpExpr) String() string { return c.l.String() + " " + c.op + " " + c.r.String() }

// operandValue is what a side of a comparison holds.
func operandValue(e Expr, f Facts) value {
	switch x := e.(type) {
	case fact:
		return f.get(string(x))
	case lit:
		switch {
		case x.num:
			n, _ := strconv.ParseFloat(x.text, 64)
			return value{known: true, kind: "num", n: n, s: x.text, display: x.text}
		case x.boolean:
			return value{known: true, kind: "bool", b: x.text == "true", display: x.text}
		}
		return value{known: true, kind: "str", s: x.text, display: strconv.Quote(x.text)}
	}
	r := e.eval(f)
	return value{known: r.truth != Unknown, kind: "bool", b: r.truth == True, display: "condition"}
}

func (c cmpExpr) eval(f Facts) result {
	l, r := operandValue(c.l, f), operandValue(c.r, f)
	_, leftIsFact := c.l.(fact)
	_, rightIsFact := c.r.(fact)
	shown := func(v value, isFact bool) string {
		switch {
		case isFact && v.kind != "bool":
			return v.display + " " + v.s
		case v.kind == "bool":
			return v.display
		}
		return v.s // a number or version written in the rule
	}
	if !l.known || !r.known {
		var why []string
		for _, v := range []value{l, r} {
			if !v.known {
				why = append(why, v.display+" unknown")
			}
		}
		return result{Unknown, why}
	}
	var cmp int
	switch {
	case l.kind == "version" || r.kind == "version":
		cmp = CompareVersions(l.s, r.s)
	case l.kind == "num" && r.kind == "num":
		cmp = compareFloat(l.n, r.n)
	case l.kind == "bool" && r.kind == "bool":
		if c.op != "==" && c.op != "!=" {
			return result{Unknown, []string{"true/false compared by order"}}
		}
		cmp = map[bool]int{true: 0, false: 1}[l.b == r.b]
	default:
		cmp = strings.Compare(l.s, r.s)
	}
	ok := map[string]bool{"==": cmp == 0, "!=": cmp != 0, "<": cmp < 0, "<=": cmp <= 0, ">": cmp > 0, ">=": cmp >= 0}[c.op]
	op := c.op
	if !ok {
		op = negate[c.op]
	}
	reason := fmt.Sprintf("%s %s %s", shown(l, leftIsFact), op, shown(r, rightIsFact))
	if l.kind == "str" && r.kind == "str" {
		reason = fmt.Sprintf("%s is %q", l.display, l.s)
		if !ok && c.op == "==" {
			reason = fmt.Sprintf("%s is %q, not %q", l.display, l.s, r.s)
		}
	}
	if ok {
		return result{True, []string{reason}}
	}
	return result{False, []string{reason}}
}

var negate = map[string]string{"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Eval evaluates a parsed condition; nil always applies.
func Eval(e Expr, f Facts) Verdict {
	if e == nil {
		return Verdict{Truth: True}
	}
	r := e.eval(f)
	return Verdict{Truth: r.truth, Reasons: r.reasons}
}
