package kb

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// AuditRow is what one entry's claims rest on.
type AuditRow struct {
	ID       string
	Tier     string // verification_tier
	Source   string // signature_source.kind, or "none"
	Verbatim string // what the signature was checked against: output, line, excerpt, code table; or unchecked
	Code     string // printed, or id for a plain id
	Counted  int    // rates that rest on a count of reports
	Estimate int    // rates labelled as an editor's estimate: guesses, marked
	Bare     int    // rates above 0 with no basis: shown as facts with nothing behind them
}

// AuditReport is the audit of a KB: a row per entry and the totals.
type AuditReport struct {
	Rows  []AuditRow
	Total AuditRow // counts summed; Verbatim and Code unused
	// Entries by what their signature was checked against, and by code.
	Checked, Unchecked, Printed, IDs int
}

// Audit says, for every entry, what its signature, code and rates rest on.
// A KB that loaded has no bare rate and no invented code (lint refuses
// them); the audit counts them anyway, so that it states what holds.
func Audit(k *KB) *AuditReport {
	a := &AuditReport{}
	for _, e := range k.Entries {
		r := AuditRow{ID: e.ID, Tier: e.VerificationTier, Source: "none", Verbatim: "unchecked", Code: "id"}
		if s := e.SignatureSource; s != nil {
			r.Source = s.Kind
			switch {
			case s.Kind == "reproduction" && e.Reproducer != nil:
				r.Verbatim = "output"
			case s.Kind == "source" && s.Line != "":
				r.Verbatim = "line"
			case (s.Kind == "report" || s.Kind == "documentation") && s.Excerpt != "":
				r.Verbatim = "excerpt"
			case (s.Kind == "report" || s.Kind == "documentation") && codeTableSignature(e.Signature):
				r.Verbatim = "code table"
			}
		}
		if IsPrintedCode(e.ErrorCode) {
			r.Code = "printed"
			a.Printed++
		} else {
			if !stableID.MatchString(e.ErrorCode) {
				r.Code = "invented"
			}
			a.IDs++
		}
		for _, rc := range e.rates() {
			switch {
			case rc.basis.Counted():
				r.Counted++
			case rc.basis != nil && rc.basis.Estimate:
				r.Estimate++
			case rc.rate > 0:
				r.Bare++
			}
		}
		if r.Verbatim == "unchecked" {
			a.Unchecked++
		} else {
			a.Checked++
		}
		a.Total.Counted += r.Counted
		a.Total.Estimate += r.Estimate
		a.Total.Bare += r.Bare
		a.Rows = append(a.Rows, r)
	}
	return a
}

// Invented counts the entries whose error_code is neither a printed code
// nor a plain id.
func (a *AuditReport) Invented() int {
	n := 0
	for _, r := range a.Rows {
		if r.Code == "invented" {
			n++
		}
	}
	return n
}

// Write prints the audit as a table and its totals.
func (a *AuditReport) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "entry\ttier\tsource\tverbatim check\tcode\trates counted\trates estimated (guesses, marked)\trates without basis")
	for _, r := range a.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\n", r.ID, r.Tier, r.Source, r.Verbatim, r.Code, r.Counted, r.Estimate, r.Bare)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d entries: signature checked against its source in %d, unchecked in %d; "+
		"%d printed codes, %d plain ids, %d invented codes; rates: %d counted, %d marked as estimates, %d without basis\n",
		len(a.Rows), a.Checked, a.Unchecked, a.Printed, a.IDs, a.Invented(), a.Total.Counted, a.Total.Estimate, a.Total.Bare)
	return err
}
