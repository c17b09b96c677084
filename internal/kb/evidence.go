package kb

import (
	"regexp"
	"strings"
)

var urlRE = regexp.MustCompile(`https?://[^\s,;)\]]+`)

// Reports lists the distinct reports an entry cites: the issue threads,
// forum posts and logs in its signature source, workarounds and dead ends,
// without the source lines and documentation pages, which say what the
// software prints and not who met it. How many there are is the evidence
// that ranks causes of the same message when no machine's facts tell them
// apart: a hand-written confidence is a guess, a thread is a case.
func (e *Entry) Reports() []string {
	var all []string
	if s := e.SignatureSource; s != nil {
		all = append(all, s.URL)
		all = append(all, urlRE.FindAllString(s.Note, -1)...)
	}
	for _, w := range e.Workarounds {
		all = append(all, w.Sources...)
	}
	for _, d := range e.DeadEnds {
		all = append(all, d.Sources...)
	}
	seen := map[string]bool{}
	var out []string
	for _, u := range all {
		u = strings.TrimRight(strings.SplitN(u, "#", 2)[0], "/.")
		if u == "" || seen[u] || !isReport(u) || u == strings.TrimRight(e.OfficialDocURL, "/") {
			continue
		}
		seen[u] = true
		out = append(out, u)
	}
	return out
}

// isReport tells a report from a source line or a documentation page.
func isReport(u string) bool {
	for _, s := range []string{"/blob/", "/tree/", "/commit/", "/raw/", "/-/blob/", "docs.nvidia.com", "docs.", "/docs/", "readthedocs", "raw.githubusercontent.com"} {
		if strings.Contains(u, s) {
			return false
		}
	}
	return true
}
