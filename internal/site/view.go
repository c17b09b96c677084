package site

import (
	"cmp"
	"slices"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// EntryView is an entry as one language's page shows it: each text in that
// language where the KB has it, else in English with Fallback set so the page
// can say so.
type EntryView struct {
	*kb.Entry
	Signature         string // the message as the software prints it, on every page
	Translation       string // signature_zh on a Chinese page: a translation for readers, labelled so
	CodePrinted       bool   // ErrorCode is a code the software prints, not a plain id
	FormerSignatures  []FormerSignature
	FixRate           *Rate // fix_success_rate with its basis; nil when not shown
	RootCause         Text
	Workarounds       []WorkaroundView // by success rate, highest first
	DeadEnds          []DeadEndView
	Related           []Related
	Versions          []kb.Version // behavior changes in the page's language
	HasVersionDetails bool         // a versions column besides version and status has a value
}

// Text is a KB text in the page's language, or in English as a fallback.
type Text struct {
	Text     string // inline Markdown
	Fallback bool   // the page's language lacks it; Text is English
}

// WorkaroundView is a workaround in one language.
type WorkaroundView struct {
	kb.Workaround
	Index   int  // position in the entry's workarounds, for anchors and applicability
	Text    Text // the action
	How     string
	Rate    *Rate    // the success rate with its basis; nil when not shown
	Sources []string // the workaround's sources, then the threads its rate counts
}

// DeadEndView is a dead end in one language.
type DeadEndView struct {
	kb.DeadEnd
	Index    int
	Action   Text
	WhyFails Text
	Rate     *Rate    // the fail rate with its basis; nil when not shown
	Sources  []string // the dead end's sources, then the threads its rate counts
}

// Rate is a rate as a page shows it: with the count of reports it rests
// on, or labelled as an editor's estimate. A rate with no basis is not shown.
type Rate struct {
	Value   float64 // in [0,1]
	Counted bool    // Reports of Of reporters; else an editor's estimate
	Reports int
	Of      int
}

// FormerSignature is text an earlier version of the entry gave as its
// signature, with why it was corrected in the page's language.
type FormerSignature struct {
	Signature string
	Note      Text
}

// rateOf is the rate v as a page shows it, or nil.
func rateOf(v float64, b *kb.RateBasis) *Rate {
	switch {
	case b.Counted():
		return &Rate{Value: v, Counted: true, Reports: b.Reports, Of: b.Of}
	case b != nil && b.Estimate && v > 0:
		return &Rate{Value: v}
	}
	return nil
}

// withBasis is sources followed by those of b not among them.
func withBasis(sources []string, b *kb.RateBasis) []string {
	if b == nil || len(b.Sources) == 0 {
		return sources
	}
	out := append([]string(nil), sources...)
	for _, u := range b.Sources {
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// Related is an entry linked through the transition graph.
type Related struct {
	Relation string // leads_to, preceded_by, frequently_confused_with
	Entry    *kb.Entry
}

// Signature is the entry's signature as a page in lang shows it, without
// localizing the rest of the entry (lists of thousands of entries need only
// this): the message as the software prints it, in every language.
func Signature(e *kb.Entry, lang string) string { return e.Signature }

// View localizes an entry for the language code. Pages make it when they
// are written and drop it after: the views of every page of a large KB,
// held from the start of a build, were a sixth of its live memory.
func (p *Page) View() *EntryView { return View(p.Entry, p.Lang.Code, p.Site.KB) }

// localSignature is an entry's signature on its page in lang, and the
// translation shown beside it, if any.
func localSignature(e *kb.Entry, lang string) (sig, translation string) {
	if lang == "zh" && e.SignatureZH != "" && e.SignatureZH != e.Signature {
		return e.Signature, e.SignatureZH
	}
	return e.Signature, ""
}

// View localizes an entry for the language code.
func View(e *kb.Entry, lang string, k *kb.KB) *EntryView {
	v := &EntryView{Entry: e, Versions: e.Versions}
	zh := lang == "zh"
	v.RootCause = pick(zh, e.RootCause, e.RootCauseZH)
	v.Signature, v.Translation = localSignature(e, lang)
	v.CodePrinted = kb.IsPrintedCode(e.ErrorCode)
	v.FixRate = rateOf(e.FixSuccessRate, e.FixSuccessBasis)
	for _, f := range e.FormerSignatures {
		v.FormerSignatures = append(v.FormerSignatures, FormerSignature{Signature: f.Signature, Note: pick(zh, f.Note, f.NoteZH)})
	}
	// Made for every entry page and search document: sized once, sorted
	// without reflection.
	if len(e.Workarounds) > 0 {
		v.Workarounds = make([]WorkaroundView, 0, len(e.Workarounds))
	}
	if len(e.DeadEnds) > 0 {
		v.DeadEnds = make([]DeadEndView, 0, len(e.DeadEnds))
	}
	for i, w := range e.Workarounds {
		zhText := ""
		if i < len(e.WorkaroundsZH) {
			zhText = e.WorkaroundsZH[i]
		}
		wv := WorkaroundView{Workaround: w, Index: i, Text: pick(zh, w.Action, zhText),
			Rate: rateOf(w.SuccessRate, w.SuccessBasis), Sources: withBasis(w.Sources, w.SuccessBasis)}
		// how repeats action in most entries; show it only when it adds something.
		if w.How != "" && w.How != w.Action && !zh {
			wv.How = w.How
		}
		v.Workarounds = append(v.Workarounds, wv)
	}
	slices.SortStableFunc(v.Workarounds, func(a, b WorkaroundView) int {
		return cmp.Compare(b.SuccessRate, a.SuccessRate)
	})
	for i, d := range e.DeadEnds {
		v.DeadEnds = append(v.DeadEnds, DeadEndView{DeadEnd: d, Index: i,
			Action: pick(zh, d.Action, d.ActionZH), WhyFails: pick(zh, d.WhyFails, d.WhyFailsZH),
			Rate: rateOf(d.FailRate, d.FailBasis), Sources: withBasis(d.Sources, d.FailBasis)})
	}
	for _, r := range []struct {
		rel string
		ids []string
	}{
		{"leads_to", e.TransitionGraph.LeadsTo},
		{"preceded_by", e.TransitionGraph.PrecededBy},
		{"frequently_confused_with", e.TransitionGraph.FrequentlyConfusedWith},
	} {
		for _, id := range r.ids {
			if t := k.ByID[id]; t != nil {
				v.Related = append(v.Related, Related{Relation: r.rel, Entry: t})
			}
		}
	}
	if zh {
		v.Versions = make([]kb.Version, len(e.Versions))
		for i, ver := range e.Versions {
			if ver.BehaviorChangeZH != "" {
				ver.BehaviorChange = ver.BehaviorChangeZH
			}
			v.Versions[i] = ver
		}
	}
	for _, ver := range e.Versions {
		if ver.Introduced != "" || ver.Deprecated != "" || ver.Removed != "" || ver.BehaviorChange != "" {
			v.HasVersionDetails = true
		}
	}
	return v
}

func pick(zh bool, en, zhText string) Text {
	if !zh {
		return Text{Text: en}
	}
	if zhText == "" || !hasHan(zhText) && en != "" {
		return Text{Text: en, Fallback: en != ""}
	}
	return Text{Text: zhText}
}

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF {
			return true
		}
	}
	return false
}
