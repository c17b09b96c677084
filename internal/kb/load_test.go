package kb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"testing"
	"testing/fstest"
)

func schema(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLoadRepositoryKB(t *testing.T) {
	k, err := Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatalf("the repository's KB does not load:\n%v", err)
	}
	if len(k.Warnings) > 0 {
		t.Errorf("the repository's KB has warnings: %v", k.Warnings)
	}
	reproduced := 0
	for _, e := range k.Entries {
		if e.VerificationTier == "reproduced" && e.Reproducer != nil && e.Reproducer.Line != "" {
			reproduced++
		}
	}
	if reproduced < 6 {
		t.Errorf("%d entries carry a reproduction, want at least 6", reproduced)
	}
	e := k.ByID["cuda/peer-access-unsupported-by-hardware"]
	if e == nil {
		t.Fatal("seed entry cuda/peer-access-unsupported-by-hardware missing")
	}
	if e.ErrorCode != "cudaErrorPeerAccessUnsupported" || len(e.Workarounds) != 2 || e.Workarounds[1].SuccessRate != 0.7 {
		t.Errorf("seed entry decoded wrongly: %+v", e)
	}
	if e.File != "kb/cuda/peer-access-unsupported-by-hardware.json" {
		t.Errorf("File = %q", e.File)
	}
}

// Each folder under testdata/broken holds one real broken entry; the message
// must name the file, the line and the field a maintainer has to fix.
func TestLoadBroken(t *testing.T) {
	const file = "kb/cuda/peer-access-unsupported-by-hardware.json"
	cases := []struct {
		dir  string
		want []string // substrings of the one problem reported
	}{
		{"syntax", []string{file + ":8:3:", "invalid JSON"}},
		{"unknown-field", []string{file + ":8:3:", "priority: unknown field"}},
		{"wrong-type", []string{file + ":91:3:", "evidence_count:", "want integer"}},
		{"missing-required", []string{file + ":1:1:", "signature: missing required field"}},
		{"id-mismatch", []string{file + ":3:3:", "id:", "does not match the file path"}},
		{"regex-invalid", []string{file + ":6:3:", "regex: does not compile", "missing closing )"}},
		{"regex-not-portable", []string{file + ":6:3:", "regex:", "(?i)", "JavaScript"}},
		{"regex-no-match", []string{file + ":6:3:", "regex: does not match the entry's own signature"}},
		{"rate-range", []string{file + ":66:7:", "workarounds[1].success_rate:", "1.7"}},
		{"bad-date", []string{file + ":88:3:", "first_seen:", "date"}},
		{"bad-url", []string{file + ":81:3:", "official_doc_url:", "does not match pattern"}},
		{"unknown-link", []string{file + ":", "transition_graph.leads_to[0]:", `no entry has id "cuda/no-such-entry"`}},
		{"bad-condition", []string{file + ":68:7:", "workarounds[1].condition:", "condition does not parse", "ends too soon"}},
		{"bad-version", []string{file + ":23:7:", "versions[1].version:", "is not a constraint"}},
		{"no-signature-source", []string{file + ":4:3:", "signature_source: missing", "where the signature was copied from"}},
		{"source-without-url", []string{file + ":95:3:", "signature_source.url: missing", `kind "source" needs the url`}},
		{"reproduction-without-reproducer", []string{file + ":95:24:", "signature_source.kind:", "needs a reproducer"}},
		{"regex-backtracks", []string{file + ":12:3:", "regex: nested repetition", "backtracking engine"}},
		{"error-code-dotdot", []string{file + ":108:3:", "error_code:", `error code ".." is . or ..`, "e/<code>/"}},
		{"error-code-long", []string{file + ":108:3:", "error_code:", "is 304 bytes long, more than 100", "one folder name"}},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			_, err := Load(os.DirFS(filepath.Join("testdata/broken", c.dir)), WithDefaultSchema(schema(t)))
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("want Problems, got %v", err)
			}
			if len(ps) != 1 {
				t.Fatalf("want one problem, got %d:\n%v", len(ps), ps)
			}
			for _, w := range c.want {
				if !strings.Contains(ps[0].String(), w) {
					t.Errorf("message %q lacks %q", ps[0], w)
				}
			}
		})
	}
}

