package diagnose

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// fuzzSeeds are real logs: the reproductions' outputs and the pasted
// outputs of internal/paste, plus lines that test the reader's edges.
func fuzzSeeds(f *testing.F) {
	var files []string
	for _, glob := range []string{"../../kb/repro/*.txt", "../paste/testdata/*.txt", "../paste/testdata/*.log"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	for i, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), uint8(i))
	}
	msg := "RuntimeError: CUDA error: peer access is not supported between these two devices"
	for i, s := range []string{
		"", "\n", "\r\n\r\n", msg, msg + "\r\n", "\x00" + msg + "\x00",
		"  " + msg + "  \n" + msg + "\n",
		strings.Repeat("x", 1500) + msg,
		msg + strings.Repeat("\xff", 1200),
		"NCCL WARN Cuda failure 'peer access is not supported between these two devices'\nNCCL INFO NCCL version 2.28.9+cuda13.0",
	} {
		f.Add(s, uint8(i))
	}
}

var fuzzModel struct {
	once sync.Once
	s    *site.Site
}

// chunks reads in at most 1+n%17 bytes at a time, sizes drawn from n, so
// that lines arrive cut anywhere.
type chunks struct {
	r   io.Reader
	rng *rand.Rand
	max int
}

func (c *chunks) Read(p []byte) (int, error) {
	n := 1 + c.rng.IntN(c.max)
	return c.r.Read(p[:min(len(p), n)])
}

func newChunks(in string, seed uint8) io.Reader {
	return &chunks{strings.NewReader(in), rand.New(rand.NewPCG(uint64(seed), 1)), 1 + int(seed)%17}
}

