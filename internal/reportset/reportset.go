// Package reportset measures diagnosis on sets of real public reports of GPU
// peer-to-peer trouble: each report's pasted text goes through the same code
// path as `p2pkb explain`, and the causes it gives are scored against the
// report's family of trouble and the entries its own text contradicts. It
// loads the sets and the family of every entry, and prints the figures; the
// sets themselves live in reports/ at the repository root.
package reportset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/diagnose"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Report is one public report in a set file.
type Report struct {
	URL     string `json:"url"`      // the thread
	Title   string `json:"title"`    // the thread's title
	FoundBy string `json:"found_by"` // the topic query that found it (never a KB string)
	Family  []int  `json:"family"`   // the families of trouble it belongs to (families.json lists them)
	// Paste is what a user would paste: lines copied verbatim from the
	// thread, the error lines with the log or output around them.
	Paste string `json:"paste"`
	// Accept lists entries known to be right answers when the report was
	// collected; any other entry of one of its families counts as well.
	Accept []string `json:"accept"`
	// Contradicted lists entries whose own text the report rules out (the
	// report says the opposite of what the entry requires).
	Contradicted []string `json:"contradicted_by"`
	Note         string   `json:"note,omitempty"` // why it is hard, what it lacks
}

// Families maps each entry id to the families of trouble it answers.
type Families struct {
	Names   map[int]string   `json:"names"`   // family number -> name
	Entries map[string][]int `json:"entries"` // entry id -> families
}

// Sets are the report sets in the repository, in the order they were
// collected: the development set, then each validation set.
var Sets = []string{"reports/dev.json", "reports/validation.json", "reports/validation2.json", "reports/validation3.json", "reports/validation4.json", "reports/validation5.json", "reports/validation6.json", "reports/validation7.json", "reports/validation8.json", "reports/validation9.json", "reports/validation10.json", "reports/validation11.json", "reports/validation12.json", "reports/validation13.json", "reports/validation14.json", "reports/validation15.json", "reports/validation16.json", "reports/validation17.json", "reports/validation18.json", "reports/validation19.json", "reports/validation20.json", "reports/validation21.json", "reports/validation22.json", "reports/validation23.json", "reports/validation24.json", "reports/validation25.json", "reports/validation26.json", "reports/validation27.json", "reports/validation28.json", "reports/validation29.json", "reports/validation30.json", "reports/validation31.json", "reports/validation32.json", "reports/validation33.json", "reports/validation34.json", "reports/validation35.json", "reports/validation36.json", "reports/validation37.json", "reports/validation38.json", "reports/validation39.json", "reports/validation40.json", "reports/validation41.json", "reports/validation42.json", "reports/validation43.json", "reports/validation44.json", "reports/validation45.json", "reports/validation46.json", "reports/validation47.json", "reports/validation48.json", "reports/validation49.json", "reports/validation50.json", "reports/validation51.json", "reports/validation52.json", "reports/validation53.json", "reports/validation54.json", "reports/validation55.json", "reports/validation56.json", "reports/validation57.json", "reports/validation58.json", "reports/validation59.json", "reports/validation60.json", "reports/validation61.json", "reports/validation62.json", "reports/validation63.json", "reports/validation64.json", "reports/validation65.json", "reports/validation66.json", "reports/validation67.json", "reports/validation68.json", "reports/validation69.json", "reports/validation70.json", "reports/validation71.json", "reports/validation72.json", "reports/validation73.json", "reports/validation74.json", "reports/validation75.json", "reports/validation76.json", "reports/validation77.json", "reports/validation78.json", "reports/validation79.json", "reports/validation80.json", "reports/validation81.json", "reports/validation82.json", "reports/validation83.json", "reports/validation84.json", "reports/validation85.json", "reports/validation86.json", "reports/validation87.json", "reports/validation88.json", "reports/validation89.json", "reports/validation90.json", "reports/validation91.json", "reports/validation92.json", "reports/validation93.json", "reports/validation94.json", "reports/validation95.json", "reports/validation96.json", "reports/validation97.json", "reports/validation98.json", "reports/validation99.json", "reports/validation100.json", "reports/validation101.json", "reports/validation102.json", "reports/validation103.json", "reports/validation104.json", "reports/validation105.json", "reports/validation106.json", "reports/validation107.json", "reports/validation108.json", "reports/validation109.json", "reports/validation110.json", "reports/validation111.json", "reports/validation112.json", "reports/validation113.json", "reports/validation114.json", "reports/validation115.json", "reports/validation116.json", "reports/validation117.json", "reports/validation118.json", "reports/validation119.json", "reports/validation120.json", "reports/validation121.json", "reports/validation122.json", "reports/validation123.json", "reports/validation124.json", "reports/validation125.json", "reports/validation126.json", "reports/validation127.json", "reports/validation128.json", "reports/validation129.json", "reports/validation130.json", "reports/validation131.json", "reports/validation132.json"}

