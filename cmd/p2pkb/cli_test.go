package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// Exit statuses: 0 recognized, 1 nothing recognized, 2 a usage or input
// error; every message the program writes itself starts with "p2pkb".
func TestExitStatuses(t *testing.T) {
	known := "RuntimeError: CUDA error: peer access is not supported between these two devices"
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"explain", known}, 0},
		{[]string{"explain", "nothing to see here"}, 1},
		{[]string{"explain", "--bogus"}, 2},
		{[]string{"explain", "--file", "/no/such/file.log"}, 2},
		{[]string{"search"}, 2},
		{[]string{"search", "--limit", "0", "peer"}, 2},
		{[]string{"fleet"}, 2},
		{[]string{"fleet", "/no/such/folder"}, 2},
		{[]string{"match"}, 2},
		{[]string{"frobnicate"}, 2},
		{[]string{"help", "frobnicate"}, 2},
		{[]string{"explain", "--lang", "fr", known}, 2},
		{[]string{"explain", "--lang", "zh-CN", known}, 0},
		{[]string{"explain", "--lang", "EN", known}, 0},
		{[]string{"explain", "--lang", "zh_CN.UTF-8", known}, 0},
		{[]string{"search", "--lang", "fr", "peer"}, 2},
		{[]string{"search", "--lang", "zh-CN", "peer"}, 0},
		{[]string{"search", "--lang", "EN", "peer"}, 0},
		{[]string{"match", "--lang", "fr", known}, 2},
		{[]string{"fleet", "--lang", "fr", "../../probe/testdata/real"}, 2},
		{[]string{"build", "--bogus"}, 2},
		{[]string{"build", "--kb", "/no/such/kb"}, 2},
		{[]string{"serve", "--bogus"}, 2},
		{[]string{"serve", "--kb", "/no/such/kb"}, 2},
		{[]string{"lint", "--bogus"}, 2},
		{[]string{"lint", "--kb", "/no/such/kb"}, 2},
		{[]string{"audit", "--bogus"}, 2},
		{[]string{"audit", "--kb", "/no/such/kb"}, 2},
		{[]string{"new", "--bogus"}, 2},
		{[]string{"version"}, 0},
		{[]string{"version", "--bogus"}, 2},
		{[]string{"help", "explain"}, 0},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code {
			t.Errorf("p2pkb %s: exit %d, want %d (stderr %q)", strings.Join(c.args, " "), code, c.code, stderr)
		}
		if stderr != "" && !strings.HasPrefix(stderr, "p2pkb") && !strings.HasPrefix(stderr, "usage: p2pkb") {
			t.Errorf("p2pkb %s: stderr does not name the program: %q", strings.Join(c.args, " "), stderr)
		}
	}
	_, _, stderr := runCLI(t, "", "explain", "--lang", "fr", known)
	if !strings.Contains(stderr, "en") || !strings.Contains(stderr, "zh") {
		t.Errorf("a refused --lang should list the languages: %q", stderr)
	}
	_, out, _ := runCLI(t, "", "explain", "--lang", "zh-CN", known)
	if !strings.Contains(out, "原因") {
		t.Errorf("--lang zh-CN should answer in Chinese:\n%s", out)
	}
}

