package diagnose

import (
	"slices"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
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
		without := rules.Facts{}
		for k, v := range own {
			if k != p.Name {
				without[k] = v
			}
		}
		// The entries of the platform (cuda, linux, ...) before an
		// application's, errors before notes, within each tier.
		type symRanked struct {
			ranked
			app  bool // an application's own message, which the paste does not show
			note bool
		}
		var rs []symRanked
		for _, e := range s.KB.Entries {
			names, err := rules.FactsIn(e.AppliesWhen)
			if err != nil || !slices.Contains(names, p.Name) || !holds(e.AppliesWhen, own) || holds(e.AppliesWhen, without) {
				continue
			}
			c, _, err := cause(s, e, f, o)
			if err != nil {
				return nil, err
			}
			rs = append(rs, symRanked{ranked: ranked{c: c, tier: tierOf(c, true)}, app: !platformDomains[e.Domain], note: e.IsNote()})
		}
		if len(rs) == 0 {
			continue
		}
		sort.SliceStable(rs, func(i, j int) bool {
			if rs[i].tier != rs[j].tier {
				return rs[i].tier < rs[j].tier
			}
			if rs[i].app != rs[j].app {
				return !rs[i].app
			}
			if rs[i].note != rs[j].note {
				return !rs[i].note
			}
			return rs[i].c.Confidence > rs[j].c.Confidence
		})
		plain := make([]ranked, len(rs))
		for i, r := range rs {
			plain[i] = r.ranked
		}
		text := strings.TrimSpace(p.Text)
		m := Message{Line: p.Line, LineText: text, Match: strings.TrimSuffix(text, "…"), Severity: "error", judged: len(f) > 0}
		m.conclude(s, plain, f, o)
		out = append(out, m)
	}
	return out, nil
}

// platformDomains are the layers every program runs on. A paste without an
// error line shows no program's own message, so among the causes of a
// symptom their entries come before an application's (Accelerate's check
// of RTX 40 cards, vLLM's custom all-reduce): theirs explain the symptom
// wherever it shows.
var platformDomains = map[string]bool{"cuda": true, "linux": true, "nvml": true, "nccl": true, "fabricmanager": true}

// holds says whether condition cond holds for facts f.
func holds(cond string, f rules.Facts) bool {
	v, err := rules.Applies(nil, cond, f)
	return err == nil && v.Truth == rules.True
}
