// Package searchtest reads the table of search cases that the Go tests and
// the browser tests both run (internal/search/testdata/cases.json), so the
// two sides cannot drift apart in what they check, and runs a query in the
// static search page.
package searchtest

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/p2pkb/p2pkb/internal/browsertest"
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

// Query opens the static search page of the site at root (a file:// or
// http:// URL ending in /) for q in lang, waits for the search to finish,
// and returns the first result's id ("" for none).
func Query(t testing.TB, b *browsertest.Browser, root, lang, q string) string {
	t.Helper()
	b.Do(chromedp.Navigate(root + lang + "/search/index.html?q=" + url.QueryEscape(q)))
	for i := 0; i < 100; i++ {
		if done, _ := browsertest.EvalErr[string](b, `document.body.dataset.searchDone || ""`); done != "" {
			if done != "true" {
				t.Fatalf("search failed: %s", browsertest.Eval[string](b, `document.getElementById("search-status").textContent`))
			}
			return browsertest.Eval[string](b, `(document.querySelector("#search-results li") || {dataset: {}}).dataset.resultId || ""`)
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatal("search did not finish")
	return ""
}