func TestWarningsForMissingChinese(t *testing.T) {
	// The seed entry as first imported: English in workarounds_zh, no why_fails_zh.
	k, err := Load(os.DirFS("testdata/untranslated"), WithDefaultSchema(schema(t)))
	if err != nil {
		t.Fatal(err)
	}
	var deadEnd, notChinese bool
	for _, w := range k.Warnings {
		if strings.Contains(w.Field, "dead_ends[") && strings.Contains(w.Message, "why_fails_zh") {
			deadEnd = true
		}
		if strings.HasPrefix(w.Field, "workarounds_zh[") && strings.Contains(w.Message, "no Chinese") {
			notChinese = true
		}
	}
	if !deadEnd || !notChinese {
		t.Errorf("want warnings for dead ends without Chinese and English workarounds_zh, got %v", k.Warnings)
	}
}

func TestNonPortable(t *testing.T) {
	cases := map[string]string{
		`peer access from GPU:\d+`:   "",
		`(?:a|b)+ c\b`:               "",
		`(?<gpu>\d+)`:                "",
		`[\]a]`:                      "",
		`(?i)x`:                      "(?i)",
		`(?P<n>x)`:                   "(?P<n>x)",
		`x\z`:                        `\z`,
		`\Ax`:                        `\A`,
		`\pL`:                        `\p`,
		`[[:alpha:]]`:                "[[:class:]]",
		`[^[:digit:]]`:               "[[:class:]]",
		`\x{41}`:                     `\x{...}`,
		`[]a]`:                       "[]...]",
		`\(cudaErrorPeerAccess\w+\)`: "",
	}
	for expr, want := range cases {
		if got := nonPortable(expr); got != want {
			t.Errorf("nonPortable(%q) = %q, want %q", expr, got, want)
		}
	}
}

func TestLocate(t *testing.T) {
	data := []byte("{\n  \"a\": [1, {\"b\": 2}],\n  \"c\": \"x\"\n}")
	cases := []struct {
		path      []string
		line, col int
	}{
		{nil, 1, 1},
		{[]string{"a"}, 2, 3},
		{[]string{"a", "1", "b"}, 2, 13},
		{[]string{"c"}, 3, 3},
		{[]string{"missing"}, 1, 1},
	}
	for _, c := range cases {
		l, col := lineCol(data, locate(data, c.path))
		if l != c.line || col != c.col {
			t.Errorf("locate(%v) = %d:%d, want %d:%d", c.path, l, col, c.line, c.col)
		}
	}
}

