package site

import (
	"sort"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// EntryView is an entry as one language's page shows it: each text in that
// language where the KB has it, else in English with Fallback set so the page
// can say so.
type EntryView struct {
	*kb.Entry
	Signature         string // in the page's language when the software prints it so, else the original
	SignatureOriginal string // the message as printed, when Signature is a translation
	RootCause         Text
	Workarounds       []WorkaroundView // by success rate, highest first
	DeadEnds          []DeadEndView
	Related           []Related
	Versions          []kb.Version
	HasVersionDetails bool // a versions column besides version and status has a value
}

// Text is a KB text in the page's language, or in English as a fallback.
type Text struct {
	Text     string // inline Markdown
	Fallback bool   // the page's language lacks it; Text is English
}

// WorkaroundView is a workaround in one language.
type WorkaroundView struct {
	kb.Workaround
	Index int  // position in the entry's workarounds, for anchors and applicability
	Text  Text // the action
	How   string
}

// DeadEndView is a dead end in one language.
type DeadEndView struct {
	kb.DeadEnd
	Index    int
	Action   Text
	WhyFails Text
}

// Related is an entry linked through the transition graph.
type Related struct {
	Relation string // leads_to, preceded_by, frequently_confused_with
	Entry    *kb.Entry
}

// Signature is the entry's signature as a page in lang shows it, without
// localizing the rest of the entry (lists of thousands of entries need only this).
func Signature(e *kb.Entry, lang string) string {
	if lang == "zh" && e.SignatureZH != "" {
		return e.SignatureZH
	}
	return e.Signature
}

// View localizes an entry for the language code. Pages make it when they
// are written and drop it after: the views of every page of a large KB,
// held from the start of a build, were a sixth of its live memory.
func (p *Page) View() *EntryView { return View(p.Entry, p.Lang.Code, p.Site.KB) }

// localSignature is an entry's signature on its page in lang, and the
// message as printed when that is a translation.
func localSignature(e *kb.Entry, lang string) (sig, original string) {
	// Software that prints English has signature_zh equal to signature: no translation to show.
	if lang == "zh" && e.SignatureZH != "" && e.SignatureZH != e.Signature {
		return e.SignatureZH, e.Signature
	}
	return e.Signature, ""
}

// View localizes an entry for the language code.
func View(e *kb.Entry, lang string, k *kb.KB) *EntryView {
	v := &EntryView{Entry: e, Versions: e.Versions}
	zh := lang == "zh"
	v.RootCause = pick(zh, e.RootCause, e.RootCauseZH)
	v.Signature, v.SignatureOriginal = localSignature(e, lang)
	for i, w := range e.Workarounds {
		zhText := ""
		if i < len(e.WorkaroundsZH) {
			zhText = e.WorkaroundsZH[i]
		}
		wv := WorkaroundView{Workaround: w, Index: i, Text: pick(zh, w.Action, zhText)}
		// how repeats action in most entries; show it only when it adds something.
		if w.How != "" && w.How != w.Action && !zh {
			wv.How = w.How
		}
		v.Workarounds = append(v.Workarounds, wv)
	}
	sort.SliceStable(v.Workarounds, func(i, j int) bool {
		return v.Workarounds[i].SuccessRate > v.Workarounds[j].SuccessRate
	})
	for i, d := range e.DeadEnds {
		v.DeadEnds = append(v.DeadEnds, DeadEndView{DeadEnd: d, Index: i,
			Action: pick(zh, d.Action, d.ActionZH), WhyFails: pick(zh, d.WhyFails, d.WhyFailsZH)})
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
