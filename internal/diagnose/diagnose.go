// Package diagnose answers in a terminal: ranked search results, and the
// explanation of every known message in a log read as a stream, each with
// its causes ranked by a machine's facts, as text for people or as JSON for
// tools. It formats what the search index and the site model hold and
// judges it with internal/rules; search's line matcher finds the messages.
package diagnose

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/errvocab"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Message is one known message found in the input, with every entry whose
// signature matches its line: the known causes of that message, the most
// likely first.
type Message struct {
	Line     int     `json:"line"`      // the input's line where it first appears, from 1
	LineText string  `json:"line_text"` // that line, cut to maxLineText bytes
	Match    string  `json:"match"`     // what the longest pattern matched
	Severity string  `json:"severity"`  // error, or note when every cause is a line a healthy run prints too; by_words for ByWords
	Verdict  string  `json:"verdict"`   // applies: a cause's conditions hold; unknown; ruled_out: every cause is
	Causes   []Cause `json:"causes"`    // most likely first
	// TellApart names what would tell the causes apart when no cause is
	// known to hold: the facts their conditions read, and how to get them.
	TellApart *TellApart `json:"tell_apart,omitempty"`
	Collect   []string   `json:"collect_next,omitempty"` // when every cause is ruled out, or none is known: what to gather next
	// Layered says who printed the line and the error inside it, where a
	// layer's shape recognizes the line (errvocab).
	*Layered
	// Composed: no entry names this message; its causes are those of its
	// parts (each Cause.Via says which), never an entry of the message.
	Composed bool   `json:"composed,omitempty"`
	Note     string `json:"note,omitempty"` // what a composed message is made of, in words
	// ByWords: the causes are the entries closest to the input's words
	// (words.go), not causes of a known message, and Line is 0: nothing in
	// the input was recognized, or (Beside) a description long enough to
	// tell a story came with recognized lines, and these entries, none of
	// them already a cause, come after those lines' causes. Words says which
	// part of the input found them.
	ByWords bool `json:"by_words,omitempty"`
	Beside  bool `json:"beside_recognized,omitempty"`
	// Before: the recognized lines only name a consumer GPU (gpuOnly), and
	// the description's closest entries come first.
	Before bool   `json:"before_recognized,omitempty"`
	Words  *Words `json:"words,omitempty"`

	judged  bool   // there were facts to judge the causes by
	symptom string // symptoms: the fact whose message it is
	wrapper bool   // every cause is a wrapper (search.Candidate.Wrapper): the message names no failure of its own
	shape   bool   // every cause answers a shape of message (search.Candidate.Shape): no entry names this one
}

// Cause is one entry as a cause of a message, judged against the facts.
type Cause struct {
	ID          string   `json:"id"`
	Code        string   `json:"error_code"`
	Signature   string   `json:"signature"`
	Severity    string   `json:"severity"`
	Condition   string   `json:"applies_when,omitempty"`
	Verdict     string   `json:"verdict"` // applies, unknown, does_not_apply
	Reasons     []string `json:"reasons,omitempty"`
	RootCause   string   `json:"root_cause"`
	Confidence  float64  `json:"confidence"`
	Tier        string   `json:"verification_tier"`
	URL         string   `json:"url"`
	Workarounds []Marked `json:"workarounds"` // by success rate; with facts, those that apply first
	DeadEnds    []Marked `json:"dead_ends"`
	Via         string   `json:"via,omitempty"`         // composed messages: layer (an entry of the line's layer) or inner_error (an entry of the error inside it)
	Score       float64  `json:"words_score,omitempty"` // by-words messages: the entry's search score for the input's words
	rank        int      // its tier among the message's causes (tierOf): an unconditional entry ranks as unknown
}

// TellApart is what would decide between causes.
type TellApart struct {
	Facts []string `json:"facts"` // fact names, most telling first
	Names []string `json:"names"` // the same as reasons name them
	Run   string   `json:"run"`   // the probe command that finds them all
	Paste []string `json:"paste"` // commands whose output, pasted with the log, shows them
}

// Summary counts what the input held.
type Summary struct {
	Errors int `json:"errors"` // messages with a cause that is an error
	Notes  int `json:"notes"`  // messages that are notes only
}

const maxLineText = 1000