// LoadSet reads a set file: a JSON array of reports. Errors name the file
// and the report.
func LoadSet(fsys fs.FS, name string) ([]Report, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var rs []Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, jsonWhere(data, err))
	}
	seen := map[string]bool{}
	for i, r := range rs {
		at := fmt.Sprintf("%s: report %d (%s)", name, i+1, r.URL)
		switch {
		case !strings.HasPrefix(r.URL, "https://"):
			return nil, fmt.Errorf("%s: url: want an https address", at)
		case seen[r.URL]:
			return nil, fmt.Errorf("%s: url: listed twice", at)
		case len(r.Family) == 0:
			return nil, fmt.Errorf("%s: family: empty", at)
		case strings.TrimSpace(r.Paste) == "":
			return nil, fmt.Errorf("%s: paste: empty", at)
		case strings.TrimSpace(r.FoundBy) == "":
			return nil, fmt.Errorf("%s: found_by: empty (the topic query that found it)", at)
		}
		seen[r.URL] = true
	}
	return rs, nil
}

// LoadFamilies reads the family of every entry.
func LoadFamilies(fsys fs.FS, name string) (*Families, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var f Families
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, jsonWhere(data, err))
	}
	for id, fams := range f.Entries {
		for _, n := range fams {
			if _, ok := f.Names[n]; !ok {
				return nil, fmt.Errorf("%s: entries.%s: no family %d in names", name, id, n)
			}
		}
	}
	return &f, nil
}

// jsonWhere turns encoding/json's byte offset into a line and column.
func jsonWhere(data []byte, err error) error {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Errorf("line %d col %d: %w", line, col, err)
}

// Unmapped lists the entries of the KB that have no family.
func (f *Families) Unmapped(s *site.Site) []string {
	var out []string
	for _, e := range s.KB.Entries {
		if _, ok := f.Entries[e.ID]; !ok {
			out = append(out, e.ID)
		}
	}
	sort.Strings(out)
	return out
}

// Outcome is what explain answered for one report.
type Outcome struct {
	Report      Report
	Causes      []string // every cause of every message, in the order explain shows them, each once
	First       string   // the first cause shown; "" when nothing was recognized and no entry is close to its words
	ByWords     bool     // nothing was recognized: the causes are the entries closest to the report's words
	Beside      bool     // lines were recognized, and the entries closest to the report's words follow their causes
	RightAmong  bool     // an entry of the right family is among the causes
	RightFirst  bool     // the first cause shown is of the right family
	Contradicts bool     // the first cause shown is an entry the report contradicts
	recognized  *Outcome // the same, counting recognized lines and symptoms only
}

// Recognized is the outcome counting recognized lines and symptoms only,
// without the entries closest to the words.
func (oc Outcome) Recognized() Outcome {
	if oc.recognized == nil {
		return oc
	}
	return *oc.recognized
}

// right says whether entry id answers r: listed as acceptable, or of one of
// its families, and not contradicted by it.
func (f *Families) right(r Report, id string) bool {
	if contains(r.Contradicted, id) {
		return false
	}
	if contains(r.Accept, id) {
		return true
	}
	for _, n := range f.Entries[id] {
		for _, m := range r.Family {
			if n == m {
				return true
			}
		}
	}
	return false
}

// diagnosis is the part of `explain --json` the measure reads.
type diagnosis struct {
	Messages []struct {
		ByWords bool `json:"by_words"`
		Beside  bool `json:"beside_recognized"`
		Causes  []struct {
			ID string `json:"id"`
		} `json:"causes"`
	} `json:"messages"`
}

// Explain runs r's pasted text through explain, as `p2pkb explain --json`
// reads a pasted log, and scores the causes.
func Explain(s *site.Site, f *Families, r Report) (Outcome, error) {
	var out bytes.Buffer
	o := diagnose.Options{Lang: "en", JSON: true, Paste: paste.New(), Warn: io.Discard}
	if _, err := diagnose.Explain(&out, s, strings.NewReader(r.Paste), nil, o); err != nil {
		return Outcome{}, fmt.Errorf("%s: explain: %w", r.URL, err)
	}
	var d diagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		return Outcome{}, fmt.Errorf("%s: reading explain --json: %w", r.URL, err)
	}
	oc, lines := Outcome{Report: r}, Outcome{Report: r}
	for _, m := range d.Messages {
		oc.ByWords = oc.ByWords || m.ByWords && !m.Beside
		oc.Beside = oc.Beside || m.Beside
		for _, c := range m.Causes {
			oc.add(f, c.ID)
			if !m.ByWords {
				lines.add(f, c.ID)
			}
		}
	}
	oc.recognized = &lines
	return oc, nil
}

// add counts entry id as the next cause shown, unless it was shown already.
func (oc *Outcome) add(f *Families, id string) {
	if contains(oc.Causes, id) {
		return
	}
	if len(oc.Causes) == 0 {
		oc.First = id
		oc.RightFirst = f.right(oc.Report, id)
		oc.Contradicts = contains(oc.Report.Contradicted, id)
	}
	oc.Causes = append(oc.Causes, id)
	oc.RightAmong = oc.RightAmong || f.right(oc.Report, id)
}

