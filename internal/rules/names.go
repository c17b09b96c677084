package rules

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

// Known tells whether the facts hold a value for name (NCCL_* variables a
// probe report does not list count as known and unset).
func (f Facts) Known(name string) bool { return f.get(name).known }