// Every command's help has the same form: the usage line, what it does, its
// flags with the names of their values, and the exit statuses; `help CMD`
// prints it on standard output.
func TestHelpOfEveryCommand(t *testing.T) {
	for _, c := range commands {
		code, out, stderr := runCLI(t, "", "help", c.name)
		if code != 0 || stderr != "" {
			t.Errorf("help %s: exit %d, stderr %q", c.name, code, stderr)
			continue
		}
		if !strings.HasPrefix(out, "usage: p2pkb "+c.name) || !strings.Contains(out, c.desc[:20]) {
			t.Errorf("help %s: no usage line or description:\n%s", c.name, out)
		}
		if c.name == "help" || c.name == "version" {
			continue
		}
		if !strings.Contains(out, "exit status: 0") {
			t.Errorf("help %s: no exit statuses:\n%s", c.name, out)
		}
		for _, bad := range []string{" string\n", " int\n", " float\n", "cpuprofile", "Usage of"} {
			if strings.Contains(out, bad) {
				t.Errorf("help %s shows %q:\n%s", c.name, bad, out)
			}
		}
		code, _, stderr = runCLI(t, "", c.name, "-h")
		if code != 0 || !strings.HasPrefix(stderr, "usage: p2pkb "+c.name) {
			t.Errorf("%s -h: exit %d, %q", c.name, code, stderr)
		}
	}
	code, out, _ := runCLI(t, "", "help")
	for _, c := range commands {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Errorf("help lacks %s:\n%s", c.name, out)
		}
	}
	if code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, v := range []string{"version", "--version"} {
		if code, out, _ := runCLI(t, "", v); code != 0 || !strings.HasPrefix(out, "p2pkb ") {
			t.Errorf("%s: exit %d, %q", v, code, out)
		}
	}
}

// new refuses a line the KB already explains, naming the entry, unless
// told; and refuses a folder that is no KB.
func TestNewRefusesKnownLinesAndNonKBFolders(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "new", "--kb", dir, "frobnicator: widget 7 exploded")
	if code != 2 || !strings.Contains(stderr, "not a KB folder") {
		t.Errorf("new outside a KB: exit %d, %q", code, stderr)
	}
	kbDir := kbWith(t, filepath.Join(dir, "kb"), "cuda/peer-access-to-same-device.json")
	line := "[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices"
	code, _, stderr = runCLI(t, "", "new", "--kb", kbDir, line)
	if code != 1 || !strings.Contains(stderr, "cuda/peer-access-to-same-device") {
		t.Errorf("new with a known line: exit %d, %q", code, stderr)
	}
	code, out, stderr := runCLI(t, "", "new", "--kb", kbDir, "--force", line)
	if code != 0 || !strings.Contains(out, kbDir) {
		t.Errorf("new --force: exit %d, %q %q", code, out, stderr)
	}
	// An entry of the line's shape (a program's own check) names no message:
	// a new entry for one is written.
	shapeDir := kbWith(t, filepath.Join(dir, "kb2"), "python/program-own-check.json")
	code, out, stderr = runCLI(t, "", "new", "--kb", shapeDir, "AssertionError: Visual sequence length (14310) must be divisible by cp_size (4).")
	if code != 0 || !strings.Contains(out, shapeDir) {
		t.Errorf("new with a line only an entry of its shape answers: exit %d, %q %q", code, out, stderr)
	}
}

// kbWith makes dir a KB folder holding the repository's schema and the
// entries named, and returns it.
func kbWith(t *testing.T, dir string, entries ...string) string {
	t.Helper()
	for _, f := range append([]string{"schema.json"}, entries...) {
		data, err := os.ReadFile(filepath.Join("../../kb", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Links in terminal output open somewhere: the site's address when given,
// else p2pkb serve's; a KB text's link relative to its page is made whole.
func TestTerminalLinksAreAbsolute(t *testing.T) {
	acs := "ACSCtl: SrcValid+ TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-"
	_, out, _ := runCLI(t, "", "explain", "--lang", "en", acs)
	if strings.Contains(out, "../") || !strings.Contains(out, "<http://127.0.0.1:8080/en/articles/iommu-acs-and-p2p/>") || !strings.Contains(out, "More: http://127.0.0.1:8080/en/kb/") {
		t.Errorf("links without --base-url:\n%s", out)
	}
	_, out, _ = runCLI(t, "", "explain", "--lang", "en", "--base-url", "https://kb.example.org/docs/", acs)
	if !strings.Contains(out, "<https://kb.example.org/docs/en/articles/iommu-acs-and-p2p/>") || !strings.Contains(out, "More: https://kb.example.org/docs/en/kb/") {
		t.Errorf("links with --base-url:\n%s", out)
	}
}
