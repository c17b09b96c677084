package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/errvocab"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Layered is what a message's line says of itself: who printed it and the
// error it carries (errvocab.Read).
type Layered struct {
	Layer errvocab.Layer  `json:"layer"`
	Where string          `json:"where,omitempty"`       // the source file and line, or the call, that failed
	Inner *errvocab.Error `json:"inner_error,omitempty"` // what failed inside
}

func layered(rd *errvocab.Reading) *Layered {
	if rd == nil {
		return nil
	}
	return &Layered{Layer: rd.Layer, Where: rd.Where, Inner: rd.Error}
}

// namesOnlyInner tells whether the entries matched on a line name only the
// error inside it, and not its layer: every one is generic (search.Generic)
// and the layer is more than a plain "CUDA error:" wrapper.
func namesOnlyInner(s *site.Site, ms []search.LineMatch, rd *errvocab.Reading) bool {
	if rd == nil || rd.Error == nil || rd.Layer.Plain() {
		return false
	}
	for _, x := range ms {
		if !search.Generic(s.KB.ByID[x.Doc.ID]) {
			return false
		}
	}
	return true
}

// partCause is an entry that explains a part of a line no entry names.
type partCause struct {
	e     *kb.Entry
	match string // what its pattern matched of the inner error's message or name; "" when found by its error code
	via   string // layer: an entry of the layer about this error or the one it returns; inner_error: an entry of the error
	group int    // 0 the layer's, 1 the error's own (generic), 2 the same error met in another layer, 3 the layer's wrapper of it
	api   bool   // the entry names the kind of call that failed on the line (errvocab.APIKind of its where)
}

// partCauses lists the causes of a line that no entry names, from its
// parts: the entries of its layer about its inner error, then those of the
// inner error in general, then those of the same error met in other layers,
// and last those about the error the layer returns for it (NCCL's unhandled
// cuda error), which say only that some call failed.
func partCauses(s *site.Site, lang string, rd *errvocab.Reading) []partCause {
	if rd == nil || rd.Error == nil {
		return nil
	}
	names := map[string]bool{}
	for _, n := range errvocab.Same(*rd.Error) {
		names[n] = true
	}
	m := newLineReader(s, lang, nil).m
	find := func(texts []string) map[string]string {
		out := map[string]string{}
		for _, t := range texts {
			for _, x := range m.Match([]byte(t), nil) {
				if _, ok := out[x.Doc.ID]; !ok {
					out[x.Doc.ID] = x.Text
				}
			}
		}
		return out
	}
	matches := find(append([]string{rd.Error.Text}, errvocab.Same(*rd.Error)...))
	// The layer's entries about the error it returns for this one: those
	// whose pattern matches that error (NCCL's unhandled cuda error).
	var wraps map[string]string
	if r, ok := errvocab.ByName(rd.Layer.Returns(rd.Error.Family)); ok {
		wraps = find([]string{r.Name, r.Text})
	}
	kind := errvocab.APIKind(rd.Where)
	var out []partCause
	for _, e := range s.KB.Entries {
		named := names[e.ErrorCode]
		for _, a := range e.Aliases {
			named = named || names[a]
		}
		match, matched := matches[e.ID]
		ownLayer := e.Domain == rd.Layer.Domain || strings.HasPrefix(e.ID, rd.Layer.Domain+"/")
		api := kind != "" && slices.Contains(search.APIs(e), kind)
		switch {
		case ownLayer && (named || matched):
			out = append(out, partCause{e, match, "layer", 0, api})
		case wraps[e.ID] != "":
			out = append(out, partCause{e, wraps[e.ID], "layer", 3, api})
		case matched && search.Generic(e) || named && search.Generic(e):
			out = append(out, partCause{e, match, "inner_error", 1, api})
		case matched || named:
			out = append(out, partCause{e, match, "inner_error", 2, api})
		}
	}
	return out
}

// composedNote says what a composed message is made of, in lang.
func composedNote(lang string, l *Layered) string {
	where := ""
	if l.Where != "" {
		where = " (" + l.Where + ")"
	}
	return fmt.Sprintf(text(lang, "composed"), l.Layer.Name+where, innerName(l.Inner))
}

// innerName is an error as a person reads it: cudaErrorIllegalAddress (700, 'an illegal memory access was encountered').
func innerName(e *errvocab.Error) string {
	return fmt.Sprintf("%s (%d, '%s')", e.Name, e.Code, e.Text)
}

// sortParts orders composed causes: by the facts first, as every cause is
// (a cause that holds, then one not known, then one ruled out: the entry of
// an invalid device ordinal that holds where each task sees one GPU comes
// before the generic one); then the layer's own entries; then those that
// name the kind of call that failed (the IPC entries of an invalid argument
// from cuIpcOpenMemHandle, before the generic entry of invalid argument,
// which names no call); then by group, then as search.Before.
func sortParts(rs []ranked) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].tier != rs[j].tier {
			return rs[i].tier < rs[j].tier
		}
		if own := rs[i].group == 0; own != (rs[j].group == 0) {
			return own
		}
		if rs[i].api != rs[j].api {
			return rs[i].api
		}
		if rs[i].group != rs[j].group {
			return rs[i].group < rs[j].group
		}
		return search.Before(rs[i].rank, rs[j].rank)
	})
}

func init() {
	texts["en"]["composed"] = "No entry names this message. The layer is %s; the inner error is %s. The causes below are those of its parts, not of this message."
	texts["zh"]["composed"] = "没有条目描述这条信息。打印它的层是 %s；内部错误是 %s。下面是它各部分的原因，而不是这条信息本身的原因。"
	texts["en"]["layered"] = "Printed by %s; the inner error is %s."
	texts["zh"]["layered"] = "由 %s 打印；内部错误是 %s。"
	texts["en"]["via_layer"] = "an entry of the layer"
	texts["zh"]["via_layer"] = "该层的条目"
	texts["en"]["via_inner_error"] = "an entry of the inner error"
	texts["zh"]["via_inner_error"] = "内部错误的条目"
	texts["en"]["collect_whole"] = "Paste the lines around the failure, not only the last one: the line that names the failing call (an NCCL WARN line, a CUDA error with its file and line, a Last error: line) is what can be explained."
	texts["zh"]["collect_whole"] = "请粘贴失败前后的多行，而不只是最后一行：能被解释的是指出失败调用的那一行（NCCL WARN 行、带文件和行号的 CUDA 错误、Last error: 之后的行）。"
	texts["en"]["no_part_causes"] = "No entry covers this error yet."
	texts["zh"]["no_part_causes"] = "知识库还没有这个错误的条目。"
}
