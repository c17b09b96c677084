package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/probe/facts"
)

type table struct {
	Facts map[string]string `json:"facts"`
	// Pasted names pasted text whose facts paste.Facts gives: a case with
	// pasted judges by those (pasted_test.go, which can import paste).
	Pasted map[string]string `json:"pasted"`
	Cases  []struct {
		Facts    string   `json:"facts"`
		Pasted   string   `json:"pasted"`
		When     string   `json:"when"`
		Versions []string `json:"versions"`
		Want     string   `json:"want"`
		Reason   string   `json:"reason"`
	} `json:"cases"`
	Invalid []struct {
		When     string   `json:"when"`
		Versions []string `json:"versions"`
		Error    string   `json:"error"`
	} `json:"invalid"`
}

func loadTable(t testing.TB) (table, map[string]Facts) {
	t.Helper()
	var tb table
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &tb); err != nil {
		t.Fatal(err)
	}
	machines := map[string]Facts{}
	for name, path := range tb.Facts {
		var r facts.Report
		data, err := os.ReadFile(filepath.Join("../..", path))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		machines[name] = FromReport(&r)
	}
	return tb, machines
}

// The shared table: every operator, version form, unknown fact and combination.
func TestTable(t *testing.T) {
	tb, machines := loadTable(t)
	for _, c := range tb.Cases {
		if c.Pasted != "" {
			continue
		}
		v, err := Applies(c.Versions, c.When, machines[c.Facts])
		if err != nil {
			t.Errorf("%s %q %v: %v", c.Facts, c.When, c.Versions, err)
			continue
		}
		if v.Truth.String() != c.Want {
			t.Errorf("%s %q %v: %s (%v), want %s", c.Facts, c.When, c.Versions, v.Truth, v.Reasons, c.Want)
		}
		if c.Reason != "" && !strings.Contains(strings.Join(v.Reasons, "; "), c.Reason) {
			t.Errorf("%s %q %v: reasons %q lack %q", c.Facts, c.When, c.Versions, v.Reasons, c.Reason)
		}
	}
	for _, c := range tb.Invalid {
		_, err := Applies(c.Versions, c.When, Facts{})
		if err == nil || !strings.Contains(err.Error(), c.Error) {
			t.Errorf("%q %v: error %v, want %q", c.When, c.Versions, err, c.Error)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"580.159.04", "525", 1}, {"13.0", "13", 0}, {"2.11.0+cu130", "2.11.0", 0}, {"12.4.1", "12.10", -1}, {"535.183.01", "535.183.1", 0}} {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// A condition that reads a fact not known several times names it once.
func TestUnknownNamedOnce(t *testing.T) {
	v, err := Applies(nil, "nccl.version >= 2.4.0 && nccl.version < 2.8.4 || nccl.version >= 2.12.0 && nccl.version < 2.18.2 || python.torch >= 2.7.0", Facts{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"NCCL unknown", "torch unknown"}; v.Truth != Unknown || !slices.Equal(v.Reasons, want) {
		t.Errorf("%s %q, want unknown %q", v.Truth, v.Reasons, want)
	}
}