// scan reads the input line by line and calls found for every new message:
// a line where some entry matches for the first time, with every entry that
// matches that line. An entry is reported once, where it first appears.
func scan(s *site.Site, in io.Reader, o Options, found func(n int, line []byte, ms []search.LineMatch, rd *errvocab.Reading)) error {
	r := newLineReader(s, o.Lang, o.Paste)
	seen := map[string]bool{}
	composed := map[string]bool{} // layer and inner error of the messages no entry names, reported once each
	done := func(d *search.Doc) bool { return seen[d.ID] }
	long := func(n int, length int64) {
		if o.Warn != nil {
			fmt.Fprintf(o.Warn, "p2pkb: line %d is %.1f MB long: read in pieces of %d KiB that overlap by %d KiB; a message across two pieces longer than that would be missed\n",
				n, float64(length)/1e6, pieceBytes>>10, overlapBytes>>10)
		}
	}
	var read int64
	each := r.eachLineAhead
	if o.Follow {
		// Each message as soon as its line arrives, not once a batch of
		// lines has.
		each = func(in io.Reader, fn func(int, []byte) error, long func(int, int64)) error {
			return eachLine(in, fn, long)
		}
	}
	return each(in, func(n int, line []byte) error {
		if err := textCheck(n, line, read); err != nil {
			return err
		}
		read += int64(len(line)) + 1
		if o.Observe != nil {
			o.Observe(n, line)
		}
		ms := r.read(n, line, done)
		if len(ms) == 0 {
			// No entry names the line; a layer's shape may still say who
			// printed it and what failed inside.
			if !r.layer {
				return nil
			}
			rd, ok := errvocab.Read(string(line[:min(len(line), maxLineText)]))
			if !ok || rd.Error == nil {
				return nil
			}
			key := rd.Layer.ID + "\x00" + rd.Error.Family + "\x00" + rd.Error.Name
			if composed[key] {
				return nil
			}
			composed[key] = true
			found(n, line, nil, &rd)
			return nil
		}
		// A message is reported once, at its first line: a line whose
		// matches are all entries seen before (a log repeats itself, one
		// line per rank and step) adds nothing, and keeping it would grow
		// with the log.
		fresh := false
		for _, x := range ms {
			fresh = fresh || !seen[x.Doc.ID]
			seen[x.Doc.ID] = true
		}
		if !fresh {
			return nil
		}
		var rd *errvocab.Reading
		if r.layer {
			if x, ok := errvocab.Read(string(line[:min(len(line), maxLineText)])); ok {
				rd = &x
			}
		}
		if namesOnlyInner(s, ms, rd) {
			// Only entries of the error inside match a line of a layer
			// none names: answered from its parts, once per layer and error.
			key := rd.Layer.ID + "\x00" + rd.Error.Family + "\x00" + rd.Error.Name
			if composed[key] {
				return nil
			}
			composed[key] = true
			found(n, line, nil, rd)
			return nil
		}
		found(n, line, ms, rd)
		return nil
	}, long)
}

// ranked is a cause with what orders it.
type ranked struct {
	c       Cause
	rank    search.Candidate
	tier    int                 // 0: its conditions hold; 1: unknown, or no condition; 2: ruled out
	group   int                 // composed messages: partCause.group
	api     bool                // composed messages: partCause.api
	symptom search.SymptomCause // symptoms: what ranks the entry among a symptom's causes at its tier
	open    bool                // symptoms: it waits on a version the paste does not state (versionOpen)
	version bool                // symptoms: it holds by a version the paste states (byVersion)
}

