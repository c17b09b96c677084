package diagnose

import (
	"slices"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/kb"
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
func symptoms(s *site.Site, pasted []paste.Fact, f rules.Facts, o Options, known, path bool) ([]Message, error) {
	own := paste.Facts(pasted)
	// The most telling symptom first (paste.SymptomRankIn), each kind in the
	// order of the input.
	all := pasted
	pasted = slices.Clone(pasted)
	sort.SliceStable(pasted, func(i, j int) bool {
		return paste.SymptomRankIn(pasted[i].Name, all) < paste.SymptomRankIn(pasted[j].Name, all)
	})
	pathFacts := pathFactShown(pasted)
	var out []Message
	for _, p := range pasted {
		cond, ok := paste.Symptom(p.Name)
		if !ok || known && paste.Weak(p.Name) || paste.SaidOnly(p.Name) && p.Source != paste.Said || !holds(cond, own) {
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
			rs = append(rs, ranked{c: c, tier: tierOf(c, true), symptom: symptomCause(e, names, own), version: byVersion(e.AppliesWhen, names, own)})
		}
		if len(rs) == 0 {
			continue
		}
		// A release's known bug is what to check next beside the causes
		// that hold; alone it would answer a symptom with a guess.
		open, err := versionOpen(s, []string{p.Name}, own, without, f, o)
		if err != nil {
			return nil, err
		}
		rs = append(rs, open...)
		sort.SliceStable(rs, func(i, j int) bool {
			if rs[i].tier != rs[j].tier {
				return rs[i].tier < rs[j].tier
			}
			if rs[i].open != rs[j].open {
				return rs[j].open
			}
			// A release's known bug that the paste's own versions place
			// it in is more telling than a cause that reads more of the
			// symptom: the version is what the reporters' fix changed.
			if rs[i].version != rs[j].version {
				return rs[i].version
			}
			// Among causes that read as much of the paste, a hang or a run
			// said to be slow, told or shown by an input that shows nothing
			// of the path between GPUs (pathShown), is more often the
			// program's (ranks calling different collectives, a set-up that
			// gains nothing from more GPUs) than the path's. A run said to be
			// slow stays so when only its words name the path ("slow over
			// NVLink"): only a fact of the path read from the paste (NCCL's
			// transport, a P2P reading, the topology) puts the path's causes
			// first. On the 5,378 reports of the sets, that made the first
			// cause right in 13 inputs and wrong in 8 that the path's order
			// had right.
			programFirst := paste.ProgramFirst(p.Name) && (!path || p.Name == "perf.slow" && !pathFacts)
			if a, b := rs[i].symptom, rs[j].symptom; a.Reads == b.Reads && programFirst {
				if x, y := s.KB.ByID[rs[i].c.ID].ProgramSide, s.KB.ByID[rs[j].c.ID].ProgramSide; x != y {
					return x
				}
			}
			return search.SymptomBefore(rs[i].symptom, rs[j].symptom)
		})
		text := strings.TrimSpace(p.Text)
		m := Message{Line: p.Line, LineText: text, Match: strings.TrimSuffix(text, "…"), Severity: "error", judged: len(f) > 0, symptom: p.Name}
		m.conclude(s, rs, f, o)
		out = append(out, m)
	}
	return out, nil
}

// symptomCause is e, whose condition reads names, as a cause of a symptom
// of a paste with facts own: it reads as many of them as own shows
// (rules.Facts.Shows).
func symptomCause(e *kb.Entry, names []string, own rules.Facts) search.SymptomCause {
	sc := search.NewSymptomCause(e)
	sc.Reads = readsShown(e.AppliesWhen, names, own)
	return sc
}

// versionOpen gives the entries that read one of the facts reads and wait
// only on a version the paste does not state: a release's known bug that
// the symptom calls for. Such an entry's condition is neither true nor false
// with the paste's facts own, every fact it reads that own lacks is a
// version or what a run did (paste.Outcome), at least one a version, and it
// does not hold without the symptom. They are what to check next, so they
// follow the causes that hold (open); the facts f judge them as any cause.
func versionOpen(s *site.Site, reads []string, own, without rules.Facts, f rules.Facts, o Options) ([]ranked, error) {
	var rs []ranked
	for _, e := range s.KB.Entries {
		names, err := rules.FactsIn(e.AppliesWhen)
		if err != nil || !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(reads, n) }) ||
			holds(e.AppliesWhen, without) || !unknown(e.AppliesWhen, own) || !waitsOnVersion(names, own) {
			continue
		}
		c, _, err := cause(s, e, f, o)
		if err != nil {
			return nil, err
		}
		rs = append(rs, ranked{c: c, tier: tierOf(c, true), open: true, symptom: symptomCause(e, names, own)})
	}
	return rs, nil
}

