package rules

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// CompareVersions orders two versions by their numeric parts: 580.159.04 >
// 525, 13.0 == 13, 2.11.0+cu130 == 2.11.0 (a local suffix does not count).
func CompareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func versionParts(v string) []int {
	v, _, _ = strings.Cut(v, "+")
	var out []int
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r < '0' || r > '9' }) {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	return out
}

var components = map[string]string{
	"cuda": "cuda.version", "nvidia-driver": "driver.version", "driver": "driver.version",
	"torch": "python.torch", "pytorch": "python.torch", "tensorflow": "python.tensorflow",
	"jax": "python.jax", "jaxlib": "python.jaxlib", "cupy": "python.cupy", "nccl": "nccl.version",
}

var constraintRE = regexp.MustCompile(`^\s*([A-Za-z][A-Za-z0-9_-]*)\s*(>=|<=|==|!=|>|<)\s*([0-9][0-9A-Za-z.+-]*)\s*$`)

// Constraint parses one entry of versions. It returns nil for a version
// without an operator, which records what the error was seen with.
func Constraint(version string) (Expr, error) {
	m := constraintRE.FindStringSubmatch(version)
	if m == nil {
		if strings.ContainsAny(version, "<>=") {
			return nil, fmt.Errorf("%q is not a constraint of the form component>=version", version)
		}
		return nil, nil
	}
	name, ok := components[strings.ToLower(m[1])]
	if !ok {
		return nil, fmt.Errorf("%q: unknown component %q (known: cuda, nvidia-driver, torch, tensorflow, jax, jaxlib, cupy, nccl)", version, m[1])
	}
	return cmpExpr{op: m[2], l: fact(name), r: lit{text: m[3]}}, nil
}

// versionFacts are the facts VersionFact names besides the components':
// a version said to have changed and the facts of a versioned package.
var versionFacts = struct{ names, prefixes []string }{[]string{"nccl.bundled", "cuda.driver"}, []string{"version.", "python."}}

// VersionFact says whether fact name is a version of a component, or a
// version said to have changed: facts a paste often leaves out, whose
// absence keeps a release's known bug open rather than ruling it out.
func VersionFact(name string) bool {
	if slices.Contains(versionNames(), name) {
		return true
	}
	return slices.ContainsFunc(versionFacts.prefixes, func(p string) bool { return strings.HasPrefix(name, p) && len(name) > len(p) })
}

// versionNames are the names VersionFact holds for, without the prefixed
// ones, sorted.
func versionNames() []string {
	return slices.Compact(slices.Sorted(slices.Values(append(slices.Collect(maps.Values(components)), versionFacts.names...))))
}