// A reload through a cache checks again only the files that changed.
func TestLoadWithCache(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../kb")); err != nil {
		t.Fatal(err)
	}
	var c Cache
	first, err := Load(os.DirFS(dir), WithCache(&c))
	if err != nil {
		t.Fatal(err)
	}
	const id = "cuda/peer-access-unsupported-by-hardware"
	file := filepath.Join(dir, filepath.FromSlash(id)+".json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"evidence_count": `, `"evidence_count": 1`, 1)
	if edited == string(data) {
		t.Fatal("no evidence_count to edit")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := Load(os.DirFS(dir), WithCache(&c))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range first.Entries {
		changed := second.ByID[e.ID] != e
		if changed != (e.ID == id) {
			t.Errorf("%s: reloaded %v, want %v", e.ID, changed, e.ID == id)
		}
	}
	if got, was := second.ByID[id].EvidenceCount, first.ByID[id].EvidenceCount; got <= was {
		t.Errorf("evidence_count %d after the edit, was %d", got, was)
	}

	// A broken edit is reported as without a cache, and fixing it loads again.
	if err := os.WriteFile(file, []byte(strings.Replace(edited, `"confidence": `, `"confidence": "x`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(os.DirFS(dir), WithCache(&c))
	_, uncached := Load(os.DirFS(dir))
	if err == nil || uncached == nil || err.Error() != uncached.Error() {
		t.Fatalf("with cache: %v\nwithout: %v", err, uncached)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(os.DirFS(dir), WithCache(&c)); err != nil {
		t.Fatal(err)
	}
}

// A warning is placed when it is shown: its line and column are those of
// its field in the file, as an error's are.
func TestWarningsArePlacedWhenShown(t *testing.T) {
	k, err := Load(os.DirFS("testdata/untranslated"), WithDefaultSchema(schema(t)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/untranslated/cuda/peer-access-unsupported-by-hardware.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	placed := 0
	for _, w := range k.Warnings {
		if !strings.HasPrefix(w.Field, "dead_ends[") && w.Field != "root_cause" {
			continue
		}
		p := w.Placed()
		if p.Line < 1 || p.Line > len(lines) || p.Col < 1 {
			t.Fatalf("%s: placed at %d:%d", w, p.Line, p.Col)
		}
		key := w.Field
		if strings.HasPrefix(key, "dead_ends[") {
			key = "{" // an element of the array: the object that starts there
		} else {
			key = `"` + key + `"`
		}
		if at := lines[p.Line-1][p.Col-1:]; !strings.HasPrefix(at, key) {
			t.Errorf("%s: line %d column %d reads %q, want the field %s", w, p.Line, p.Col, at, key)
		}
		if s := w.String(); !strings.Contains(s, fmt.Sprintf(":%d:%d: %s: ", p.Line, p.Col, w.Field)) {
			t.Errorf("shown as %q, want line %d column %d", s, p.Line, p.Col)
		}
		placed++
	}
	if placed == 0 {
		t.Fatalf("no warning to place in %v", k.Warnings)
	}
}

// An id's parts and an error code each name one folder of the site.
func TestSegmentProblem(t *testing.T) {
	for s, want := range map[string]string{
		"cudaErrorPeerAccessUnsupported": "",
		"NCCL_SYSTEM_ERROR:2":            "",
		"v1.2":                           "",
		".":                              "is . or ..",
		"..":                             "is . or ..",
		"":                               "is empty",
		"a/b":                            "slash",
		`a\b`:                            "slash",
		"a\x1b[2J":                       "control character",
		strings.Repeat("x", 101):         "more than 100",
	} {
		got := segmentProblem(s)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("segmentProblem(%q) = %q, want %q", s, got, want)
		}
	}
}

// Patterns a backtracking engine explodes on are refused; the KB's own
// patterns, which repeat only around required characters, pass.
func TestBacktracks(t *testing.T) {
	for expr, want := range map[string]string{
		`(a+)+$`:                   "nested",
		`(?:\w+\s?)*!`:             "nested",
		`x(?:a*b?)*y`:              "nested",
		`\d+\d+x`:                  "adjacent",
		`error: .*.*failed`:        "adjacent",
		`from (.+)(?: )?(.+) : No`: "adjacent",
		`> Peer access from .+ \(GPU\d+\) -> .+ \(GPU\d+\) : No`: "",
		`tensor\(\[+(?:0\.?,\s*)*0\.?\]+, device='cuda:\d+'`:     "",
		`(?:^|\n)(?:> )?\s*\[(?:0\.,\s*|\.\.\.,\s*)+0\.\]\]+`:    "",
		`BAR1 Memory Usage\s*\n\s*Total\s*: (?:256|512) MiB`:     "",
		`ACSCtl:\s+SrcValid[+-]`:                                 "",
		`a+b+`:                                                   "",
	} {
		re, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := backtracks(re.Simplify())
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("backtracks(%q) = %q, want %q", expr, got, want)
		}
	}
}

// Fields past their limits are refused, each named.
func TestEntryLimits(t *testing.T) {
	data, err := os.ReadFile("testdata/broken/regex-backtracks/cuda/peer-access-unsupported-by-hardware.json")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), `(?:\\w+\\s?)*supported`, "not supported", 1)
	s = strings.Replace(s, `"tags": []`, `"tags": ["t"`+strings.Repeat(`, "t"`, 72)+`]`, 1)
	s = strings.Replace(s, `"root_cause": "`, `"root_cause": "`+strings.Repeat("x", MaxText), 1)
	_, err = Load(fstest.MapFS{"cuda/peer-access-unsupported-by-hardware.json": {Data: []byte(s)}}, WithDefaultSchema(schema(t)))
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 2 {
		t.Fatalf("want two problems, got %v", err)
	}
	for i, want := range []string{"root_cause: 16", "tags: 73 items, more than the 64"} {
		if !strings.Contains(ps[i].String(), want) {
			t.Errorf("problem %q lacks %q", ps[i], want)
		}
	}
}
