package issue

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Cases is the table that assets/search.js must pass too.
type Cases struct {
	Lines []struct {
		Text  string   `json:"text"`
		Lines []string `json:"lines"`
		More  int      `json:"more"`
	} `json:"lines"`
}

func TestLines(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var c Cases
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("testdata/cases.json: %v", err)
	}
	for _, c := range c.Lines {
		got, more := Lines(c.Text)
		if !reflect.DeepEqual(got, c.Lines) || more != c.More {
			t.Errorf("Lines(%q) = %q, %d more; want %q, %d", c.Text, got, more, c.Lines, c.More)
		}
	}
}

func TestURLFitsAndSaysWhatItLeftOut(t *testing.T) {
	var log strings.Builder
	for i := range 500 {
		fmt.Fprintf(&log, "rank %d: NCCL WARN Cuda failure 'invalid device ordinal' on step %d %s\n", i, i, strings.Repeat("x", 100))
	}
	u := URL("https://github.com/p2pkb/p2pkb/", log.String(), []string{"gpu.count: 2"})
	if len(u) > MaxURL {
		t.Fatalf("URL is %d bytes, over %d", len(u), MaxURL)
	}
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if p.Path != "/p2pkb/p2pkb/issues/new" {
		t.Errorf("path %q", p.Path)
	}
	body := p.Query().Get("body")
	if !strings.Contains(body, "rank 0: NCCL WARN") || !strings.Contains(body, "more lines left out") || !strings.Contains(body, "- gpu.count: 2") {
		t.Errorf("body lacks the first line, the count of lines left out or the facts:\n%s", body)
	}
	if !strings.HasPrefix(p.Query().Get("title"), "Unknown error: rank 0: NCCL WARN") {
		t.Errorf("title %q", p.Query().Get("title"))
	}
	if strings.Contains(URL("https://x.test/r", "error here", nil), "Facts") {
		t.Error("facts section without facts")
	}
}
