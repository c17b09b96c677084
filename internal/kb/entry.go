// Package kb loads the knowledge base: one JSON file per error entry, checked
// against kb/schema.json and against the rules a schema cannot say (unique ids,
// regexes that run in Go and JavaScript alike, links between entries). It
// turns files into plain Go values and precise error messages; it knows
// nothing of pages, languages or search.
package kb

import "regexp/syntax"

// Entry is one knowledge-base record: an error as a program prints it, why it
// happens, what fails and what works. The JSON names are the file format
// (kb/schema.json); a field a file leaves null reads as the empty value.
type Entry struct {
	ID                 string            `json:"id"`                               // domain/slug, mirrors the file path
	Signature          string            `json:"signature"`                        // the message exactly as printed
	SignatureZH        string            `json:"signature_zh"`                     // a Chinese translation for readers and search, or ""
	FormerSignatures   []FormerSignature `json:"former_signatures,omitempty"`      // text the entry gave before a correction
	Regex              string            `json:"regex"`                            // RE2 and JavaScript pattern matching Signature
	Severity           string            `json:"severity,omitempty"`               // error or note; "" reads as error
	Shape              bool              `json:"shape,omitempty"`                  // Regex matches a shape of message (any program's own argument check), not one message
	ProgramSide        bool              `json:"program_side,omitempty"`           // the usual cause is the program, its launch or its configuration, not the GPUs or the path between them
	SignatureSource    *SignatureSource  `json:"signature_source,omitempty"`       // where Signature was copied from
	Domain             string            `json:"domain"`                           // cuda, nccl, tensorflow, ...
	Category           string            `json:"category"`                         // runtime_error, system_error, ...
	Subcategory        string            `json:"subcategory"`                      // optional finer grouping
	RootCause          string            `json:"root_cause"`                       // inline Markdown
	RootCauseType      string            `json:"root_cause_type"`                  // generic, hardware, driver, ...
	RootCauseZH        string            `json:"root_cause_zh"`                    // inline Markdown
	Versions           []Version         `json:"versions"`                         // components and versions it is seen with
	OSSpecific         map[string]string `json:"os_specific"`                      // OS name -> what differs there
	DeadEnds           []DeadEnd         `json:"dead_ends"`                        // what people try that fails
	Workarounds        []Workaround      `json:"workarounds"`                      // what works, with success rates
	WorkaroundsZH      []string          `json:"workarounds_zh"`                   // Chinese text of Workarounds, same order
	TransitionGraph    TransitionGraph   `json:"transition_graph"`                 // related entries
	OfficialDocURL     string            `json:"official_doc_url,omitempty"`       // vendor documentation
	OfficialDocSection string            `json:"official_doc_section,omitempty"`   // section within that page
	ErrorCode          string            `json:"error_code"`                       // a printed code (IsPrintedCode) or a lowercase-kebab id
	FormerCodes        []string          `json:"former_codes,omitempty"`           // codes it had before; /e/<code>/ still leads here
	VerificationTier   string            `json:"verification_tier"`                // ai_generated, community, reproduced, vendor_confirmed
	Confidence         float64           `json:"confidence"`                       // in [0,1]
	FixSuccessRate     float64           `json:"fix_success_rate"`                 // in [0,1]; above 0 only with a basis
	FixSuccessBasis    *RateBasis        `json:"fix_success_rate_basis,omitempty"` // what FixSuccessRate rests on
	Resolvable         string            `json:"resolvable"`                       // yes, partial, no
	FirstSeen          string            `json:"first_seen,omitempty"`             // ISO date
	LastConfirmed      string            `json:"last_confirmed,omitempty"`         // ISO date
	LastUpdated        string            `json:"last_updated,omitempty"`           // ISO date
	EvidenceCount      int               `json:"evidence_count"`                   // reports behind the entry
	Tags               []string          `json:"tags"`                             // free labels
	Locale             string            `json:"locale"`                           // language of the source text
	Aliases            []string          `json:"aliases"`                          // other spellings: driver API names, numbers
	Reproducer         *Reproducer       `json:"reproducer,omitempty"`             // how the signature was reproduced, if it was
	AppliesWhen        string            `json:"applies_when,omitempty"`           // condition over probe facts; empty: always

	// File is the entry's path inside the KB, for messages; not in the JSON.
	File string `json:"-"`

	syntax *syntax.Regexp // Regex parsed, when loaded WithPatternSyntax
}

// PatternSyntax is the entry's pattern parsed with syntax.Perl and
// simplified, as the loader checked it, when it was loaded with
// WithPatternSyntax; nil otherwise. It is shared: read it, never change it.
func (e *Entry) PatternSyntax() *syntax.Regexp { return e.syntax }