// message judges the entries matched on one line as causes of its message;
// with no entry matched, rd (the line's layer and inner error) gives the
// causes of its parts.
func message(s *site.Site, n int, line []byte, ms []search.LineMatch, rd *errvocab.Reading, f rules.Facts, o Options) (Message, error) {
	text := string(line)
	if len(text) > maxLineText {
		text = strings.ToValidUTF8(text[:maxLineText], "") + "…"
	}
	msg := Message{Line: n, LineText: strings.TrimSpace(text), Severity: "note", judged: len(f) > 0, Layered: layered(rd)}
	var rs []ranked
	// An entry of the line's shape (a program's own check) makes no note an
	// error: beside an entry of the line itself, the line is what that says.
	onlyShape := !slices.ContainsFunc(ms, func(x search.LineMatch) bool { return !x.Doc.Shape })
	add := func(e *kb.Entry, match, via string, group int, api bool) error {
		c, conditional, err := cause(s, e, f, o)
		if err != nil {
			return err
		}
		c.Via = via
		tier := tierOf(c, conditional)
		if !e.IsNote() && (!e.Shape || onlyShape) {
			msg.Severity = "error"
		}
		rs = append(rs, ranked{c: c, rank: search.NewCandidate(e, match, tier), tier: tier, group: group, api: api})
		return nil
	}
	if len(ms) == 0 {
		msg.Composed, msg.Severity, msg.Match = true, "error", rd.Shape
		msg.Note = composedNote(o.Lang, msg.Layered)
		for _, p := range partCauses(s, o.Lang, rd) {
			if err := add(p.e, p.match, p.via, p.group, p.api); err != nil {
				return msg, err
			}
		}
		msg.Severity = "error"
		sortParts(rs)
	} else {
		msg.Match = ms[0].Text
		for _, x := range ms {
			if err := add(s.KB.ByID[x.Doc.ID], x.Text, "", 0, false); err != nil {
				return msg, err
			}
		}
		sort.SliceStable(rs, func(i, j int) bool { return search.Before(rs[i].rank, rs[j].rank) })
	}
	msg.conclude(s, rs, f, o)
	return msg, nil
}

// tierOf places a judged cause: 0 when conditions hold (conditional: it
// has any), 2 when ruled out, else 1.
func tierOf(c Cause, conditional bool) int {
	switch {
	case c.Verdict == rules.True.String() && conditional:
		return 0
	case c.Verdict == rules.False.String():
		return 2
	}
	return 1
}

// conclude gives m the causes rs, in their order, and its verdict: applies
// when the first holds; ruled out, with what to collect next, when every
// one is (or none is known); else what would tell them apart.
func (m *Message) conclude(s *site.Site, rs []ranked, f rules.Facts, o Options) {
	m.Causes = []Cause{}
	m.Verdict = "unknown"
	if len(rs) == 0 {
		m.Collect = collectNext(f, o.Lang)
		return
	}
	allOut := true
	m.wrapper, m.shape = true, true
	for _, r := range rs {
		c := r.c
		c.rank = r.tier
		m.Causes = append(m.Causes, c)
		allOut = allOut && r.tier == 2
		m.wrapper = m.wrapper && r.rank.Wrapper
		m.shape = m.shape && r.rank.Shape
	}
	switch {
	case rs[0].tier == 0:
		m.Verdict = "applies"
	case allOut:
		m.Verdict = "ruled_out"
		m.Collect = collectNext(f, o.Lang)
	default:
		m.TellApart = tellApart(s, m.Causes, f)
	}
}

// cause judges entry e against the facts; conditional says whether it has
// any condition to judge.
func cause(s *site.Site, e *kb.Entry, f rules.Facts, o Options) (Cause, bool, error) {
	var versions []string
	for _, v := range e.Versions {
		versions = append(versions, v.Version)
	}
	v, err := rules.Applies(versions, e.AppliesWhen, f)
	if err != nil {
		return Cause{}, false, fmt.Errorf("%s: %w", e.File, err)
	}
	conditional := strings.TrimSpace(e.AppliesWhen) != ""
	for _, ver := range versions {
		if c, _ := rules.Constraint(ver); c != nil {
			conditional = true
		}
	}
	view := site.View(e, o.Lang, s.KB)
	sev := "error"
	if e.IsNote() {
		sev = "note"
	}
	c := Cause{ID: e.ID, Code: e.ErrorCode, Signature: view.Signature, Severity: sev, Condition: e.AppliesWhen,
		Verdict: v.Truth.String(), Reasons: v.Reasons, RootCause: o.plain(view.RootCause.Text), Confidence: e.Confidence,
		Tier: e.VerificationTier, URL: link(o.BaseURL, site.EntryPath(o.Lang, e.ID)), Workarounds: []Marked{}, DeadEnds: []Marked{}}
	for _, wk := range view.Workarounds {
		c.Workarounds = append(c.Workarounds, mark(o.plain(wk.Text.Text), wk.SuccessRate, wk.Condition, f))
	}
	if len(f) > 0 {
		sort.SliceStable(c.Workarounds, func(i, j int) bool { return rank(c.Workarounds[i].Verdict) < rank(c.Workarounds[j].Verdict) })
	}
	for _, de := range view.DeadEnds {
		c.DeadEnds = append(c.DeadEnds, mark(deadEndText(de, o), de.FailRate, de.Condition, f))
	}
	return c, conditional, nil
}

