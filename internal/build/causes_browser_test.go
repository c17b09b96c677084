package build_test

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
)

const torchPeerMsg = "RuntimeError: CUDA error: peer access is not supported between these two devices"

// causeOrder is the ids of the causes shown for the pasted message, in order.
const causeOrder = `[...document.querySelectorAll("#search-causes .causes li[data-cause-id]")].map(li => li.dataset.causeId + " " + (li.dataset.truth || ""))`

// The search page shows the causes of a pasted message together, ranked as
// p2pkb match ranks them: by evidence without a machine, by the facts of
// the machine's report with one, and says what would tell them apart.
func TestBrowserCausesOfOneMessage(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	q := "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n[rank0]: " + torchPeerMsg + "\n"

	runQuery(t, b, root, "en", q)
	got := browsertest.Eval[[]string](b, causeOrder)
	// Without a machine, by the reports each entry cites, then confidence (search.Before).
	if strings.Join(got, ",") != "cuda/peer-access-unsupported-by-hardware unknown,cuda/peer-access-under-mig unknown,cuda/peer-access-to-same-device unknown" {
		t.Errorf("causes without a machine: %v", got)
	}
	head := browsertest.Eval[string](b, `document.querySelector("#search-causes .causes-head").textContent`)
	if head != "Line 3: [rank0]: "+torchPeerMsg {
		t.Errorf("message shown as %q", head)
	}
	tell := browsertest.Eval[string](b, `(document.querySelector("#search-causes .tell-apart") || {}).textContent || ""`)
	if !strings.HasPrefix(tell, "To tell them apart, find out: ") || !strings.Contains(tell, "P2P between all GPU pairs") || !strings.Contains(tell, "Run p2p-probe, or paste the output of nvidia-smi topo -p2p r") {
		t.Errorf("tell apart: %q", tell)
	}
	b.Screenshot("causes_no_machine")

	// The real two-H200 report: the same-device cause holds, first in the
	// causes and in the results.
	h200, _ := os.ReadFile("../../probe/testdata/real/h200x2.json")
	if msg := paste(t, b, string(h200)); !strings.Contains(msg, "Read") {
		t.Fatalf("report refused: %s", msg)
	}
	waitFor(t, b, `document.querySelector('#search-causes li[data-truth="applies"]') !== null`)
	got = browsertest.Eval[[]string](b, causeOrder)
	if strings.Join(got, ",") != "cuda/peer-access-to-same-device applies,cuda/peer-access-unsupported-by-hardware does_not_apply,cuda/peer-access-under-mig does_not_apply" {
		t.Errorf("causes on two NVLinked H200s: %v", got)
	}
	verdicts := browsertest.Eval[[]string](b, `[...document.querySelectorAll("#search-causes .cause-verdict")].map(e => e.textContent)`)
	if len(verdicts) != 3 || verdicts[0] != "applies: P2P works between all GPU pairs (GPU0-GPU1 over NV18); no MIG" || verdicts[2] != "does not apply: no MIG" {
		t.Errorf("verdicts %q", verdicts)
	}
	if top := browsertest.Eval[string](b, `document.querySelector("#search-results li").dataset.resultId`); top != "cuda/peer-access-to-same-device" {
		t.Errorf("first result %q", top)
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll("#search-causes .tell-apart").length`); n != 0 {
		t.Error("tells how to tell causes apart although one holds")
	}
	b.Screenshot("causes_h200")

	// A MIG machine: the MIG cause first; the page follows a new report.
	mig, _ := os.ReadFile("../../probe/testdata/golden/mig-enabled.json")
	paste(t, b, string(mig))
	waitFor(t, b, `document.querySelector("#search-causes li[data-cause-id]").dataset.causeId === "cuda/peer-access-under-mig"`)
	if top := browsertest.Eval[string](b, `document.querySelector("#search-results li").dataset.resultId`); top != "cuda/peer-access-under-mig" {
		t.Errorf("first result on a MIG machine %q", top)
	}
	if got := browsertest.Eval[string](b, `document.querySelector('#search-results li[data-result-id="cuda/peer-access-to-same-device"]').dataset.applies || ""`); got != "does_not_apply" {
		t.Errorf("result marks lost when the causes were ranked again: %q", got)
	}
}

// When every known cause of a message is ruled out, the page says so, shows
// why, and what to collect next, in both languages.
func TestBrowserEveryCauseRuledOut(t *testing.T) {
	kbFS := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS("../../kb"), ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join("../../kb", p))
		if p == "jax/unable-to-enable-peer-access.json" {
			data = bytes.Replace(data, []byte(`"domain": "jax",`), []byte(`"domain": "jax", "applies_when": "mig.enabled",`), 1)
		}
		kbFS[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	src := repoSources(t)
	src.KB = build.Source{FS: kbFS, Name: "kb"}
	out := filepath.Join(t.TempDir(), "public")
	if err := build.Build(src, out, "", os.Stderr); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t)
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	msg := "W external/xla/xla/pjrt/gpu/se_gpu_pjrt_client.cc:1134] Unable to enable peer access between GPUs 0 and 1; status: INTERNAL"
	h200, _ := os.ReadFile("../../probe/testdata/real/h200x2.json")
	for _, c := range []struct{ lang, ruledOut, collect string }{
		{"en", "None of the 1 known causes of this message fits your machine:", "Run p2p-probe --test there"},
		{"zh", "这条信息的 1 个已知原因都与你的机器不符：", "运行 p2p-probe --test"},
	} {
		runQuery(t, b, root, c.lang, msg)
		paste(t, b, string(h200))
		waitFor(t, b, `document.querySelector('#search-causes .causes[data-verdict="ruled_out"]') !== null`)
		text := browsertest.Eval[string](b, `document.getElementById("search-causes").textContent`)
		for _, want := range []string{c.ruledOut, "✗ ", "jax/unable-to-enable-peer-access", c.collect} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: lacks %q: %s", c.lang, want, text)
			}
		}
		if n := browsertest.Eval[int](b, `document.querySelectorAll("#search-causes .collect-next li").length`); n < 3 {
			t.Errorf("%s: %d things to collect", c.lang, n)
		}
		if c.lang == "en" {
			b.Screenshot("causes_ruled_out")
		}
	}
}
