// Package searchtest reads the table of search cases that the Go tests and
// the browser tests both run (internal/search/testdata/cases.json), so the
// two sides cannot drift apart in what they check.
package searchtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Cases is the shared table.
type Cases struct {
	Analysis []struct {
		Text  string   `json:"text"`  // text to analyze
		Terms []string `json:"terms"` // the terms it must give, in order
	} `json:"analysis"`
	Queries []struct {
		Q    string `json:"q"`    // what a person types or pastes
		Lang string `json:"lang"` // en or zh
		Top  string `json:"top"`  // the first result
		In   string `json:"in"`   // a page that must be among the results
		Top3 string `json:"top3"` // a page that must be among the first three
	} `json:"queries"`
}

// Load reads the table.
func Load(t testing.TB) Cases {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c Cases
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}
