package reportset

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The blind figures name sets of the repository and agree with the
// percentages reports/README.md gives each set ("blind: 86% / 86%").
func TestBlindFile(t *testing.T) {
	t.Chdir("../..")
	bs, pool, err := LoadBlind("reports/blind.json")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("reports/README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (validation\d*) \(blind: (\d+)% / (\d+)%`)
	said := map[string][2]int{}
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		a, _ := strconv.Atoi(m[2])
		f, _ := strconv.Atoi(m[3])
		said["reports/"+m[1]+".json"] = [2]int{a, f}
	}
	n := 0
	for _, b := range bs {
		if !slices.Contains(Sets, b.Set) {
			t.Errorf("%s: not one of Sets", b.Set)
		}
		rs, err := LoadSet(os.DirFS(filepath.Dir(b.Set)), filepath.Base(b.Set))
		if err != nil {
			t.Fatal(err)
		}
		n += len(rs)
		pct := func(x int) int { return int(100*float64(x)/float64(len(rs)) + 0.5) }
		want, ok := said[b.Set]
		if !ok {
			t.Errorf("%s: reports/README.md gives no blind figures for it", b.Set)
			continue
		}
		if got := [2]int{pct(b.Among), pct(b.First)}; got != want {
			t.Errorf("%s: %d and %d of %d are %d%% / %d%%; reports/README.md says %d%% / %d%%", b.Set, b.Among, b.First, len(rs), got[0], got[1], want[0], want[1])
		}
	}
	if pool.Reports != n || pool.Sets != len(bs) {
		t.Errorf("pool of %d sets, %d reports; the sets hold %d sets, %d reports", pool.Sets, pool.Reports, len(bs), n)
	}
}

// A count beyond what bounds it is refused with the file, the entry and
// the field.
func TestLoadBlindRefuses(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{`[{"set": "reports/validation125.json", "among": 5, "first": 6}]`, "entry 1 (reports/validation125.json): first: 6"},
		{`[{"set": "reports/validation125.json", "among": 500, "first": 6}]`, "among: 500, but the set has"},
		{`[{"set": "reports/none.json", "among": 1, "first": 1}]`, "entry 1 (reports/none.json): set:"},
		{`[{"set": "reports/validation125.json", "among": 1, "first": 1, "by": "x"}]`, `unknown field "by"`},
	} {
		name := filepath.Join(dir, "blind.json")
		if err := os.WriteFile(name, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := LoadBlind(name)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want an error naming %s and %q", c.text, err, name, c.want)
		}
	}
}

// The pool is printed after the sets, and --check fails on a pool that
// misses a target even when every set given meets them.
func TestRunChecksTheBlindPool(t *testing.T) {
	t.Chdir("../..")
	name := filepath.Join(t.TempDir(), "blind.json")
	for _, c := range []struct {
		among, first int
		fails        bool
	}{{22, 18, false}, {22, 17, true}, {18, 18, true}} {
		// validation125 has 22 reports: 80% first needs 18, 85% among needs 19.
		text := `[{"set": "reports/validation125.json", "among": ` + strconv.Itoa(c.among) + `, "first": ` + strconv.Itoa(c.first) + `}]`
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		err := Run(&out, Config{KB: "kb", Content: "content", Families: "reports/families.json", Check: true, Blind: name})
		if (err != nil) != c.fails {
			t.Errorf("%d / %d of 22: error %v, want failure %v", c.among, c.first, err, c.fails)
		}
		first := regexp.MustCompile(`right family first:\s+` + strconv.Itoa(c.first) + ` \(`)
		if !first.MatchString(out.String()) || !strings.Contains(out.String(), "1 sets, validation125.json to validation125.json, 22 reports") {
			t.Errorf("%d / %d of 22: printed\n%s", c.among, c.first, out.String())
		}
	}
}