// tellApart names the facts the causes' conditions read that are not known,
// those read by the most causes first, and where each can be found.
func tellApart(s *site.Site, causes []Cause, f rules.Facts) *TellApart {
	uses := map[string]int{}
	var order []string
	for _, c := range causes {
		if c.Verdict == rules.False.String() {
			continue
		}
		names, err := rules.FactsIn(c.Condition)
		if err != nil {
			continue
		}
		for _, n := range names {
			if f.Known(n) {
				continue
			}
			if uses[n] == 0 {
				order = append(order, n)
			}
			uses[n]++
		}
	}
	if len(order) == 0 {
		return nil
	}
	sort.SliceStable(order, func(i, j int) bool { return uses[order[i]] > uses[order[j]] })
	t := &TellApart{Facts: order, Run: "p2p-probe", Paste: []string{}}
	seen := map[string]bool{}
	for _, n := range order {
		t.Names = append(t.Names, rules.Display(n))
		if strings.HasPrefix(n, "p2p.test.") {
			t.Run = "p2p-probe --test"
		}
		if p := rules.PasteFor(n); p != "" && !seen[p] {
			seen[p] = true
			t.Paste = append(t.Paste, p)
		}
	}
	return t
}

// collectNext says what to gather when every known cause is ruled out.
func collectNext(f rules.Facts, lang string) []string {
	var out []string
	if len(f) > 0 {
		out = append(out, text(lang, "collect_same_machine"))
	}
	if !f.Known("p2p.test.ran") {
		out = append(out, text(lang, "collect_test"))
	}
	return append(out, text(lang, "collect_log"), text(lang, "collect_new"))
}

// unrecognized says what to paste or run next when nothing in the input was
// recognized: the lines that name the failing call, and the machine's facts.
func unrecognized(f rules.Facts, lang string) []string {
	out := []string{text(lang, "collect_log"), text(lang, "collect_whole")}
	if !f.Known("p2p.test.ran") {
		out = append(out, text(lang, "collect_test"))
	}
	return append(out, text(lang, "collect_new"))
}

// mergeFacts puts the machine's facts over those read from the input: a
// probe report describes the machine, a log only what it printed.
func mergeFacts(machine rules.Facts, o Options) rules.Facts {
	if o.PasteFacts == nil {
		return machine
	}
	pasted := o.PasteFacts()
	if len(pasted) == 0 {
		return machine
	}
	out := rules.Facts{}
	for k, v := range pasted {
		out[k] = v
	}
	for k, v := range machine {
		out[k] = v
	}
	return out
}

