package kb

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The checks in this file hold an entry to what it can show: a signature
// copied from its source, a code the software prints, a rate with what it
// rests on. They are the KB's editorial rules, stated once here for lint,
// builds and `p2pkb audit` alike.

//go:embed codes.txt
var codesFile string

// PrintedCode is an error code some software prints or returns.
type PrintedCode struct {
	Family  string // cuda-runtime, cuda-driver, nccl, errno, nvml, ucx, xid
	Name    string // cudaErrorPeerAccessUnsupported
	Number  int    // its value where the family numbers its codes, else 0
	Message string // what the software prints for it, where known
}

var codes = sync.OnceValue(func() map[string]PrintedCode {
	m := map[string]PrintedCode{}
	for _, line := range strings.Split(codesFile, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		c := PrintedCode{Family: f[0], Name: f[1]}
		if len(f) >= 4 {
			c.Number, _ = strconv.Atoi(f[2])
			c.Message = f[3]
		}
		m[c.Name] = c
	}
	return m
})

var xidCode = regexp.MustCompile(`^Xid[0-9]+$`)

// LookupCode returns the printed code named code: a CUDA runtime or driver
// error, an NCCL result, an errno, an NVML or UCX status, or an Xid.
func LookupCode(code string) (PrintedCode, bool) {
	if c, ok := codes()[code]; ok {
		return c, true
	}
	if xidCode.MatchString(code) {
		n, _ := strconv.Atoi(code[3:])
		return PrintedCode{Family: "xid", Name: code, Number: n}, true
	}
	return PrintedCode{}, false
}

// IsPrintedCode reports whether an entry's error_code is a code the
// software prints, rather than a plain id of the entry.
func IsPrintedCode(code string) bool {
	_, ok := LookupCode(code)
	return ok
}

// codeTableSignature reports whether sig is "name: string" of an error
// whose name and string codes.txt holds as CUDA returns them (read with
// cudaGetErrorName and cudaGetErrorString).
func codeTableSignature(sig string) bool {
	name, msg, ok := strings.Cut(sig, ": ")
	c, known := LookupCode(name)
	return ok && known && c.Message != "" && c.Message == msg
}

// stableID is the form of an error_code that no software prints: lowercase
// words joined by hyphens, which no API name looks like.
var stableID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// rateCheck is one rate of an entry with what it rests on.
type rateCheck struct {
	tokens []string // the rate's field
	field  string   // the basis's field name
	rate   float64
	basis  *RateBasis
}

// rates lists the entry's rates: fix_success_rate, each workaround's and
// each dead end's.
func (e *Entry) rates() []rateCheck {
	out := []rateCheck{{[]string{"fix_success_rate"}, "fix_success_rate_basis", e.FixSuccessRate, e.FixSuccessBasis}}
	for i, w := range e.Workarounds {
		out = append(out, rateCheck{[]string{"workarounds", strconv.Itoa(i), "success_rate"}, "success_rate_basis", w.SuccessRate, w.SuccessBasis})
	}
	for i, d := range e.DeadEnds {
		out = append(out, rateCheck{[]string{"dead_ends", strconv.Itoa(i), "fail_rate"}, "fail_rate_basis", d.FailRate, d.FailBasis})
	}
	return out
}