// byVersion says whether cond, which reads names, holds with own only
// because of a version own states: a release's known bug that the paste's
// versions place it in.
func byVersion(cond string, names []string, own rules.Facts) bool {
	without := rules.Facts{}
	stated := false
	for k, v := range own {
		if slices.Contains(names, k) && rules.VersionFact(k) {
			stated = true
			continue
		}
		without[k] = v
	}
	return stated && holds(cond, own) && !holds(cond, without)
}

// waitsOnVersion says whether the facts names that own lacks are versions
// or outcomes of a run, at least one a version.
func waitsOnVersion(names []string, own rules.Facts) bool {
	version := false
	for _, n := range names {
		if _, ok := own[n]; ok {
			continue
		}
		if !rules.VersionFact(n) && !paste.Outcome(n) {
			return false
		}
		version = version || rules.VersionFact(n)
	}
	return version
}

// unknown says whether cond is neither true nor false for facts f.
func unknown(cond string, f rules.Facts) bool {
	v, err := rules.Applies(nil, cond, f)
	return err == nil && v.Truth == rules.Unknown
}

// holds says whether condition cond holds for facts f.
func holds(cond string, f rules.Facts) bool {
	v, err := rules.Applies(nil, cond, f)
	return err == nil && v.Truth == rules.True
}

// hangFacts are the facts that say a run hung: a hang said or shown by a
// program's line (hang.seen), or a log that stops after NCCL's set-up.
var hangFacts = []string{"hang.seen", "nccl.stopped_after_init"}

// hangFirst answers the error lines of an input that all say only that
// something hung (paste.HangLine: a watchdog's timeout, a barrier's) with
// what the rest of the paste shows about why: in each of msgs, the entries
// that explain the hang come before the line's own causes. An entry
// explains it when its condition reads a hang fact and holds with the
// facts the software printed (a person's words, facts of the description,
// are a weaker witness than the program's own line and do not move ahead
// of it), but neither without the hang nor with the hang alone (an entry
// that says only that something hung is a cause of the line itself), and
// its condition holds by the facts f; those not known to hold stay where
// they were. They are ranked as a symptom's causes (SymptomBefore). The
// search page does the same (assets/search.js, hangFirst).
func hangFirst(s *site.Site, msgs []Message, pasted []paste.Fact, f rules.Facts, o Options) error {
	own := paste.Facts(slices.DeleteFunc(slices.Clone(pasted), func(p paste.Fact) bool { return p.Source == paste.Said }))
	all := paste.Facts(pasted)
	without, alone := rules.Facts{}, rules.Facts{}
	for k, v := range own {
		if slices.Contains(hangFacts, k) {
			alone[k] = v
		} else {
			without[k] = v
		}
	}
	if len(alone) == 0 {
		return nil
	}
	var rs []ranked
	for _, e := range s.KB.Entries {
		names, err := rules.FactsIn(e.AppliesWhen)
		if err != nil || !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(hangFacts, n) }) ||
			!holds(e.AppliesWhen, own) || holds(e.AppliesWhen, without) || holds(e.AppliesWhen, alone) {
			continue
		}
		c, _, err := cause(s, e, f, o)
		if err != nil {
			return err
		}
		if tierOf(c, true) != 0 {
			continue
		}
		rs = append(rs, ranked{c: c, tier: 0, symptom: symptomCause(e, names, own)})
	}
	sort.SliceStable(rs, func(i, j int) bool { return search.SymptomBefore(rs[i].symptom, rs[j].symptom) })
	// A release's known hang is what to check next after the line's own
	// causes, when the paste states no version that rules it out.
	open, err := versionOpen(s, hangFacts, own, without, f, o)
	if err != nil {
		return err
	}
	sort.SliceStable(open, func(i, j int) bool { return search.SymptomBefore(open[i].symptom, open[j].symptom) })
	for i := range msgs {
		m := &msgs[i]
		byReads(m.Causes, all)
		ahead := missing(rs, m.Causes)
		m.Causes = append(ahead, m.Causes...)
		after := missing(open, m.Causes)
		m.Causes = append(m.Causes, after...)
		switch {
		case len(ahead) > 0:
			m.Verdict, m.TellApart, m.Collect = "applies", nil, nil
		case len(after) > 0 && m.Verdict != "applies" && slices.ContainsFunc(m.Causes, func(c Cause) bool { return c.Verdict != rules.False.String() }):
			// Not every cause is ruled out: what tells them apart.
			m.Verdict, m.Collect, m.TellApart = "unknown", nil, tellApart(s, m.Causes, f)
		}
	}
	return nil
}

