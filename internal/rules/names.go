package rules

import "fmt"

// FactsIn lists the facts a condition reads, in order of first use: what
// one would have to find out to decide it.
func FactsIn(src string) ([]string, error) {
	if _, err := Parse(src); err != nil {
		return nil, err
	}
	toks, _ := lex(src)
	var out []string
	seen := map[string]bool{}
	for _, t := range toks {
		if t.kind == "fact" && t.text != "true" && t.text != "false" && !seen[t.text] {
			seen[t.text] = true
			out = append(out, t.text)
		}
	}
	return out, nil
}

// DisplayName is how reasons name a fact: "P2P between all GPU pairs".
func DisplayName(fact string) string { return displayName(fact) }

// Known tells whether the facts hold a value for name (an NCCL_* variable
// that a probe report or an NCCL_DEBUG=INFO log does not list counts as
// known and unset).
func (f Facts) Known(name string) bool { return f.get(name).known }

// Names lists the facts conditions can read, but for the env.NAME and
// python.NAME families.
func Names() []string { return append([]string(nil), factNames...) }

// Reads lists the facts an expression reads; nil for nil.
func Reads(e Expr) []string {
	if e == nil {
		return nil
	}
	names, _ := FactsIn(e.String())
	return names
}

// Seen is a fact as conditions read it, as text: what decides them, for a
// caller that keeps verdicts by the facts they read. "" when unknown.
func (f Facts) Seen(name string) string {
	v := f.get(name)
	if !v.known {
		return ""
	}
	return fmt.Sprintf("%s:%t:%s:%g", v.kind, v.b, v.s, v.n)
}