// checkTruth applies the editorial rules to one entry.
func (l *loader) checkTruth(p string, data []byte, e *Entry) {
	fail := func(tokens []string, field, msg string) {
		pr := l.problem(p, data, tokens, msg)
		if field != "" {
			pr.Field = field
		}
		l.problems = append(l.problems, pr)
	}

	// A code is what the software prints, or a plain id that cannot pass for one.
	// (A code that cannot name a folder is refused once, by the loader.)
	if segmentProblem(e.ErrorCode) == "" && !IsPrintedCode(e.ErrorCode) && !stableID.MatchString(e.ErrorCode) {
		fail([]string{"error_code"}, "", fmt.Sprintf("%q is no code the software prints (internal/kb/codes.txt lists them): give one, or a plain id such as %q, keeping %q in former_codes",
			e.ErrorCode, strings.ReplaceAll(e.ID, "/", "-"), e.ErrorCode))
	}
	for i, c := range e.FormerCodes {
		if c == e.ErrorCode {
			fail([]string{"former_codes", strconv.Itoa(i)}, "", "is the entry's error_code: a former code is one it no longer has")
		}
	}

	// Every rate shown says what it rests on.
	for _, r := range e.rates() {
		basisTokens := append(append([]string{}, r.tokens[:len(r.tokens)-1]...), r.field)
		b := r.basis
		switch {
		case b == nil && r.rate > 0:
			fail(r.tokens, "", fmt.Sprintf("a rate needs %s: {\"reports\": N, \"of\": M, \"sources\": [the threads counted]} or {\"estimate\": true} for an editor's estimate", r.field))
		case b == nil:
		case b.Estimate && (b.Of > 0 || b.Reports > 0):
			fail(basisTokens, "", "gives both estimate and a count of reports: a rate is one or the other")
		case b.Estimate:
		case b.Of == 0:
			fail(basisTokens, "", "says neither estimate: true nor reports and of")
		case b.Reports > b.Of:
			fail(basisTokens, "", fmt.Sprintf("reports %d is more than of %d", b.Reports, b.Of))
		case len(b.Sources) == 0:
			fail(basisTokens, "", "counts reports but lists no sources: link the threads counted")
		case math.Abs(r.rate-float64(b.Reports)/float64(b.Of)) > 0.005:
			fail(r.tokens, "", fmt.Sprintf("is %v but the basis counts %d of %d (%.2f): the rate is the count", r.rate, b.Reports, b.Of, float64(b.Reports)/float64(b.Of)))
		}
	}
	for i, w := range e.Workarounds {
		if w.How != "" && strings.TrimSpace(w.How) == strings.TrimSpace(w.Action) {
			fail([]string{"workarounds", strconv.Itoa(i), "how"}, "", "repeats action: how holds the steps (commands) beyond it, or is left out")
		}
	}

	// signature_zh is a translation for readers, never a second signature.
	if zh := e.SignatureZH; zh != "" {
		switch {
		case zh == e.Signature:
			fail([]string{"signature_zh"}, "", "copies signature: signature_zh is a Chinese translation for readers and search, or is left out")
		case !hasHan(zh):
			fail([]string{"signature_zh"}, "", "holds no Chinese: signature_zh is a Chinese translation for readers and search, or is left out")
		}
	}
	for i, f := range e.FormerSignatures {
		if f.Signature == e.Signature {
			fail([]string{"former_signatures", strconv.Itoa(i), "signature"}, "", "is the entry's signature: a former signature is text the entry no longer gives")
		}
	}

	// The signature is copied from what its source stores.
	s := e.SignatureSource
	if s == nil || s.Kind != "reproduction" && s.URL == "" {
		return // reported where the kind is checked: a line or excerpt is copied from the url
	}
	switch s.Kind {
	case "source":
		if s.Line == "" {
			fail([]string{"signature_source"}, "signature_source.line", "missing: copy the statement that prints the message from the source at url, format string included, so that lint can check the signature against it")
		} else if msg := InstanceOf(e.Signature, s.Line); msg != "" {
			fail([]string{"signature"}, "", "is not an instance of signature_source.line: "+msg)
		}
	case "report", "documentation":
		if s.Excerpt == "" && codeTableSignature(e.Signature) {
			break // checked against CUDA's own table of names and strings
		}
		if s.Excerpt == "" {
			fail([]string{"signature_source"}, "signature_source.excerpt", "missing: copy the text at url the signature was copied from, as it stands there, so that lint can check the signature against it")
		} else if msg := VerbatimIn(e.Signature, s.Excerpt); msg != "" {
			fail([]string{"signature"}, "", "does not appear in signature_source.excerpt: "+msg)
		}
	}
}