// Score is the figures of one set: as explain answers, the entries closest
// to the words of a report in which nothing was recognized included, and
// (Lines) from recognized lines and symptoms alone.
type Score struct {
	Name        string
	Reports     int
	RightAmong  int // reports with an entry of the right family among the causes
	RightFirst  int // reports whose first cause shown is of the right family
	Contradicts int // reports whose first cause shown is an entry they contradict
	ByWords     int // reports answered by the words alone
	Beside      int // reports whose recognized lines came with a description, answered by its words too
	Lines       Counts
	Misses      []Outcome
}

// Counts are a set's figures counted one way.
type Counts struct{ RightAmong, RightFirst, Contradicts int }

func (c *Counts) add(oc Outcome) {
	if oc.RightAmong {
		c.RightAmong++
	}
	if oc.RightFirst {
		c.RightFirst++
	}
	if oc.Contradicts {
		c.Contradicts++
	}
}

// Share is n of the set's reports as a fraction.
func (sc Score) Share(n int) float64 {
	if sc.Reports == 0 {
		return 0
	}
	return float64(n) / float64(sc.Reports)
}

// Measure explains every report of a set.
func Measure(s *site.Site, f *Families, name string, rs []Report) (Score, error) {
	sc := Score{Name: name, Reports: len(rs)}
	for _, r := range rs {
		oc, err := Explain(s, f, r)
		if err != nil {
			return sc, err
		}
		var all Counts
		all.add(oc)
		sc.RightAmong += all.RightAmong
		sc.RightFirst += all.RightFirst
		sc.Contradicts += all.Contradicts
		sc.Lines.add(oc.Recognized())
		if oc.ByWords {
			sc.ByWords++
		}
		if oc.Beside {
			sc.Beside++
		}
		if !oc.RightAmong || !oc.RightFirst || oc.Contradicts {
			sc.Misses = append(sc.Misses, oc)
		}
	}
	return sc, nil
}

// Write prints a set's figures and its misses.
func (sc Score) Write(w io.Writer, f *Families) {
	fmt.Fprintf(w, "%s: %d reports (%d answered by their words alone, %d with entries close to a description beside recognized lines)\n", sc.Name, sc.Reports, sc.ByWords, sc.Beside)
	fmt.Fprintf(w, "                                 as explain answers | recognized lines only\n")
	fmt.Fprintf(w, "  right family among the causes: %3d (%3.0f%%)         | %3d (%3.0f%%)\n", sc.RightAmong, 100*sc.Share(sc.RightAmong), sc.Lines.RightAmong, 100*sc.Share(sc.Lines.RightAmong))
	fmt.Fprintf(w, "  right family first:            %3d (%3.0f%%)         | %3d (%3.0f%%)\n", sc.RightFirst, 100*sc.Share(sc.RightFirst), sc.Lines.RightFirst, 100*sc.Share(sc.Lines.RightFirst))
	fmt.Fprintf(w, "  answered by an entry the report contradicts: %d | %d\n", sc.Contradicts, sc.Lines.Contradicts)
	if len(sc.Misses) == 0 {
		return
	}
	fmt.Fprintf(w, "  misses (%d):\n", len(sc.Misses))
	for _, m := range sc.Misses {
		var what []string
		switch {
		case m.Contradicts:
			what = append(what, "first cause contradicted")
		case !m.RightAmong:
			what = append(what, "no cause of the right family")
		default:
			what = append(what, "right family not first")
		}
		first := m.First
		switch {
		case first == "":
			first = "nothing recognized, no entry close to its words"
		case m.ByWords:
			first += " (by words)"
		}
		fmt.Fprintf(w, "    %s  family %s  %s; first: %s", m.Report.URL, families(m.Report.Family, f), strings.Join(what, ", "), first)
		if len(m.Causes) > 1 {
			fmt.Fprintf(w, " (of %d: %s)", len(m.Causes), strings.Join(m.Causes[1:min(len(m.Causes), 6)], ", "))
		}
		fmt.Fprintln(w)
		if m.Report.Note != "" {
			fmt.Fprintf(w, "      %s\n", m.Report.Note)
		}
	}
}

func families(ns []int, f *Families) string {
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprintf("%d %s", n, f.Names[n]))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// LoadLines reads a set in the older form of internal/search/testdata/
// audit.json (key lines and expected entries per report, found by searching
// for known strings): its lines are pasted together as one text.
func LoadLines(fsys fs.FS, name string) ([]Report, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var rs []struct {
		URL          string   `json:"url"`
		Family       []int    `json:"family"`
		Expect       []string `json:"expect"`
		Lines        []string `json:"lines"`
		Contradicted []string `json:"contradicted_by"`
		Unmatched    string   `json:"unmatched"`
	}
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, jsonWhere(data, err))
	}
	out := make([]Report, 0, len(rs))
	for _, r := range rs {
		out = append(out, Report{URL: r.URL, FoundBy: "string search", Family: r.Family, Paste: strings.Join(r.Lines, "\n") + "\n",
			Accept: r.Expect, Contradicted: r.Contradicted, Note: r.Unmatched})
	}
	return out, nil
}