// diagnose reads the input and returns its messages, errors first, in the
// order they appear; with o.Follow it writes each one to w as it appears,
// judged by the facts known then.
func diagnose(w io.Writer, s *site.Site, in io.Reader, f rules.Facts, o Options, judge bool) ([]Message, Summary, error) {
	type found struct {
		n    int
		line []byte
		ms   []search.LineMatch
		rd   *errvocab.Reading
	}
	var all []found
	var sum Summary
	var werr error
	// The input's words, for the closest entries should nothing in it be recognized.
	words := newWordsQuery()
	if observe := o.Observe; observe != nil {
		o.Observe = func(n int, line []byte) { observe(n, line); words.add(n, line) }
	} else {
		o.Observe = words.add
	}
	err := scan(s, in, o, func(n int, line []byte, ms []search.LineMatch, rd *errvocab.Reading) {
		all = append(all, found{n, append([]byte(nil), line[:min(len(line), maxLineText+utf8.UTFMax)]...), ms, rd})
		if !o.Follow || werr != nil {
			return
		}
		msg, err := message(s, n, line, ms, rd, mergeFacts(f, o), o)
		if err != nil {
			werr = err
			return
		}
		count(&sum, msg)
		if o.JSON {
			werr = writeJSONLine(w, msg)
			return
		}
		werr = writeMessage(w, msg, o, judge)
	})
	if err != nil {
		return nil, sum, err
	}
	if werr != nil {
		return nil, sum, werr
	}
	facts := mergeFacts(f, o)
	var errs, notes []Message
	gpuOnly := false // every symptom that answers names a consumer GPU, and no error line has a cause
	// Whether every error line says only that something hung (hangFirst);
	// messages written as they came are left as written.
	hangs := o.Paste != nil && !o.Follow
	for _, x := range all {
		msg, err := message(s, x.n, x.line, x.ms, x.rd, facts, o)
		if err != nil {
			return nil, sum, err
		}
		if silent(msg) {
			continue
		}
		if msg.Severity == "note" {
			notes = append(notes, msg)
		} else {
			errs = append(errs, msg)
			hangs = hangs && x.ms != nil && paste.HangLine(string(x.line[:min(len(x.line), maxLineText)]))
		}
	}
	if hangs && len(errs) > 0 {
		if err := hangFirst(s, errs, o.Paste.Facts(), facts, o); err != nil {
			return nil, sum, err
		}
	}
	// A wrapper's message (PyTorch's "NCCL error in: ..., unhandled cuda
	// error") comes before the line that names the failure ("Last error:",
	// NCCL's WARN line) in a log, but says less: the messages that name a
	// failure come first. So does a line that only an entry of its shape
	// answers (a program's own argument check), after those an entry
	// names, as the search page ranks a generic match below a specific one.
	sort.SliceStable(errs, func(i, j int) bool { return says(errs[i]) > says(errs[j]) })
	if o.Paste != nil && (len(errs) == 0 || !o.Follow && allBare(errs)) {
		// No error line, or only lines composed from their parts that no
		// cause answers: what the input shows (symptoms.go), known once it
		// has ended, comes first, as the search page shows it.
		sym, err := symptoms(s, o.Paste.Facts(), facts, o, len(notes) > 0, pathShown(words, o.Paste.Facts()))
		if err != nil {
			return nil, sum, err
		}
		errs = append(sym, errs...)
		gpuOnly = !o.Follow && len(sym) > 0
		for _, m := range sym {
			gpuOnly = gpuOnly && m.symptom == "gpu.consumer"
		}
		for _, m := range sym {
			if !o.Follow {
				break
			}
			if o.JSON {
				err = writeJSONLine(w, m)
			} else {
				err = writeMessage(w, m, o, judge)
			}
			if err != nil {
				return nil, sum, err
			}
		}
	} else if o.Paste != nil && !o.Follow && storyBeside(errs, o.Paste.Facts()) {
		// A version said to work set against one said to fail names the
		// cause of the error lines too (paste.Beside): the entries it
		// calls for come first, as they do beside a hang or a slow run. On
		// the report sets, such stories beside a recognized line were a
		// regression between releases in each case the answer changed. So
		// does a riser said to carry a card: the link it makes is what the
		// lines about a lost or unreachable GPU come from.
		// A followed log has written its lines as they came, before the
		// story was known: it gets none. Lines the symptoms answered
		// above have the story among them already.
		sym, err := symptoms(s, o.Paste.Facts(), facts, o, len(notes) > 0, pathShown(words, o.Paste.Facts()))
		if err != nil {
			return nil, sum, err
		}
		var story []Message
		for _, m := range sym {
			if paste.Beside(m.symptom) {
				story = append(story, m)
			}
		}
		errs = append(story, errs...)
	}
	sum = Summary{Errors: len(errs), Notes: len(notes)}
	if len(errs)+len(notes) == 0 {
		// Nothing recognized: the entries closest to its words, in a
		// message of their own that the summary does not count.
		m, err := byWords(s, words, facts, o, nil)
		if err != nil || m == nil {
			return nil, sum, err
		}
		if o.Follow {
			if err := writeFollow(w, *m, o, judge); err != nil {
				return nil, sum, err
			}
		}
		return []Message{*m}, sum, nil
	}
	msgs := append(errs, notes...)
	// A GeForce card named says what the machine is, not what went wrong:
	// with a description that speaks of no path between GPUs
	// (search.LinkWords), the entries closest to its words come first
	// (memory, a launch, a model's split are what such reports were
	// about), the card's causes after them. On the report sets, of the 45
	// such pastes with close entries, the card's first cause was of the
	// right family in 18, the closest entry in 23.
	if gpuOnly && !search.LinkWords(words.b.String()) {
		m, err := byWords(s, words, facts, o, nil)
		if err != nil {
			return nil, sum, err
		}
		if m != nil {
			m.Beside, m.Before = true, true
			return append([]Message{*m}, msgs...), sum, nil
		}
	}
	// A description told beside the recognized lines (a person's story of
	// what they ran and saw) is also read for its words: the recognized
	// causes first, then the entries closest to the story that are not
	// among them, in a message of their own that the summary does not count.
	// So is any input whose recognized lines have no cause at all (an error
	// no entry names, inside a layer none names either) when other lines
	// hold words: they are all that is left to go by. An error line alone
	// is answered by what it is made of, and a program's own check alone
	// by its shape's entry.
	if words.long() || !anyCause(msgs) && words.anyLine(func(l string) bool { return !errorLine(l) && !shapeLine(msgs, l) }) {
		shown := map[string]bool{}
		for _, m := range msgs {
			for _, c := range m.Causes {
				shown[c.ID] = true
			}
		}
		m, err := byWords(s, words, facts, o, shown)
		if err != nil {
			return nil, sum, err
		}
		if m != nil {
			m.Beside = true
			if o.Follow {
				if err := writeFollow(w, *m, o, judge); err != nil {
					return nil, sum, err
				}
			}
			msgs = append(msgs, *m)
		}
	}
	return msgs, sum, nil
}

