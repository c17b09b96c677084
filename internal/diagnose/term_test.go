package diagnose

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/probe/facts"
)

const torchPeer = "[rank1]: RuntimeError: CUDA error: peer access is not supported between these two devices\n"

var (
	osc8 = regexp.MustCompile("\x1b]8;;(https://kb\\.example\\.org/[^\x1b]+)\x1b\\\\")
	sgr  = regexp.MustCompile("\x1b\\[[0-9;]*m")
)

// explain runs Explain on text with o and returns what it printed.
func explain(t *testing.T, text string, o Options) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := Explain(&b, repoSite(t), strings.NewReader(text), nil, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// On a terminal (here a fake one: Options.Term), links are OSC 8
// hyperlinks, words are coloured unless colour is off, and text wraps to
// the width; in a pipe the output has no escape at all.
func TestExplainOnATerminal(t *testing.T) {
	o := Options{Lang: "en", BaseURL: "https://kb.example.org/"}
	plain := explain(t, torchPeer, o)
	if strings.Contains(plain, "\x1b") {
		t.Errorf("escape sequences in plain output:\n%q", plain)
	}

	o.Term = &Terminal{Color: true, Width: 60}
	out := explain(t, torchPeer, o)
	links := osc8.FindAllStringSubmatch(out, -1)
	if len(links) < 2 || links[0][1] != "https://kb.example.org/en/kb/cuda/peer-access-unsupported-by-hardware/" {
		t.Errorf("hyperlinks %q", links)
	}
	if !sgr.MatchString(out) {
		t.Error("no colour on a colour terminal")
	}
	for _, l := range strings.Split(osc8.ReplaceAllString(sgr.ReplaceAllString(out, ""), ""), "\n") {
		l = strings.ReplaceAll(l, "\x1b]8;;\x1b\\", "")
		// Lines of an id and its code, a message or a link are not broken.
		if n := utf8.RuneCountInString(l); n > 60 && !strings.Contains(l, "https://") && !strings.HasPrefix(strings.TrimSpace(l), "●") && !strings.HasSuffix(l, "]") {
			t.Errorf("line of %d columns on a terminal 60 wide: %q", n, l)
		}
	}
	// The same words as the plain output, only wrapped and decorated.
	strip := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if got := strip(strings.ReplaceAll(osc8.ReplaceAllString(sgr.ReplaceAllString(out, ""), ""), "\x1b]8;;\x1b\\", "")); got != strip(plain) {
		t.Errorf("terminal output says something else than plain output:\n%s\n---\n%s", got, strip(plain))
	}

	o.Term = &Terminal{Color: false, Width: 0} // NO_COLOR
	out = explain(t, torchPeer, o)
	if sgr.MatchString(out) || !osc8.MatchString(out) {
		t.Errorf("without colour: SGR %v, hyperlinks %v", sgr.MatchString(out), osc8.MatchString(out))
	}
}

// Without --base-url a site-root path would open nowhere: the links point
// at p2pkb serve's default address instead, as hyperlinks.
func TestTerminalLinksNeedAnAbsoluteURL(t *testing.T) {
	out := explain(t, torchPeer, Options{Lang: "en", Term: &Terminal{}})
	if !strings.Contains(out, "\x1b]8;;"+ServeURL+"en/kb/cuda/peer-access-to-same-device/") {
		t.Errorf("no hyperlink to p2pkb serve's page:\n%q", out)
	}
}

func TestWrapKeepsEveryWord(t *testing.T) {
	o := Options{Term: &Terminal{Width: 30}}
	for _, s := range []string{
		"Disable peer-to-peer access in your code by setting the environment variable NCCL_P2P_DISABLE=1 before launching the script.",
		"在启动脚本之前设置环境变量 NCCL_P2P_DISABLE=1，在代码中禁用点对点访问。对于 PyTorch DistributedDataParallel，使用环境变量。",
		"averyveryverylongwordwithoutanyspacesthatcannotbreakanywhereatall and more",
	} {
		got := o.wrap(s, 4, 4)
		lines := strings.Split(got, "\n")
		if len(lines) < 2 {
			t.Errorf("not wrapped: %q", got)
		}
		for i, l := range lines {
			cols := 0
			for _, r := range l {
				cols++
				if isWide(r) {
					cols++
				}
			}
			if i > 0 && !strings.HasPrefix(l, "    ") {
				t.Errorf("line %d not indented: %q", i, l)
			}
			if i > 0 {
				cols -= 4
			}
			if cols > 26 {
				t.Errorf("line %d is %d columns, over 26: %q", i, cols, l)
			}
		}
		if strings.ReplaceAll(strings.Join(strings.Fields(got), ""), " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Errorf("wrap lost text: %q -> %q", s, got)
		}
	}
}

// explain with --repo-url and nothing known prints a link to report the
// input: a new issue with the lines that look like errors; with a known
// message, none.
func TestExplainOffersToReportTheUnknown(t *testing.T) {
	o := Options{Lang: "en", RepoURL: "https://github.com/p2pkb/p2pkb"}
	out := explain(t, "epoch 1\nFrobnicatorError: zylophone out of tune on GPU 2\nepoch 2\n", o)
	i := strings.Index(out, "https://github.com/p2pkb/p2pkb/issues/new?")
	if i < 0 {
		t.Fatalf("no report link:\n%s", out)
	}
	u, err := url.Parse(strings.Fields(out[i:])[0])
	if err != nil {
		t.Fatal(err)
	}
	if body := u.Query().Get("body"); !strings.Contains(body, "FrobnicatorError: zylophone out of tune on GPU 2") || strings.Contains(body, "epoch 1") {
		t.Errorf("body:\n%s", body)
	}
	if out := explain(t, torchPeer, o); strings.Contains(out, "issues/new") {
		t.Errorf("report link for a known message:\n%s", out)
	}
	var b bytes.Buffer
	o.JSON = true
	if _, err := Explain(&b, repoSite(t), strings.NewReader("FrobnicatorError: x\n"), nil, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"report_url": "https://github.com/p2pkb/p2pkb/issues/new?`) {
		t.Errorf("JSON without report_url:\n%s", b.String())
	}
}

// search prints each result's root cause and best fix in one line.
func TestSearchShowsSnippets(t *testing.T) {
	ix, err := search.Build(search.Docs(repoSite(t)), "")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var b bytes.Buffer
	if _, err := Search(&b, ix, "peer access unsupported hardware topology PCIe switches", Options{Lang: "en", Limit: 1, Term: &Terminal{Width: 50}}); err != nil {
		t.Fatal(err)
	}
	want := "   The two GPUs do not support direct peer-to-peer\n   (P2P) memory access, typically due to hardware\n"
	if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "   Fix: Disable peer-to-peer") {
		t.Errorf("search output:\n%s", b.String())
	}
}

