package search

import (
	"strings"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/errvocab"
	"github.com/p2pkb/p2pkb/internal/kb"
)

// Candidate is an entry whose pattern matched a line, with what ranks it
// among the causes of that line's message. Explain, match, the search
// index and the search page (assets/search.js, causeOrder) rank with the
// same keys in the same order: Before.
type Candidate struct {
	ID         string
	Tier       int     // by the facts: 0 its conditions hold, 1 unknown or none, 2 ruled out
	Wrapper    bool    // its pattern matched only an NCCL result (errvocab.Result): the line wraps an error it does not name
	Shape      bool    // the entry answers a shape of message, not this one (kb.Entry.Shape)
	Generic    bool    // its signature is an inner error alone (errvocab.Bare): it explains the error, not who met it
	Match      int     // characters its pattern matched: a longer match is a more specific explanation
	Reports    int     // reports the entry cites (kb.Entry.Reports)
	Confidence float64 // the entry's own estimate: breaks ties of evidence only
}

// Before tells whether a ranks above b: the facts first (a cause that holds,
// then one not known, then one ruled out); then the most specific
// explanation: an entry that names what failed above a wrapper that names
// only the result code it was turned into, an entry that names the line's
// layer above one that names only the error inside it, and a longer match
// above a shorter one; then
// the evidence, the reports each entry cites; and only when those are
// equal the entry's confidence, then its id, so that the order is the same
// everywhere.
func Before(a, b Candidate) bool {
	switch {
	case a.Tier != b.Tier:
		return a.Tier < b.Tier
	case a.Wrapper != b.Wrapper:
		return !a.Wrapper
	case a.Generic != b.Generic:
		return !a.Generic
	case a.Match != b.Match:
		return a.Match > b.Match
	case a.Reports != b.Reports:
		return a.Reports > b.Reports
	case a.Confidence != b.Confidence:
		return a.Confidence > b.Confidence
	}
	return a.ID < b.ID
}

// NewCandidate is e as a cause of a line its pattern matched with match, at tier.
func NewCandidate(e *kb.Entry, match string, tier int) Candidate {
	return Candidate{ID: e.ID, Tier: tier, Wrapper: errvocab.Result(match), Shape: e.Shape, Generic: Generic(e), Match: utf8.RuneCountInString(match), Reports: len(e.Reports()), Confidence: e.Confidence}
}

// APIs lists the kinds of CUDA calls an entry names in its signature,
// pattern or aliases (errvocab.APIKinds): a line no entry names is answered
// first by the entries of its error that name the same kind of call.
func APIs(e *kb.Entry) []string {
	return errvocab.APIKinds(e.Signature + "\n" + e.Regex + "\n" + strings.Join(e.Aliases, "\n"))
}

// Generic tells whether an entry's signature is an inner error alone, or
// the entry answers a shape of message (kb.Entry.Shape) rather than one.
func Generic(e *kb.Entry) bool { return e.Shape || errvocab.Bare(e.Signature) }

// patternScore ranks a pattern match above every word match, and pattern
// matches among themselves as Before does without facts: an entry that
// names what failed above a wrapper (a match that is an NCCL result alone),
// one that names the layer above a generic one, a longer match above a shorter one,
// more reports, then more confidence. The parts stay apart: a match is at
// most MaxQueryBytes characters, reports count below one, confidence below
// the smallest step of reports. assets/search.js computes the same.
func patternScore(match string, generic bool, reports int, confidence float64) float64 {
	s := 1000.0 + float64(utf8.RuneCountInString(match))
	if !generic {
		s += specificBonus
	}
	if !errvocab.Result(match) {
		s += namedBonus
	}
	return s + reportsScore(reports) + confidence/1e6
}

// specificBonus puts an entry that names more than the inner error above
// every generic one, whatever their lengths.
const specificBonus = 1 << 17

// namedBonus puts an entry whose match names more than an NCCL result above
// every wrapper, generic or not.
const namedBonus = 1 << 18

// reportsScore maps a count of reports into [0, 0.5), increasing.
func reportsScore(n int) float64 { return 0.5 * float64(n) / float64(n+1) }

// SymptomCause is what ranks an entry among the causes of a symptom (a
// paste with no error line, answered from what it shows) where the facts
// rank them alike. Explain and the search page (meta.js's "symptoms", in
// this order) rank with it.
type SymptomCause struct {
	Reads      int     // how many of the paste's facts the entry's condition reads: set per paste
	App        bool    // an application's entry: not of a layer every program runs on (platformDomains)
	Note       bool    // the entry is a note
	Confidence float64 // the entry's own estimate
}

// NewSymptomCause is e as a cause of a symptom.
func NewSymptomCause(e *kb.Entry) SymptomCause {
	return SymptomCause{App: !platformDomains[e.Domain], Note: e.IsNote(), Confidence: e.Confidence}
}

// SymptomBefore tells whether a ranks above b among the causes of one
// symptom at the same tier: the most specific first (the condition that
// reads more of what the paste shows: a hang beside a named custom
// all-reduce or NVLS before a hang alone), then the platform's entries,
// errors before notes, then the higher confidence. Sorted stably, entries
// that tie keep the knowledge base's order.
func SymptomBefore(a, b SymptomCause) bool {
	switch {
	case a.Reads != b.Reads:
		return a.Reads > b.Reads
	case a.App != b.App:
		return !a.App
	case a.Note != b.Note:
		return !a.Note
	}
	return a.Confidence > b.Confidence
}

// platformDomains are the layers every program runs on. A paste without an
// error line shows no program's own message, so among the causes of a
// symptom their entries come before an application's (Accelerate's check
// of RTX 40 cards, vLLM's custom all-reduce): theirs explain the symptom
// wherever it shows.
var platformDomains = map[string]bool{"cuda": true, "linux": true, "nvml": true, "nccl": true, "fabricmanager": true}
