package render

import (
	"encoding/json"

	"github.com/p2pkb/p2pkb/internal/errvocab"
)

// ErrorsPath is the script with the error vocabulary and the layers' line
// shapes (internal/errvocab), which the search page reads pasted lines with.
const ErrorsPath = "assets/errvocab.js"

// errorsFile writes ErrorsPath from the Go tables, so that the page and
// explain read a line with the same ones.
func errorsFile(emit Emit) error {
	b, err := json.Marshal(errvocab.Table())
	if err != nil {
		return err
	}
	js := "// The error vocabulary and the layers' line shapes (internal/errvocab), read by search.js.\nwindow.p2pkbErrors = " + string(b) + ";\n"
	return emit(ErrorsPath, []byte(js))
}