// byReads orders a hang line's own causes cs, at each tier, by how many of
// the facts own shows (rules.Facts.Shows) their conditions read, stably: two ranks' watchdog
// lines that disagree on the collective (collectives.differ) put the entry
// of ranks out of step, which reads them, before the watchdog's own. Unlike
// what moves ahead of the line, own holds the description's facts too: the
// line matched both entries, and "it hangs after some iterations" is what
// tells which of them to check first.
func byReads(cs []Cause, own rules.Facts) {
	reads := func(c Cause) int {
		names, err := rules.FactsIn(c.Condition)
		if err != nil {
			return 0
		}
		return readsShown(c.Condition, names, own)
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].rank != cs[j].rank {
			return cs[i].rank < cs[j].rank
		}
		return reads(cs[i]) > reads(cs[j])
	})
}

// missing gives the causes of rs that are not among cs.
func missing(rs []ranked, cs []Cause) []Cause {
	var out []Cause
	for _, r := range rs {
		if !slices.ContainsFunc(cs, func(c Cause) bool { return c.ID == r.c.ID }) {
			out = append(out, r.c)
		}
	}
	return out
}

// readsShown counts the facts of names, read by condition cond, that own
// shows (rules.Facts.Shows), or holds false where cond reads them negated
// (!p2p.test.data_ok): what the paste shows that the condition asks about.
// Where cond holds, only the facts of the part that holds count
// (rules.Holding): run.training, read beside a hang said or shown, is no
// evidence beside a log that stops after NCCL's set-up.
func readsShown(cond string, names []string, own rules.Facts) int {
	if e, err := rules.Parse(cond); err == nil {
		if h := rules.Holding(e, own); h != nil {
			names = h
		}
	}
	n := 0
	for _, name := range names {
		if _, ok := own[name]; ok && (own.Shows(name) || strings.Contains(cond, "!"+name)) {
			n++
		}
	}
	return n
}

// pathShown tells whether an input shows the path between GPUs: a line of
// its head, prose or not, speaks of it (wordsQuery.link: NCCL, P2P, NVLink,
// PCIe and the like), or the paste gives a fact of it (paste.PathFact).
func pathShown(q *wordsQuery, pasted []paste.Fact) bool {
	return q != nil && q.link || pathFactShown(pasted)
}

// pathFactShown tells whether the paste gives a fact of the path between
// GPUs (paste.PathFact), beyond any words of it.
func pathFactShown(pasted []paste.Fact) bool {
	return slices.ContainsFunc(pasted, func(p paste.Fact) bool { return paste.PathFact(p.Name) })
}
