package render

import (
	"encoding/json"
	"fmt"

	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// MachineTextPath is the script with the Your machine panel's words in a
// language, and the shape of a probe report: machine.js reads them as
// window.p2pkbText and window.p2pkbReportShape. They load with the
// panel's other scripts, when it is opened, rather than sitting in every
// page's markup.
func MachineTextPath(lang string) string { return "assets/machine." + lang + ".js" }

// machineText maps the names machine.js asks for to keys of i18n.json.
var machineText = map[string]string{
	"none":          "machine_none",
	"stored":        "machine_stored",
	"forgotten":     "machine_forgotten",
	"errLarge":      "machine_err_large",
	"errJson":       "machine_err_json",
	"errSchema":     "machine_err_schema",
	"errType":       "machine_err_type",
	"errUnknown":    "machine_err_unknown",
	"errMany":       "machine_err_many",
	"errLong":       "machine_err_long",
	"dropped":       "machine_dropped",
	"lApplies":      "verdict_applies",
	"lDoesNotApply": "verdict_does_not_apply",
	"lUnknown":      "verdict_unknown",
	"tNone":         "machine_test_none",
	"tTitle":        "machine_test_title",
	"tNotRun":       "machine_test_not_run",
	"tCaption":      "machine_test_caption",
	"tCorner":       "machine_test_corner",
	"tFailed":       "machine_test_failed",
	"tSlow":         "machine_test_slow",
	"tTimeout":      "machine_test_timeout",
	"tSkipped":      "machine_test_skipped",
	"tData":         "machine_test_data",
	"tIpc":          "machine_test_ipc",
	"tVerdict":      "machine_test_verdict",
	"tColon":        "machine_test_colon",
	"tFailedPairs":  "machine_test_failed_pairs",
	"tSlowPairs":    "machine_test_slow_pairs",
	"tTimeouts":     "machine_test_timeouts",
	"tHost":         "machine_test_host",
	"pasted":        "machine_pasted",
	"pastedFacts":   "machine_pasted_facts",
	"pastedFact":    "machine_pasted_fact",
	"pasteNone":     "machine_paste_none",
	"pasteSearch":   "machine_paste_search",
	"pasteSymptom":  "machine_paste_symptom",
	"pasteLarge":    "machine_paste_large",
	"pasteConflict": "machine_paste_conflict",
}

// machineTextFiles writes the panel's words of every language.
func (r *Renderer) machineTextFiles(emit Emit) error {
	for _, l := range site.Langs {
		words := map[string]string{}
		for name, key := range machineText {
			s, ok := r.strings[l.Code][key]
			if !ok {
				return fmt.Errorf("templates/i18n.json: no %q string for %q", key, l.Code)
			}
			words[name] = s
		}
		b, err := json.Marshal(words) // sorted keys: the same bytes every build
		if err != nil {
			return err
		}
		// The report's shape and limits come with the words: machine.js
		// checks a report as facts.Read does, from the same description.
		js := "// The Your machine panel's words (templates/i18n.json) and the shape of a\n// p2p-probe report (probe/facts), read by machine.js.\nwindow.p2pkbText = " + string(b) +
			";\nwindow.p2pkbReportShape = " + string(facts.ShapeJSON()) + ";\n"
		if err := emit(MachineTextPath(l.Code), []byte(js)); err != nil {
			return err
		}
	}
	return nil
}
