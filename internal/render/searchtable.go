package render

import (
	"encoding/json"

	"github.com/p2pkb/p2pkb/internal/issue"
	"github.com/p2pkb/p2pkb/internal/search"
)

// SearchTablePath is the script with what the search page's search.js
// shares with Go: the stop words of internal/search, the limits of the
// answer by a paste's words (search.WordsTable) and the rules of the
// "Report this error" link of internal/issue.
const SearchTablePath = "assets/search.table.js"

// searchTableFile writes SearchTablePath from the Go values, so that each
// is written once.
func searchTableFile(emit Emit) error {
	b, err := json.Marshal(struct {
		StopWords []string          `json:"stopWords"`
		Issue     issue.Rules       `json:"issue"`
		Words     search.WordsRules `json:"words"`
	}{search.StopWords(), issue.Table(), search.WordsTable()})
	if err != nil {
		return err
	}
	js := "// The stop words and the by-words answer's limits (internal/search) and the new-issue link's rules (internal/issue), read by search.js.\nwindow.p2pkbSearchTable = " + string(b) + ";\n"
	return emit(SearchTablePath, []byte(js))
}
