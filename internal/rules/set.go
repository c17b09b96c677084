package rules

import (
	"fmt"
	"strconv"
)

// Set records a fact seen by another source than a probe report, such as a
// pasted log. kind is bool, num, version or str and text the value as text
// ("true", "2", "2.28.9"); the fact is named in reasons as FromReport names it.
func (f Facts) Set(name, kind, text string) error {
	if !knownFact(name) {
		return fmt.Errorf("unknown fact %q", name)
	}
	v := value{known: true, kind: kind, s: text, display: Display(name)}
	switch kind {
	case "bool":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("fact %s: %q is not true or false", name, text)
		}
		v.b, v.s = b, ""
		if w, ok := ownReasons[name]; ok {
			v.yes, v.no = w[0].en, w[1].en
		}
	case "num":
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return fmt.Errorf("fact %s: %q is not a number", name, text)
		}
		v.n = n
	case "version", "str":
	default:
		return fmt.Errorf("fact %s: unknown kind %q", name, kind)
	}
	f[name] = v
	return nil
}

// Lookup returns a fact's kind and its value as text, as Set takes them; ok
// is false when no source saw the fact.
func (f Facts) Lookup(name string) (kind, text string, ok bool) {
	v, found := f[name]
	if !found || !v.known {
		return "", "", false
	}
	if v.kind == "bool" {
		return v.kind, strconv.FormatBool(v.b), true
	}
	return v.kind, v.s, true
}

// Shows says whether the input shows fact name: known, and not a yes-or-no
// fact that is false. A condition that reads a fact the input shows absent
// (no GeForce card named) is no more specific to it for that.
func (f Facts) Shows(name string) bool {
	v, ok := f[name]
	return ok && v.known && !(v.kind == "bool" && !v.b)
}