// Control characters read from input (a log line, a fact's line, a probe
// report's strings) are shown escaped in text output, in a pipe and on a
// terminal, so they cannot clear the screen, set the title, write the
// clipboard or make a link; --json keeps them, escaped as JSON escapes.
func TestControlCharactersAreShownEscaped(t *testing.T) {
	log := "[rank1]: RuntimeError: CUDA error: peer access is not supported between these two devices \x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;owned\x07\u009b31m\r\n" +
		"vm:1:1 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to \x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\\n"
	rep := &facts.Report{SchemaVersion: 1, NVML: facts.NVML{Available: true},
		Test: &facts.Test{Ran: false, Error: "cuInit: 580.65.06\x1b]0;owned\x07"}}
	run := func(o Options) string {
		var b bytes.Buffer
		o.Paste, o.Test = paste.New(), rep.Test
		if _, err := Match(&b, repoSite(t), rules.FromReport(rep), strings.NewReader(log), o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, c := range []struct {
		name string
		term *Terminal
	}{{"pipe", nil}, {"terminal", &Terminal{Color: true, Width: 100}}} {
		out := run(Options{Lang: "en", BaseURL: "https://kb.example.org/", Term: c.term})
		ours := strings.ReplaceAll(osc8.ReplaceAllString(sgr.ReplaceAllString(out, ""), ""), "\x1b]8;;\x1b\\", "")
		if i := strings.IndexAny(ours, "\x1b\x07\r\u009b"); i >= 0 {
			t.Errorf("%s: a control character of the input reached the output: %q", c.name, ours[max(0, i-40):min(len(ours), i+40)])
		}
		for _, want := range []string{`\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;owned\x07\u009b31m`, `to \x1b]8;;https://evil.example/\x1b\click`, `580.65.06\x1b]0;owned\x07`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the output does not show %s", c.name, want)
			}
		}
	}
	out := run(Options{Lang: "en", JSON: true})
	if !strings.Contains(out, `\u001b]52;c;ZXZpbA==\u0007`) {
		t.Errorf("--json lost the line as read: %.300s", out)
	}
}

// A message late in a long line is shown: whole in a pipe (the line is cut
// to 1,000 bytes), and on a terminal in 200 characters around the match.
func TestLongLineShowsTheMessage(t *testing.T) {
	line := strings.Repeat("x=1 ", 150) + strings.TrimPrefix(torchPeer, "[rank1]: ")
	msg := "peer access is not supported between these two devices"
	plain := explain(t, line, Options{Lang: "en"})
	if first, _, _ := strings.Cut(plain, "\n"); !strings.Contains(first, msg) {
		t.Errorf("in a pipe the message's line lacks the message: %q", first)
	}
	term := explain(t, line, Options{Lang: "en", Term: &Terminal{}})
	first, _, _ := strings.Cut(term, "\n")
	if !strings.Contains(first, msg) || utf8.RuneCountInString(first) > 200+len("● line 1: ")+2 {
		t.Errorf("on a terminal the message's line is %d characters: %q", utf8.RuneCountInString(first), first)
	}
}

// A workaround or dead end without a rate (an entry gives one only with
// its basis) shows none, not a measured-looking "[  0%]"; one with a rate
// shows it.
func TestRatesShownOnlyWhereGiven(t *testing.T) {
	// NCCL's out-of-memory WARN (NVIDIA/nccl#295), whose entry gives no rates.
	oom := explain(t, "node:402:402 [0] enqueue.cc:1451 NCCL WARN Cuda failure 2 'out of memory'\n", Options{Lang: "en"})
	if !strings.Contains(oom, "NCCL_BUFFSIZE") || strings.Contains(oom, "0%]") || strings.Contains(oom, "0% fail]") {
		t.Errorf("an entry without rates shows a rate or lacks its workaround:\n%s", oom)
	}
	if peer := explain(t, torchPeer, Options{Lang: "en"}); !regexp.MustCompile(`\d\. \[ ?\d{2,3}%\] `).MatchString(peer) {
		t.Errorf("an entry with rates shows none:\n%s", peer)
	}
}
