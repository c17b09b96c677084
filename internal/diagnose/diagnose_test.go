package diagnose

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/probe/facts"
)

func repoSite(t testing.TB) *site.Site {
	t.Helper()
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	return site.New(k, a, "")
}

func probeFacts(t testing.TB, path string) rules.Facts {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rules.FromReport(r)
}

// The line observer sees every line once, in order, with its number, and the
// facts gathered from the input rank the causes, below the machine's.
func TestObserverAndPastedFacts(t *testing.T) {
	s := repoSite(t)
	log := "one\r\ntwo\n[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\nfour"
	var seen []string
	mig := probeFacts(t, "../../probe/testdata/golden/mig-enabled.json")
	asked := 0
	o := Options{Lang: "en", Observe: func(n int, line []byte) { seen = append(seen, strings.Repeat("#", n)+string(line)) },
		PasteFacts: func() rules.Facts { asked++; return mig }}
	msgs, sum, err := diagnose(io.Discard, s, strings.NewReader(log), nil, o, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, "|"); got != "#one|##two|###[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices|####four" {
		t.Errorf("observed %q", got)
	}
	if sum.Errors != 1 || asked == 0 || msgs[0].Causes[0].ID != "cuda/peer-access-under-mig" {
		t.Errorf("with the pasted facts of a MIG machine: %+v, first cause %s", sum, msgs[0].Causes[0].ID)
	}
	// The machine's facts win over the pasted ones.
	h200 := probeFacts(t, "../../probe/testdata/real/h200x2.json")
	msgs, _, err = diagnose(io.Discard, s, strings.NewReader(log), h200, o, true)
	if err != nil {
		t.Fatal(err)
	}
	if c := msgs[0].Causes[0]; c.ID != "cuda/peer-access-to-same-device" || c.Verdict != "applies" {
		t.Errorf("machine facts under pasted ones: first cause %s %s", c.ID, c.Verdict)
	}
}

// A log repeats its lines (per rank, per step): each message is reported
// once, at its first line, however often it repeats.
func TestRepeatedLinesAreOneMessage(t *testing.T) {
	s := repoSite(t)
	var b strings.Builder
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "step %d\nvm:651:651 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n[rank%d]: RuntimeError: CUDA error: peer access is not supported between these two devices\n", i, i%2)
	}
	sum, err := Explain(io.Discard, s, strings.NewReader(b.String()), nil, Options{Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Errors != 1 || sum.Notes != 1 {
		t.Errorf("%d errors and %d notes from two messages repeated 500 times", sum.Errors, sum.Notes)
	}
}

// Every entry's signature, pasted as the software printed it (over several
// lines where it did), is recognized by a pattern as that entry, or as the
// error inside a layer's line (composed): a pattern that only a signature
// joined into one line matches would leave the real output to the words
// alone.
func TestEverySignatureIsRecognizedAsPrinted(t *testing.T) {
	s := repoSite(t)
	for _, e := range s.KB.Entries {
		msgs, _, err := diagnose(io.Discard, s, strings.NewReader(e.Signature+"\n"), nil, Options{Lang: "en"}, false)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range msgs {
			for _, c := range m.Causes {
				found = found || !m.ByWords && c.ID == e.ID
			}
		}
		if !found {
			t.Errorf("%s: its signature %q is not recognized as it", e.ID, e.Signature)
		}
	}
}

// A version story beside a line only an entry of its shape answers (a
// program's own argument check) is answered once, first: the symptoms that
// answer such a line hold it already (the argparse line of
// invoke-ai/InvokeAI#1104, versions told as in ray-project/ray#51154).
func TestVersionStoryBesideShapeLineOnce(t *testing.T) {
	s := repoSite(t)
	in := "`invoke.py: error: unrecognized arguments: --device cuda:0`\n" +
		"However, the same deployment works fine with vLLM 0.6.6.post1 under identical environment conditions, and fails with vLLM 0.7.2.\n"
	msgs, _, err := diagnose(io.Discard, s, strings.NewReader(in), nil, Options{Lang: "en", Paste: paste.New()}, false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		if m.symptom == "version.regression" {
			n++
		}
	}
	if n != 1 || len(msgs) == 0 || msgs[0].symptom != "version.regression" {
		var got []string
		for _, m := range msgs {
			got = append(got, fmt.Sprintf("line %d %q", m.Line, m.symptom))
		}
		t.Errorf("the version story is answered %d times, want once and first: %v", n, got)
	}
}