// Reproducer is a program under kb/repro/ that prints the entry's signature,
// with the output it printed on real GPUs.
type Reproducer struct {
	Program string `json:"program"` // repro/p2p_errors.cu
	Output  string `json:"output"`  // repro/p2p_errors.h200x2.txt
	Command string `json:"command"` // how it was built and run
	Machine string `json:"machine"` // 2x NVIDIA H200, driver 580.159.04, CUDA 13.0
	Date    string `json:"date"`    // ISO date of the run
	Line    string `json:"-"`       // the output line the pattern matches, set by Load
}

// SignatureSource says where an entry's signature was copied from, so that a
// reader can check it against what the software prints.
type SignatureSource struct {
	Kind string `json:"kind"`          // reproduction, source, report, documentation
	URL  string `json:"url,omitempty"` // the source line, the report or the page; empty for a reproduction
	Note string `json:"note"`          // what is there: "transport/p2p.cc, p2pMap(), NCCL 2.21"
	// Line is, for kind source, the statement that prints the message as it
	// stands at URL; the signature must be an instance of its format.
	Line string `json:"line,omitempty"`
	// Excerpt is, for kind report or documentation, the text at URL the
	// signature was copied from; the signature must appear in it.
	Excerpt string `json:"excerpt,omitempty"`
}

// RateBasis is what a rate rests on: a count of reports, or an editor's
// estimate, so that the page can say which.
type RateBasis struct {
	Estimate bool     `json:"estimate,omitempty"` // the rate is the editor's estimate
	Reports  int      `json:"reports,omitempty"`  // reporters for whom it worked (failed, for a dead end)
	Of       int      `json:"of,omitempty"`       // reporters who tried it
	Sources  []string `json:"sources,omitempty"`  // the threads counted
	Note     string   `json:"note,omitempty"`     // how they were counted
}

// Counted reports whether the rate rests on a count of reports.
func (b *RateBasis) Counted() bool { return b != nil && b.Of > 0 }

// FormerSignature is text an earlier version of the entry gave as the
// signature, kept so that a search for it still finds the entry.
type FormerSignature struct {
	Signature string `json:"signature"` // the text as the entry gave it
	Note      string `json:"note"`      // why it was corrected
	NoteZH    string `json:"note_zh"`   //
}

// IsNote reports whether the entry describes an informational line rather
// than a failure.
func (e *Entry) IsNote() bool { return e.Severity == "note" }

// Version is one component and version the entry is known to concern.
type Version struct {
	Version        string `json:"version"` // "cuda>=11.8", "CUDA 12.3", "nvidia-driver>=525"
	Introduced     string `json:"introduced"`
	Deprecated     string `json:"deprecated"`
	Removed        string `json:"removed"`
	BehaviorChange string `json:"behavior_change"` // inline Markdown
	// BehaviorChangeZH is BehaviorChange in Chinese.
	BehaviorChangeZH string `json:"behavior_change_zh"`
	Status           string `json:"status"` // active, deprecated, removed, fixed
}

// DeadEnd is something people try that does not fix the error.
type DeadEnd struct {
	Action     string     `json:"action"`                    // what is tried; may be empty
	ActionZH   string     `json:"action_zh"`                 //
	WhyFails   string     `json:"why_fails"`                 // inline Markdown
	WhyFailsZH string     `json:"why_fails_zh"`              //
	FailRate   float64    `json:"fail_rate"`                 // in [0,1]; above 0 only with a basis
	FailBasis  *RateBasis `json:"fail_rate_basis,omitempty"` // what FailRate rests on
	Condition  string     `json:"condition"`                 // when it applies; empty: always
	Sources    []string   `json:"sources"`                   // http(s) URLs
}

// Workaround is something that fixes or avoids the error.
type Workaround struct {
	Action       string     `json:"action"`                       // inline Markdown
	SuccessRate  float64    `json:"success_rate"`                 // in [0,1]; above 0 only with a basis
	SuccessBasis *RateBasis `json:"success_rate_basis,omitempty"` // what SuccessRate rests on
	How          string     `json:"how"`                          // the steps beyond Action; never a copy of it
	Condition    string     `json:"condition"`                    // when it applies; empty: always
	Sources      []string   `json:"sources"`                      // http(s) URLs
}

// TransitionGraph links an entry to others by id.
type TransitionGraph struct {
	LeadsTo                []string `json:"leads_to"`
	PrecededBy             []string `json:"preceded_by"`
	FrequentlyConfusedWith []string `json:"frequently_confused_with"`
}

// KB is a loaded, checked knowledge base.
type KB struct {
	Entries  []*Entry          // sorted by ID
	ByID     map[string]*Entry //
	Warnings []Problem         // things lint reports that do not stop a build
	Repro    map[string][]byte // files under repro/, by path from the KB root
}
