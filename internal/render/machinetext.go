package render

import (
	"encoding/json"
	"fmt"

	"github.com/p2pkb/p2pkb/internal/site"
)

// MachineTextPath is the script with the Your machine panel's words in a
// language: machine.js reads them as window.p2pkbText. They load with the
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
	"pasteNone":     "machine_paste_none",
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
		js := "// The Your machine panel's words (templates/i18n.json), read by machine.js.\nwindow.p2pkbText = " + string(b) + ";\n"
		if err := emit(MachineTextPath(l.Code), []byte(js)); err != nil {
			return err
		}
	}
	return nil
}