// says ranks what a message tells of its line: 2 an entry names the
// failure, 1 only an entry of its shape answers it, 0 it wraps an error it
// does not name.
func says(m Message) int {
	switch {
	case m.wrapper:
		return 0
	case m.shape:
		return 1
	}
	return 2
}

// writeFollow writes m as explain --follow writes each message: a JSON
// line, or text.
func writeFollow(w io.Writer, m Message, o Options, judge bool) error {
	if o.JSON {
		return writeJSONLine(w, m)
	}
	return writeMessage(w, m, o, judge)
}

// silent says whether m tells nothing: a line a healthy run prints too (a
// driver's version in nvidia-smi's header) whose every cause the facts rule
// out, such as a driver branch's fault on GeForce cards under a data-centre
// GPU. Shown, it would read as an error no entry knows. A message written
// as it came (Follow) stays: the facts that silence it may come later.
func silent(m Message) bool {
	return m.Severity == "note" && m.Verdict == "ruled_out"
}

func count(sum *Summary, m Message) {
	if m.Severity == "note" {
		sum.Notes++
	} else {
		sum.Errors++
	}
}

// errorLine says whether a layer printed line with an error inside it
// (errvocab.Read): a recognized line, whose words are the error's.
func errorLine(line string) bool {
	r, ok := errvocab.Read(line[:min(len(line), maxLineText)])
	return ok && r.Error != nil
}

// shapeLine says whether line is that of a message of msgs that only an
// entry of its shape answers (its text is the line's first maxLineText
// bytes, marked as cut).
func shapeLine(msgs []Message, line string) bool {
	for _, m := range msgs {
		if t := strings.TrimSuffix(m.LineText, "…"); m.shape && t != "" && strings.HasPrefix(strings.TrimSpace(line), t) {
			return true
		}
	}
	return false
}

// anyCause says whether a message of msgs has a cause other than an entry
// of its shape (a program's own check), which says what kind of line it is
// but not what went wrong.
func anyCause(msgs []Message) bool {
	for _, m := range msgs {
		if len(m.Causes) > 0 && !m.shape {
			return true
		}
	}
	return false
}

// allBare says whether every message of errs is composed from its parts
// (an error no entry names) and has no cause, or is answered only by an
// entry of its shape (a program's own check): the input's symptoms, a
// version said to fail beside it, say more than the bare error.
func allBare(errs []Message) bool {
	for _, m := range errs {
		if (!m.Composed || len(m.Causes) > 0) && !m.shape {
			return false
		}
	}
	return len(errs) > 0
}

// storyBeside says whether the paste's facts, beside error lines that
// entries name, tell what those lines come from (paste.Beside: a version
// said to fail, a riser): the symptoms did not answer them (only lines
// composed from their parts that no cause answers leave them to), and no
// composed line has causes of its own.
func storyBeside(errs []Message, pasted []paste.Fact) bool {
	named := false
	for _, m := range errs {
		if m.Composed && len(m.Causes) > 0 {
			return false
		}
		named = named || !m.Composed && !m.shape
	}
	if !named {
		return false
	}
	return slices.ContainsFunc(pasted, func(f paste.Fact) bool { return paste.Beside(f.Name) && f.Value == "true" })
}
