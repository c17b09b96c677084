package main

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
)

// explain with $P2PKB_REPO_URL and nothing known prints a link that opens a
// new issue with the input's error lines; into a pipe the output has no
// escape sequence (colour and hyperlinks are for terminals only).
func TestExplainReportLinkFromTheEnvironment(t *testing.T) {
	t.Setenv("P2PKB_REPO_URL", "https://github.com/p2pkb/p2pkb")
	var out, errb bytes.Buffer
	in := strings.NewReader("step 7\nFrobnicatorError: zylophone out of tune on GPU 2\n")
	if code := run([]string{"explain", "--lang", "en"}, in, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1 (nothing recognized); stderr: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("escape sequences in a pipe:\n%q", out.String())
	}
	i := strings.Index(out.String(), "https://github.com/p2pkb/p2pkb/issues/new?")
	if i < 0 {
		t.Fatalf("no report link:\n%s", out.String())
	}
	u, err := url.Parse(strings.Fields(out.String()[i:])[0])
	if err != nil {
		t.Fatal(err)
	}
	if body := u.Query().Get("body"); !strings.Contains(body, "FrobnicatorError: zylophone out of tune on GPU 2") || strings.Contains(body, "step 7") {
		t.Errorf("issue body:\n%s", body)
	}

	// --repo-url "" turns it off.
	out.Reset()
	run([]string{"explain", "--lang", "en", "--repo-url", ""}, strings.NewReader("FrobnicatorError: x\n"), &out, &errb)
	if strings.Contains(out.String(), "issues/new") {
		t.Errorf("report link with --repo-url \"\":\n%s", out.String())
	}
}

// A writer that is not a terminal gets plain text.
func TestTerminalOnlyForATerminal(t *testing.T) {
	if terminal(&bytes.Buffer{}) != nil {
		t.Error("a buffer taken for a terminal")
	}
}