// inputLines are the lines as explain numbers them, without their endings.
func inputLines(in string) []string {
	lines := strings.Split(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// FuzzExplain reads arbitrary text as explain and match do: no panic and no
// error; the same messages and pasted facts whether the input is read whole
// or in small random pieces; every message on a line of the input whose text
// it shows and which holds what the pattern matched; the summary counts the
// messages by severity, so explain's exit status (1 when no error message is
// found) follows from what it printed; match --follow prints the same
// messages, each once, and the summary.
func FuzzExplain(f *testing.F) {
	fuzzSeeds(f)
	fuzzModel.once.Do(func() { fuzzModel.s = repoSite(f) })
	s := fuzzModel.s
	machine := probeFacts(f, "../../probe/testdata/real/h200x2.json")
	f.Fuzz(func(t *testing.T, in string, seed uint8) {
		lines := inputLines(in)
		x := paste.New()
		o := Options{Lang: "en", Paste: x, PasteFacts: func() rules.Facts { return paste.Facts(x.Facts()) }}
		msgs, sum, err := diagnose(io.Discard, s, strings.NewReader(in), nil, o, false)
		var notText *NotTextError
		if errors.As(err, &notText) {
			// Refused whole, naming a line that is not text; read in
			// pieces, the same answer.
			if notText.Line < 1 || notText.Line > len(lines) || !strings.Contains(lines[notText.Line-1], "\x00") && len(strings.Join(lines[:notText.Line], "\n")) > headBytes+len(lines[notText.Line-1]) {
				t.Fatalf("refused at line %d of %d: %v", notText.Line, len(lines), err)
			}
			if _, err2 := Explain(io.Discard, s, newChunks(in, seed), nil, Options{Lang: "en", JSON: true, Paste: paste.New()}); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("read in pieces: %v; whole: %v", err2, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		pasted := x.Facts()
		errs, closest := 0, 0
		for _, m := range msgs {
			if m.ByWords {
				// Nothing recognized: the entries closest to its words, on
				// no line, counted by no summary, found by a bounded query
				// made of the input's lines.
				closest++
				if len(msgs) != 1 || m.Line != 0 || m.Words == nil || len(m.Words.Query) > search.MaxQueryBytes || len(m.Causes) == 0 || len(m.Causes) > search.MaxClosest+1 {
					t.Fatalf("by words: %d messages, line %d, %d causes, words %+v", len(msgs), m.Line, len(m.Causes), m.Words)
				}
				for _, l := range strings.Split(m.Words.Query, "\n") {
					if !slices.ContainsFunc(lines, func(x string) bool { return strings.HasPrefix(x, l) }) {
						t.Fatalf("by words: %q is no line of the input", l)
					}
				}
				continue
			}
			if m.Line < 1 || m.Line > len(lines) {
				t.Fatalf("message on line %d of %d", m.Line, len(lines))
			}
			line := lines[m.Line-1]
			if len(line) <= maxLineText {
				if m.LineText != strings.TrimSpace(line) {
					t.Fatalf("line %d %q shown as %q", m.Line, line, m.LineText)
				}
			} else if !strings.HasSuffix(m.LineText, "…") || len(m.LineText) > maxLineText+len("…") ||
				utf8.ValidString(line) && !strings.Contains(line, strings.TrimSuffix(m.LineText, "…")) {
				t.Fatalf("long line %d shown as %q", m.Line, m.LineText)
			}
			if m.Match == "" || len(line) <= pieceBytes && !strings.Contains(line, m.Match) {
				t.Fatalf("line %d %q: matched %q", m.Line, line, m.Match)
			}
			if len(m.Causes) == 0 && (!m.Composed || len(m.Collect) == 0) {
				t.Fatalf("line %d: a message without causes, and not one composed from its parts with what to collect next", m.Line)
			}
			if m.Severity == "error" {
				errs++
			}
		}
		if sum.Errors != errs || sum.Notes != len(msgs)-errs-closest {
			t.Fatalf("summary %+v for %d messages, %d errors", sum, len(msgs), errs)
		}
		// Read in small pieces, through the JSON tools read, the same
		// messages and facts come out (JSON carries text as valid UTF-8).
		var out bytes.Buffer
		got, err := Explain(&out, s, newChunks(in, seed), nil, Options{Lang: "en", JSON: true, Paste: paste.New()})
		if err != nil {
			t.Fatal(err)
		}
		var d Diagnosis
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("explain --json: %v\n%s", err, out.Bytes())
		}
		if got != sum || d.Summary != sum {
			t.Fatalf("read in pieces, explain --json: %+v; whole %+v", d.Summary, sum)
		}
		if got, want := shortMessages(d.Messages), shortMessages(viaJSON(t, msgs)); !reflect.DeepEqual(got, want) {
			t.Fatalf("read in pieces %q, whole %q", got, want)
		}
		if want := viaJSON(t, pasted); !reflect.DeepEqual(d.Facts, want) && len(d.Facts)+len(want) > 0 {
			t.Fatalf("facts read in pieces %v, whole %v", d.Facts, want)
		}
		// match judges the same messages, and --follow prints each once, as it
		// appears.
		out.Reset()
		if _, err := Match(&out, s, machine, strings.NewReader(in), Options{Lang: "en", JSON: true, Follow: true, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		printed := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		// match judges by the machine's facts too, which may silence a note
		// (silent) that --follow wrote as it came: those are all it prints
		// beyond match's own messages.
		out.Reset()
		if _, err := Match(&out, s, machine, strings.NewReader(in), Options{Lang: "en", JSON: true, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		var whole Diagnosis
		if err := json.Unmarshal(out.Bytes(), &whole); err != nil {
			t.Fatalf("match --json: %v", err)
		}
		kept := map[int]bool{}
		for _, m := range whole.Messages {
			kept[m.Line] = true
		}
		printed = slices.DeleteFunc(printed, func(l string) bool {
			var j Message
			return json.Unmarshal([]byte(l), &j) == nil && j.Severity == "note" && j.Line > 0 && !kept[j.Line]
		})
		if len(printed) != len(whole.Messages)+1 {
			t.Fatalf("match --follow --json: %d lines for %d messages", len(printed), len(whole.Messages))
		}
		msgs = whole.Messages
		inOrder := viaJSON(t, msgs) // errors first; --follow prints in the input's order
		sort.SliceStable(inOrder, func(i, j int) bool { return inOrder[i].Line < inOrder[j].Line })
		for i, m := range inOrder {
			var j Message
			if err := json.Unmarshal([]byte(printed[i]), &j); err != nil || j.Line != m.Line || j.Match != m.Match || len(j.Causes) != len(m.Causes) {
				t.Fatalf("match --follow --json, message %d: %s (%v); explain found line %d %q", i, printed[i], err, m.Line, m.Match)
			}
		}
	})
}

// viaJSON is v as JSON gives it back.
func viaJSON[T any](t *testing.T, v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// shortMessages is each message as line:match:causes.
func shortMessages(ms []Message) []string {
	var out []string
	for _, m := range ms {
		var ids []string
		for _, c := range m.Causes {
			ids = append(ids, c.ID)
		}
		sort.Strings(ids)
		out = append(out, strings.Join([]string{strconv.Itoa(m.Line), m.Match, m.Severity, strings.Join(ids, ",")}, ":"))
	}
	return out
}
