package site

import (
	"regexp"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// Causes is how many entries are causes of the message of e: itself and the
// entries it is confused with (transition_graph.frequently_confused_with)
// whose pattern matches its signature or whose signature its pattern
// matches. The KB links the causes of one message that way, so this costs a
// few regexes per entry however large the KB is.
func (s *Site) Causes(e *kb.Entry) int {
	if n := s.causes[e.ID]; n > 0 {
		return n
	}
	return 1
}

func sharedCauses(k *kb.KB) map[string]int {
	compiled := map[string]*regexp.Regexp{}
	re := func(e *kb.Entry) *regexp.Regexp {
		r, ok := compiled[e.ID]
		if !ok {
			r, _ = regexp.Compile(e.Regex) // the loader compiled it already; nil only in a test's hand-made KB
			compiled[e.ID] = r
		}
		return r
	}
	out := map[string]int{}
	for _, e := range k.Entries {
		n := 1
		for _, id := range e.TransitionGraph.FrequentlyConfusedWith {
			o := k.ByID[id]
			if o == nil || o == e {
				continue
			}
			if r := re(o); r != nil && r.MatchString(e.Signature) {
				n++
			} else if r := re(e); r != nil && r.MatchString(o.Signature) {
				n++
			}
		}
		if n > 1 {
			out[e.ID] = n
		}
	}
	return out
}
