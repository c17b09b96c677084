package diagnose

import (
	"slices"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// symptoms answers an input with no error line from what it shows
// (paste.Symptom: wrong values in nccl-tests, a small BAR1, a log that stops
// after NCCL's set-up, ACS redirect read with setpci). Each symptom the
// paste shows is a message at its line; its causes are the entries whose
// conditions hold because of that fact (they read it, hold with the paste's
// facts, and do not hold without it), judged like any cause by the facts f.
// The entries' conditions are the map from symptom to cause, so that a new
// entry is found without code; the messages depend on the paste alone, as
// those of error lines do.
//
// With known set (the input held a known note), only symptoms of something
// seen going wrong or how the machine is set up answer (see paste.Weak).
func symptoms(s *site.Site, pasted []paste.Fact, f rules.Facts, o Options, known bool) ([]Message, error) {
	own := paste.Facts(pasted)
	// The most telling symptom first (paste.SymptomRank), each kind in the
	// order of the input.
	pasted = slices.Clone(pasted)
	sort.SliceStable(pasted, func(i, j int) bool { return paste.SymptomRank(pasted[i].Name) < paste.SymptomRank(pasted[j].Name) })
	var out []Message
	for _, p := range pasted {
		cond, ok := paste.Symptom(p.Name)
		if !ok || known && paste.Weak(p.Name) || !holds(cond, own) {
			continue
		}
		// A symptom that tells the cause of the others (paste.Explains)
		// goes without them all: an entry that it or the failure it
		// explains calls for ("a hang, or a version said to fail") answers it.
		explains := paste.Explains(p.Name)
		without := rules.Facts{}
		for k, v := range own {
			if k != p.Name && !(explains && paste.SymptomRank(k) >= 0) {
				without[k] = v
			}
		}
		var rs []ranked
		for _, e := range s.KB.Entries {
			names, err := rules.FactsIn(e.AppliesWhen)
			if err != nil || !slices.Contains(names, p.Name) || !holds(e.AppliesWhen, own) || holds(e.AppliesWhen, without) {
				continue
			}
			c, _, err := cause(s, e, f, o)
			if err != nil {
				return nil, err
			}
			sc := search.NewSymptomCause(e)
			for _, n := range names {
				if _, ok := own[n]; ok {
					sc.Reads++
				}
			}
			rs = append(rs, ranked{c: c, tier: tierOf(c, true), symptom: sc})
		}
		if len(rs) == 0 {
			continue
		}
		sort.SliceStable(rs, func(i, j int) bool {
			if rs[i].tier != rs[j].tier {
				return rs[i].tier < rs[j].tier
			}
			return search.SymptomBefore(rs[i].symptom, rs[j].symptom)
		})
		text := strings.TrimSpace(p.Text)
		m := Message{Line: p.Line, LineText: text, Match: strings.TrimSuffix(text, "…"), Severity: "error", judged: len(f) > 0}
		m.conclude(s, rs, f, o)
		out = append(out, m)
	}
	return out, nil
}

// holds says whether condition cond holds for facts f.
func holds(cond string, f rules.Facts) bool {
	v, err := rules.Applies(nil, cond, f)
	return err == nil && v.Truth == rules.True
}
