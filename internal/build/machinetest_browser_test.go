package build_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/rules"
)

// withTestCondition is the repository's KB with the simpleP2P verification
// entry made to apply when the P2P test found wrong data, and its iommu=pt
// workaround when the IOMMU translates: a fixture of the conditions the
// probe's test makes decidable.
func withTestCondition(t *testing.T) build.Sources {
	t.Helper()
	src := repoSources(t)
	dir := filepath.Join(t.TempDir(), "kb")
	if err := os.CopyFS(dir, os.DirFS("../../kb")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cuda", "simplep2p-verification-error.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]any
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	e["applies_when"] = "!p2p.test.data_ok"
	e["workarounds"].([]any)[1].(map[string]any)["condition"] = "iommu.enabled && !iommu.passthrough"
	data, _ = json.MarshalIndent(e, "", "  ")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	src.KB = build.Source{FS: os.DirFS(dir), Name: "kb"}
	return src
}

// The panel with p2p-probe --test reports: the bandwidth matrix, pairs that
// did not pass marked in words, the checks and the verdict; and an entry
// that depends on the data check marked from it.
func TestBrowserYourMachineTest(t *testing.T) {
	b := browsertest.New(t)
	out := filepath.Join(t.TempDir(), "public")
	if err := build.Build(withTestCondition(t), out, "", os.Stderr); err != nil {
		t.Fatalf("build: %v", err)
	}
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	report := func(name string) string { return read("../rules/testdata/reports/" + name) }
	text := func(sel string) string {
		return browsertest.Eval[string](b, `(document.querySelector(`+jsQuote(sel)+`) || {textContent: ""}).textContent`)
	}
	count := func(sel string) int {
		return browsertest.Eval[int](b, `document.querySelectorAll(`+jsQuote(sel)+`).length`)
	}
	entry := func(lang string) {
		b.Do(chromedp.Navigate(root+lang+"/kb/cuda/simplep2p-verification-error/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	}

	entry("en")
	// A report without a test: the panel says what --test would add.
	paste(t, b, read("../../probe/testdata/real/h200x2.json"))
	if got := text(".p2p-test"); !strings.Contains(got, "p2p-probe --test moves real data") {
		t.Errorf("no test: %q", got)
	}
	if got := browsertest.Eval[string](b, `document.querySelector("article.entry").dataset.applies`); got != "unknown" {
		t.Errorf("entry without a test: %q, want unknown", got)
	}

	// Two healthy H200s.
	if msg := paste(t, b, report("h200x2-test-ok.json")); !strings.Contains(msg, "Read") {
		t.Fatalf("refused: %s", msg)
	}
	m := text("table.bandwidth")
	for _, want := range []string{"GPU0", "GPU1", "Host", "1921.4", "389.6 / 21.9", "390.1 / 21.6", "55.1", "53.9"} {
		if !strings.Contains(m, want) {
			t.Errorf("bandwidth matrix %q lacks %q", m, want)
		}
	}
	if got := text(".p2p-test p.meta"); !strings.HasPrefix(got, "GB/s with P2P on / off; rows: from, columns: to") {
		t.Errorf("matrix legend %q", got)
	}
	// The host as an endpoint: GPU1 to host in row GPU1, host to GPU1 in the row Host.
	if got := browsertest.Eval[string](b, `[...document.querySelectorAll("table.bandwidth tr")].map(r => [...r.children].map(c => c.textContent).join("|")).join("\n")`); got != "from \\ to|GPU0|GPU1|Host\nGPU0|1921.4|389.6 / 21.9|55.1\nGPU1|390.1 / 21.6|1918.7|54.8\nHost|54.2|53.9|" {
		t.Errorf("matrix rows:\n%s", got)
	}
	if n := count("table.bandwidth .mark"); n != 0 {
		t.Errorf("%d pairs marked on a healthy machine", n)
	}
	if got := text("ul.checks"); !strings.Contains(got, "✓ Data check: every copy arrived intact (2 pairs, 8 paths checked)") || !strings.Contains(got, "✓ Cross-process (IPC): cross-process P2P works") {
		t.Errorf("checks %q", got)
	}
	if got := text(".test-verdict"); got != "p2p-probe says: Every pair moved data intact over P2P on all 4 paths, 17.8x faster than through the host." {
		t.Errorf("verdict %q", got)
	}
	if got := browsertest.Eval[string](b, `document.querySelector("article.entry").dataset.applies`); got != "does_not_apply" {
		t.Errorf("the silent-corruption entry on a healthy machine: %q", got)
	}
	if v := verdictOf(t, b, "article.entry .badges"); !strings.HasPrefix(v, "does not apply: every copy arrived intact") {
		t.Errorf("entry verdict %q", v)
	}
	b.Screenshot("machine_test_ok_en")

	// Zeros arrived: the entry applies, with the pair's own figures.
	paste(t, b, report("h200x2-test-zeros.json"))
	if got := browsertest.Eval[string](b, `document.querySelector("article.entry").dataset.applies`); got != "applies" {
		t.Errorf("the silent-corruption entry when zeros arrive: %q", got)
	}
	want := "data arrived wrong: GPU0->GPU1: 4 MiB copied, 1048576 words wrong, first at offset 0: expected 0x9e3779b9, got 0x00000000"
	if v := verdictOf(t, b, "article.entry .badges"); v != "applies: "+want {
		t.Errorf("entry verdict %q", v)
	}
	if v := verdictOf(t, b, `[data-workaround="1"]`); v != "applies: IOMMU present; no IOMMU passthrough (kernel args intel_iommu=on)" {
		t.Errorf("iommu=pt workaround: %q", v)
	}
	if got := text("td.pair-failed"); got != "41.3 / 20.9✗ failed" || count("td.pair-failed") != 1 {
		t.Errorf("failed pair cell %q (%d)", got, count("td.pair-failed"))
	}
	if got := text("ul.checks"); !strings.Contains(got, "✗ Data check: "+want) {
		t.Errorf("checks %q", got)
	}
	b.Screenshot("machine_test_zeros_en")

	// P2P no faster than the host, and a pair that hung: marked in words.
	paste(t, b, report("h200x2-test-slow.json"))
	if n := count("td.pair-slow"); n != 2 || !strings.Contains(text("td.pair-slow"), "24.1 / 25.3⚠ slow") {
		t.Errorf("%d slow cells: %q", n, text("td.pair-slow"))
	}
	if got := text("ul.checks"); !strings.Contains(got, "✗ Pairs where P2P is not faster than through the host: 2 (GPU0->GPU1: 24.1 GB/s with P2P, 25.3 GB/s without") {
		t.Errorf("checks %q", got)
	}
	paste(t, b, report("h200x2-test-timeout.json"))
	if got := text("td.pair-timeout"); !strings.Contains(got, "✗ timed out") {
		t.Errorf("timeout cell %q", got)
	}
	if got := text("ul.checks"); !strings.Contains(got, "? Cross-process (IPC): cross-process P2P unknown") || !strings.Contains(got, "GPU0->GPU1: timed out in ipc_cumem: cuMemImportFromShareableHandle") {
		t.Errorf("checks %q", got)
	}
	paste(t, b, report("h200x2-test-nolib.json"))
	if got := text(".p2p-test"); got != "P2P test: did not run: libcuda.so.1: cannot open shared object file: No such file or directory" {
		t.Errorf("a test that could not run: %q", got)
	}
	if v := verdictOf(t, b, "article.entry .badges"); !strings.Contains(v, "P2P data check (the test did not run: libcuda.so.1") {
		t.Errorf("entry verdict %q", v)
	}

	// The same in Chinese.
	entry("zh")
	paste(t, b, report("h200x2-test-zeros.json"))
	if got := text(".p2p-test p.meta"); !strings.HasPrefix(got, "GB/s，P2P 开启 / 关闭") {
		t.Errorf("zh caption %q", got)
	}
	if got := text("td.pair-failed .mark"); got != "✗ 失败" {
		t.Errorf("zh mark %q", got)
	}
	// The reason in Chinese, as explain --lang zh gives it.
	if got := text("ul.checks"); !strings.Contains(got, "✗ 数据校验："+rules.ReasonIn(want, "zh")) || strings.Contains(got, "data arrived wrong") {
		t.Errorf("zh checks %q", got)
	}
	b.Screenshot("machine_test_zeros_zh")
	paste(t, b, report("h200x2-test-slow.json"))
	b.Screenshot("machine_test_slow_zh")
	checkQuiet(t, b, root)
}

// Markup in a test section stays text.
func TestBrowserYourMachineTestHostile(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	x := `<img src=x onerror=window.__pwned=1>`
	// Markup where a number belongs is refused, as facts.Read refuses it, and not kept.
	typed := `{"schema_version": 1, "probe": {"name": "p2p-probe"}, "gpus": [], "pairs": [], "summary": {},
		"test": {"ran": true, "size_bytes": "` + x + `", "duration_ms": 1, "devices": [{"ordinal": 0, "local_gbps": "` + x + `"}]}}`
	if msg := paste(t, b, typed); !strings.Contains(msg, "Refused: test.size_bytes is not of the type") {
		t.Errorf("markup for a number: message %q", msg)
	}
	if browsertest.Eval[bool](b, `localStorage.getItem("p2pkb.probe") !== null`) {
		t.Error("a report refused was kept")
	}
	evil := `{"schema_version": 1, "probe": {"name": "p2p-probe"}, "gpus": [], "pairs": [], "summary": {},
		"test": {"ran": true, "size_bytes": 4, "duration_ms": 1, "devices": [{"ordinal": 0, "local_gbps": 1.5, "name": "` + x + `"}, {"ordinal": 1e9}],
		"pairs": [{"from": 0, "to": 1, "status": "failed", "enable": "` + x + `", "reason": "` + x + `", "bandwidth": {"p2p_on": 2, "p2p_off": 1},
			"paths": [{"path": "` + x + `", "status": "mismatch", "wrong_words": 1, "first_mismatch": {"offset": 0, "expected": "` + x + `"}}]}],
		"summary": {"data_ok": false, "ipc_ok": false, "failed_pairs": ["GPU0->GPU1", "` + x + `"], "verdict": "` + x + `"}}}`
	if msg := paste(t, b, evil); !strings.Contains(msg, "Read") {
		t.Fatalf("message %q", msg)
	}
	time.Sleep(200 * time.Millisecond)
	if pwned := browsertest.Eval[bool](b, `window.__pwned === 1`); pwned {
		t.Error("a pasted test section ran script")
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll("#machine img, #machine script").length`); n != 0 {
		t.Errorf("%d elements made from pasted markup", n)
	}
	if txt := browsertest.Eval[string](b, `document.querySelector(".p2p-test").textContent`); !strings.Contains(txt, x) {
		t.Errorf("pasted strings must show as text, got %q", txt)
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll("table.bandwidth tr").length`); n != 3 {
		t.Errorf("an ordinal of 1e9 must not grow the matrix: %d rows", n)
	}
	checkQuiet(t, b, root)
}
