package reportset

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/p2pkb/p2pkb/internal/site"
)

// Floors on the development set: explain must keep answering at least this
// many of its reports with an entry of the right family, among the causes
// and first, and none with an entry the report contradicts. Raise them as
// the diagnosis improves; a change that lowers them is a regression.
const (
	floorAmong = 0.86
	floorFirst = 0.83
)

var repo = os.DirFS("../..")

func loadRepo(t *testing.T) (*site.Site, *Families) {
	t.Helper()
	s, err := Site("../../kb", "../../content")
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFamilies(repo, "reports/families.json")
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

func TestDevSetFloors(t *testing.T) {
	s, f := loadRepo(t)
	rs, err := LoadSet(repo, "reports/dev.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 60 {
		t.Fatalf("reports/dev.json holds %d reports, want at least 60", len(rs))
	}
	sc, err := Measure(s, f, "dev", rs)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc.Write(&out, f)
	if sc.Share(sc.RightAmong) < floorAmong || sc.Share(sc.RightFirst) < floorFirst || sc.Contradicts > 0 {
		t.Errorf("below the floors (%.0f%% among the causes, %.0f%% first, none contradicted):\n%s", 100*floorAmong, 100*floorFirst, out.String())
	}
}

// Every entry has a family, so that a new entry is scored and not silently
// counted as wrong; every entry a report names exists.
func TestFamiliesAndNamedEntriesExist(t *testing.T) {
	s, f := loadRepo(t)
	if un := f.Unmapped(s); len(un) > 0 {
		t.Errorf("reports/families.json: entries without a family: %v", un)
	}
	for id := range f.Entries {
		if s.KB.ByID[id] == nil {
			t.Errorf("reports/families.json: no entry %s in kb/", id)
		}
	}
	for _, name := range setFiles(t) {
		rs, err := LoadSet(repo, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			for _, id := range append(append([]string{}, r.Accept...), r.Contradicted...) {
				if s.KB.ByID[id] == nil {
					t.Errorf("%s: %s names %s, which is not in kb/", name, r.URL, id)
				}
			}
			for _, n := range r.Family {
				if _, ok := f.Names[n]; !ok {
					t.Errorf("%s: %s: family %d is not in reports/families.json", name, r.URL, n)
				}
			}
		}
	}
}

// An entry says its usual cause is on the program's side (program_side,
// which orders the entries closest to words that speak of no path between
// GPUs) exactly when its families hold the family of such causes, "noise":
// the KB and the families the reports are scored by tell the same thing.
func TestProgramSideIsTheNoiseFamily(t *testing.T) {
	s, f := loadRepo(t)
	noise := 0
	for n, name := range f.Names {
		if strings.HasPrefix(name, "noise") {
			noise = n
		}
	}
	if noise == 0 {
		t.Fatal("reports/families.json: no family named noise")
	}
	sides := 0
	for id, fams := range f.Entries {
		e := s.KB.ByID[id]
		if e == nil {
			continue
		}
		if e.ProgramSide != slices.Contains(fams, noise) {
			t.Errorf("%s: program_side %v, families %v", id, e.ProgramSide, fams)
		}
		if e.ProgramSide {
			sides++
		}
	}
	if sides < 10 {
		t.Errorf("%d entries on the program's side: too few to order by", sides)
	}
}

// The sets share no thread with each other or with the set of key lines
// found by searching for known strings, so that each measures something else.
func TestSetsAreDisjoint(t *testing.T) {
	lines, err := LoadLines(repo, "internal/search/testdata/audit.json")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, r := range lines {
		seen[r.URL] = "internal/search/testdata/audit.json"
	}
	for _, name := range setFiles(t) {
		rs, err := LoadSet(repo, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if other, ok := seen[r.URL]; ok {
				t.Errorf("%s is in both %s and %s", r.URL, name, other)
			}
			seen[r.URL] = name
		}
	}
}

func setFiles(t *testing.T) []string {
	names := []string{Sets[0]}
	for _, n := range Sets[1:] {
		if _, err := fs.Stat(repo, n); err == nil {
			names = append(names, n)
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	return names
}

// A report is scored by the whole paste as explain reads it: the first
// cause shown decides "first", any message's causes decide "among", and an
// entry the report contradicts counts against it even when it is of the
// right family.
func TestScoring(t *testing.T) {
	s, _ := loadRepo(t)
	f := &Families{Names: map[int]string{1: "a", 9: "b", 3: "c"}, Entries: map[string][]int{
		"nccl/unhandled-system-error": {3}, "nccl/shm-segment-create-failed": {9}, "nccl/shm-segment-register-failed-wsl": {9},
	}}
	shm := []string{"nccl/shm-segment-create-failed", "nccl/shm-segment-register-failed-wsl"}
	// The wrapper's line comes first, but the line that names the failure is answered first.
	paste := "RuntimeError: NCCL Error 2: unhandled system error\n" +
		"misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-FAtL7b (size 9637888), error: No space left on device (28)\n"
	oc, err := Explain(s, f, Report{URL: "https://x/1", Family: []int{3}, Paste: paste})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(shm, oc.First) || !oc.RightAmong || oc.RightFirst {
		t.Errorf("family 3: first %s, among %v, first right %v; want an shm entry first, the wrapper among", oc.First, oc.RightAmong, oc.RightFirst)
	}
	oc, err = Explain(s, f, Report{URL: "https://x/2", Family: []int{9}, Paste: paste, Contradicted: shm})
	if err != nil {
		t.Fatal(err)
	}
	if !oc.Contradicts || oc.RightFirst || oc.RightAmong {
		t.Errorf("contradicted first cause: contradicts %v, first right %v, among %v", oc.Contradicts, oc.RightFirst, oc.RightAmong)
	}
	// A description told beside a recognized line: its closest entries
	// count as explain answers, not as recognized lines (the first post of
	// https://github.com/EleutherAI/gpt-neox/issues/1147).
	told := "hi\ni started training on two nodes and used 125M.yml config file and only changed the directories for data and tokenizer files. also added my own hostfile. now during training it gives me this error:\n" +
		"```\nNCCL error in: ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.14.3\n```\n"
	oc, err = Explain(s, f, Report{URL: "https://x/4", Family: []int{1}, Paste: told})
	if err != nil {
		t.Fatal(err)
	}
	lines := oc.Recognized()
	if !oc.Beside || oc.ByWords || len(lines.Causes) == 0 || len(lines.Causes) >= len(oc.Causes) || lines.First != oc.First || !slices.Equal(lines.Causes, oc.Causes[:len(lines.Causes)]) {
		t.Errorf("beside a recognized line: beside %v, by words %v, causes %v, recognized %v", oc.Beside, oc.ByWords, oc.Causes, lines.Causes)
	}
	oc, err = Explain(s, f, Report{URL: "https://x/3", Family: []int{1}, Paste: "all good\n"})
	if err != nil {
		t.Fatal(err)
	}
	if oc.First != "" || oc.RightAmong || len(oc.Causes) != 0 {
		t.Errorf("nothing known: %+v", oc)
	}
}

func TestLoadSetNamesTheFault(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`[{"url": "https://a", "family": [1], "paste": "x", "found_by": "q"}, {"url": "https://a", "family": [1], "paste": "x", "found_by": "q"}]`, "report 2 (https://a): url: listed twice"},
		{`[{"url": "https://a", "family": [], "paste": "x", "found_by": "q"}]`, "report 1 (https://a): family: empty"},
		{`[{"url": "https://a", "family": [1], "paste": " ", "found_by": "q"}]`, "paste: empty"},
		{`[{"url": "https://a", "family": [1], "paste": "x"}]`, "found_by: empty"},
		{"[\n{\"url\": \"https://a\", \"famly\": [1]}]", `unknown field "famly"`},
		{"[\n{\"url\": 3}]", "set.json: line 2 col"},
	} {
		_, err := LoadSet(fstest.MapFS{"set.json": {Data: []byte(c.data)}}, "set.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.data, err, c.want)
		}
	}
}

// The set of key lines found by searching for known strings is answered,
// line by line, by no entry its report contradicts: a cause that needs
// facts the line does not give (an RTX 40 card, a driver) ranks below the
// one that explains it wherever it shows.
func TestAuditSetNoneContradicted(t *testing.T) {
	s, f := loadRepo(t)
	rs, err := LoadLines(repo, "internal/search/testdata/audit.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Measure(s, f, "audit", rs)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Contradicts > 0 {
		var out bytes.Buffer
		sc.Write(&out, f)
		t.Errorf("%d answers of audit.json are entries their report contradicts:\n%s", sc.Contradicts, out.String())
	}
}
