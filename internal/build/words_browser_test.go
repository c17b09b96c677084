package build_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/diagnose"
	pastefacts "github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/search"
)

// The page reads a paste's lines as explain does (search.Prose), so it asks
// with the same words; a paste of random words gets no entry by words; the
// answer says plainly, in English and Chinese, that no line was recognized;
// the Your machine panel, which reads facts only, sends prose it cannot
// read to the search page, which answers it.
func TestBrowserByWords(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := "file://" + out + "/"
	runQuery(t, b, root, "en", "x")
	var lines []string
	for _, f := range []string{"../paste/testdata/h200x2-nvidia-smi-q.txt", "../paste/testdata/topo-m-nic.txt", "../paste/testdata/collect-env-vllm.txt"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	// The pastes of the development set: real logs and prose.
	data, err := os.ReadFile("../../reports/dev.json")
	if err != nil {
		t.Fatal(err)
	}
	var dev []struct{ Paste string }
	if err := json.Unmarshal(data, &dev); err != nil {
		t.Fatal(err)
	}
	for _, r := range dev {
		lines = append(lines, strings.Split(r.Paste, "\n")...)
	}
	lines = append(lines, "all_reduce hangs on two 4090s", "Fabric Manager 530.30.02 vs driver 530.41.03", "AMD host, AMD-Vi on, peer writes silently dropped",
		"    Product Name                          : NVIDIA H200", "peer access 0->1: yes, 1->0: yes", "两块 4090 之间 all_reduce 卡住 没有 报错", `"verdict": "All 12 pairs moved 64 MiB intact"`,
		"baichuan2-13b 做推理(do_predict)的时候爆显存？我用的是32G V100,有什么办法解决吗？我有多张v100，但似乎不能多卡推理？", "使用单卡训练无问题，但是多卡会发生下面的错误", "显卡：3090", "| 0 | NVIDIA GeForce RTX 4090 | 显存 24G |",
		"The command I use is `python3 -m torch.distributed.launch --nproc_per_node 4 python3 dlrm_s_pytorch.py --arch-sparse-feature-size=64 --arch-mlp-bot=\"13-512-256-64\" --use-gpu --dist-backend='nccl'`  However it cannot build connection within multi-gpu. Please help", "`python3 -m torch.distributed.launch --nproc_per_node 4 train.py --use-gpu`")
	js, _ := json.Marshal(lines)
	got := browsertest.Eval[[]bool](b, ``+string(js)+`.map(l => p2pkbSearch.prose(l))`)
	prose := 0
	for i, l := range lines {
		if got[i] != search.Prose(l) {
			t.Errorf("%q: the page reads it as prose: %v, Go: %v", l, got[i], search.Prose(l))
		}
		if got[i] {
			prose++
		}
	}
	if prose < 20 || prose > len(lines)-20 {
		t.Errorf("%d of %d lines are prose: the table tells too little apart", prose, len(lines))
	}
	// The page ranks a text by the pages of its language as explain does.
	langs := browsertest.Eval[[]string](b, ``+string(js)+`.map(l => p2pkbSearch.wordsLang(l))`)
	chinese := 0
	for i, l := range lines {
		if want := search.WordsLang(l); langs[i] != want {
			t.Errorf("%q: the page ranks it in %s, Go in %s", l, langs[i], want)
		} else if want == "zh" {
			chinese++
		}
	}
	if chinese < 3 {
		t.Errorf("only %d lines ranked by the Chinese pages: the test tells too little apart", chinese)
	}
	// The page takes the same words as explain, the word "version" before
	// a number left out (https://github.com/pytorch/pytorch/issues/2573).
	const versioned = "When I run this code:\n```\npl = nn.DataParallel(l)\npl(a).sum().backward()\n```\n" +
		"I sometimes get `None`, while if I let `a` directly pass through `l` everything is normal. \n" +
		"I test this code with Python 2.7.6 and pytorch version 0.2.0.\n"
	var vd diagnose.Diagnosis
	var vout bytes.Buffer
	if _, err := diagnose.Explain(&vout, repoModel(t), strings.NewReader(versioned), nil, diagnose.Options{Lang: "en", JSON: true, Paste: pastefacts.New()}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(vout.Bytes(), &vd); err != nil || len(vd.Messages) != 1 || vd.Messages[0].Words == nil {
		t.Fatalf("explain: %v, %d messages, want one by words", err, len(vd.Messages))
	}
	goQuery := vd.Messages[0].Words.Query
	if strings.Contains(strings.ToLower(goQuery), "version") || !strings.Contains(goQuery, "0.2.0") {
		t.Errorf("explain's words %q: want the number without the word version", goQuery)
	}
	vjs, _ := json.Marshal(versioned)
	if page := browsertest.Eval[string](b, `p2pkbSearch.wordsQuery(`+string(vjs)+`).query`); page != goQuery {
		t.Errorf("the page's words %q, explain's %q", page, goQuery)
	}

	const zhQuestion = "单卡跑，一步4，5秒，一批次10个数据，单卡一次1个数据，却要7秒，这是啥原因\n"
	const q = "After building proprietary driver there is an error from Fabric Manager service:\nIt might make sense to release drivers based on datacenter documentation in a bundle with FabricManager.\n" // https://github.com/siderolabs/pkgs/issues/720
	for _, c := range []struct{ lang, q, head string }{
		{"en", q, "No known error line. Closest entries by the words of the paste"},
		{"zh", "两块显卡之间的点对点拷贝在开启 IOMMU 时数据损坏，关闭 IOMMU 后正常\n", "没有已知的错误行。按粘贴内容的词语最接近的条目"},
		// A question in Chinese read in English
		// (https://github.com/yuanzhoulvpi2017/zero_nlp/issues/155).
		{"en", zhQuestion, "No known error line. Closest entries by the words of the paste"},
		{"en", "banana purple keyboard lighthouse umbrella seventeen giraffe window\nthe quick brown fox jumps over the lazy dog near a quiet river bank\n", ""},
	} {
		runQuery(t, b, root, c.lang, c.q)
		head := browsertest.Eval[string](b, `(b => b ? b.querySelector(".causes-head").textContent : "")(document.querySelector('#search-causes .causes[data-by-words="true"]'))`)
		if c.head == "" && head != "" || !strings.HasPrefix(head, c.head) {
			t.Errorf("%s %q: the page says %q, want %q", c.lang, c.q, head, c.head)
		}
		if c.q == zhQuestion {
			// Ranked by the Chinese pages, shown as the English ones.
			got := browsertest.Eval[[]string](b, `(b => b ? [b.querySelector('li[data-cause-id]').dataset.causeId, b.querySelector('li[data-cause-id] a').getAttribute('href')] : [])(document.querySelector('#search-causes .causes[data-by-words="true"]'))`)
			if len(got) != 2 || got[0] != "pytorch/multi-gpu-slower-than-one-gpu" || !strings.Contains(got[1], "en/kb/") {
				t.Errorf("a question in Chinese read in English: the first entry by words and its link %v", got)
			}
			continue
		}
		if c.head != "" {
			b.Screenshot("by_words_" + c.lang)
		}
	}

	// Words that speak of no path between GPUs: the entries on the
	// program's side first, as explain orders them, and the page says so
	// (https://github.com/Lightning-AI/litgpt/issues/1663); with the path
	// named, the words' order and no such note.
	const litgpt = "### Bug description\n\nFor some reason, the tensor parallel implementation generates non-sensical outputs\n\n```\n" +
		"⚡ python-api-tensor-parallel ~/litgpt litgpt generate_tp checkpoints/microsoft/phi-2 \n...\n" +
		"Instruct: What food do llamas eat?\nOutput: When the\n.\n\nThe first\n\n.\n\nThe first\n\n.\n\n" +
		"Time for inference 1: 1.31 sec total, 15.23 tokens/sec\n```\n\n### What operating system are you using?\n\nLinux\n\n" +
		"### LitGPT Version\n\nCurrent main branch\n"
	// And when none of the closest is on the program's side, the closest
	// that is comes first (https://github.com/openmm/openmm/issues/2613).
	v22, err := os.ReadFile("../../reports/validation22.json")
	if err != nil {
		t.Fatal(err)
	}
	var set22 []struct{ URL, Paste string }
	if err := json.Unmarshal(v22, &set22); err != nil {
		t.Fatal(err)
	}
	openmm := ""
	for _, r := range set22 {
		if r.URL == "https://github.com/openmm/openmm/issues/2613" {
			openmm = r.Paste
		}
	}
	for _, q := range []string{litgpt, litgpt + "The two GPUs are joined by an NVLink bridge.\n", openmm} {
		var d diagnose.Diagnosis
		var out bytes.Buffer
		if _, err := diagnose.Explain(&out, repoModel(t), strings.NewReader(q), nil, diagnose.Options{Lang: "en", JSON: true, Paste: pastefacts.New()}); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out.Bytes(), &d); err != nil || len(d.Messages) != 1 || !d.Messages[0].ByWords {
			t.Fatalf("explain: %v, %d messages", err, len(d.Messages))
		}
		if q == litgpt && !d.Messages[0].Words.ProgramFirst {
			t.Fatal("explain does not put the program's side first for words that speak of no path")
		}
		if q == openmm && len(d.Messages[0].Causes) != search.MaxClosest+1 {
			t.Fatalf("explain gives %d entries by words, want the closest on the program's side added", len(d.Messages[0].Causes))
		}
		var want []string
		for _, c := range d.Messages[0].Causes {
			want = append(want, c.ID)
		}
		for _, lang := range []string{"en", "zh"} {
			runQuery(t, b, root, lang, q)
			got := browsertest.Eval[[]string](b, `(b => b ? [b.dataset.programFirst || "", b.querySelector(".causes-note") ? b.querySelector(".causes-note").textContent : ""].concat([...b.querySelectorAll('li[data-cause-id]')].map(li => li.dataset.causeId)) : [])(document.querySelector('#search-causes .causes[data-by-words="true"]'))`)
			if len(got) < 2 || strings.Join(got[2:], ",") != strings.Join(want, ",") || (got[0] == "true") != d.Messages[0].Words.ProgramFirst || (got[1] != "") != d.Messages[0].Words.ProgramFirst {
				t.Errorf("%s %.50q: the page %v, explain %v (program first: %v)", lang, q, got, want, d.Messages[0].Words.ProgramFirst)
			}
			if d.Messages[0].Words.ProgramFirst && lang == "en" {
				b.Screenshot("by_words_program_first_en")
			}
		}
	}

	// A GeForce card named in a paste that speaks of no path between GPUs:
	// the closest entries first, the card's causes after them, as explain
	// answers (https://github.com/rosinality/style-based-gan-pytorch/issues/65);
	// a word of the path puts the card's first.
	const gtx = "Seems GPUs utilization is not the same:\n[0] GeForce GTX 1080 Ti | 71'C,  98 % |  4539 / 11176 MB | my_user(4521M) root(5M)\n[1] GeForce GTX 1080 Ti | 60'C,  57 % |  3145 / 11178 MB | my_user(3133M)\nIs this normal?\nOn [0] I have 90-100% utilization all the time and it's more stable, on [1] I have 70-100% utilization and it's more jumping, so it's more or less ok, but I have 1.23s/it for 64p on 2 1080ti, which is quite slow.\n"
	boxes := `Array.from(document.querySelectorAll('#search-causes > .causes')).map(b => (b.dataset.before ? "before " : b.dataset.symptom ? "symptom " : "other ") + (b.querySelector('li[data-cause-id]') || {dataset: {}}).dataset.causeId)`
	for _, c := range []struct {
		q    string
		want []string
	}{
		{gtx, []string{"before pytorch/multi-gpu-slower-than-one-gpu", "symptom cuda/geforce-peer-access-no"}},
		{gtx + "Could P2P between the two cards be the problem?\n", []string{"symptom cuda/geforce-peer-access-no"}},
	} {
		runQuery(t, b, root, "en", c.q)
		got := browsertest.Eval[[]string](b, boxes)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%.40q: the page's boxes %v, want %v", c.q, got, c.want)
		}
		if first := browsertest.Eval[string](b, `document.querySelector('#search-results li').dataset.resultId`); first != strings.Fields(c.want[0])[1] {
			t.Errorf("%.40q: the first result is %s, want %s", c.q, first, c.want[0])
		}
		if strings.HasPrefix(c.want[0], "before ") {
			b.Screenshot("before_words_en")
		}
	}

	// An entry ranked first that misses the floors is passed over in the
	// page as in explain (https://github.com/pytorch/vision/issues/7644;
	// diagnose's TestByWordsPassesOverEntryBelowFloor checks that one is).
	const ds = "IOU difference between single and multi-GPU evaluation when testing DeepLabv3 on COCO\n"
	var d diagnose.Diagnosis
	var explained bytes.Buffer
	if _, err := diagnose.Explain(&explained, repoModel(t), strings.NewReader(ds), nil, diagnose.Options{Lang: "en", JSON: true, Paste: pastefacts.New()}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(explained.Bytes(), &d); err != nil || len(d.Messages) == 0 || len(d.Messages[0].Causes) == 0 {
		t.Fatalf("explain: %v, %d messages", err, len(d.Messages))
	}
	runQuery(t, b, root, "en", ds)
	if got := browsertest.Eval[string](b, `(b => b ? b.querySelector('li[data-cause-id]').dataset.causeId : "")(document.querySelector('#search-causes .causes[data-by-words="true"]'))`); got != d.Messages[0].Causes[0].ID {
		t.Errorf("the page's first entry by words is %q, explain's %q", got, d.Messages[0].Causes[0].ID)
	}

	// A recognized line that no cause answers leaves the words to answer,
	// beside it, in the page as in explain
	// (https://github.com/sgl-project/sglang/issues/23580).
	const causelessLine = "Exception: Capture cuda graph failed: HIP error: operation failed due to a previous error during capture\n"
	const causeless = "After applying the file overlays from PR #23533 (`tencent/Hy3-preview` model support) to a fresh `rocm/sgl-dev:v0.5.10.post1-rocm720-mi30x-20260423` container and launching the standard SGLang server with the parameters recommended by the model card, **first decode CUDA-graph replay fails with `HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016`**, killing all 8 TP scheduler subprocesses.\n\nThe same model + same PR works correctly in **eager mode** (`--disable-cuda-graph`), which confirms the model code itself is correct on AMD. The crash is specific to CUDA-graph replay.\n\nWhen `--debug-cuda-graph` is enabled, the underlying error becomes visible:\n\n```\nException: Capture cuda graph failed: HIP error: operation failed due to a previous error during capture\n```\n" + causelessLine + "```\n"
	explained.Reset()
	d = diagnose.Diagnosis{}
	if _, err := diagnose.Explain(&explained, repoModel(t), strings.NewReader(causeless), nil, diagnose.Options{Lang: "en", JSON: true, Paste: pastefacts.New()}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(explained.Bytes(), &d); err != nil || len(d.Messages) == 0 {
		t.Fatalf("explain: %v, %d messages", err, len(d.Messages))
	}
	last := d.Messages[len(d.Messages)-1]
	if !last.ByWords || len(last.Causes) == 0 {
		t.Fatalf("explain's last message is not by words: %+v", last)
	}
	runQuery(t, b, root, "en", causeless)
	if got := browsertest.Eval[string](b, `(b => b ? b.querySelector('li[data-cause-id]').dataset.causeId : "")(document.querySelector('.causes[data-by-words="true"][data-beside="true"]'))`); got != last.Causes[0].ID {
		t.Errorf("beside a line no cause answers, the page's first entry by words is %q, explain's %q", got, last.Causes[0].ID)
	}

	// An error line alone that no cause answers is answered by what it is
	// made of, with no entries by words.
	runQuery(t, b, root, "en", "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to activate.\n")
	if n := browsertest.Eval[int](b, `document.querySelectorAll('.causes[data-by-words="true"]').length`); n != 0 {
		t.Errorf("an Xid line alone: %d boxes by words, want none", n)
	}

	// A program's own check that no entry names (python/program-own-check,
	// an entry of its shape): alone, answered by that entry with no entries
	// by words; after a line an entry names; after what the paste shows.
	const shape = "python/program-own-check"
	results := `[...document.querySelectorAll('#search-results li')].map(l => l.dataset.resultId)`
	firstBox := `(b => b ? b.dataset.line + " " + (b.dataset.symptom ? "symptom " : "") + b.querySelector('li[data-cause-id]').dataset.causeId : "")(document.querySelector('#search-causes .causes:not(.by-words)'))`
	const cpSize = "AssertionError: Visual sequence length (14310) must be divisible by cp_size (4).\n" // https://github.com/xdit-project/mochi-xdit/issues/5
	runQuery(t, b, root, "en", cpSize)
	if got := browsertest.Eval[[]string](b, results); len(got) == 0 || got[0] != shape {
		t.Errorf("a program's own check alone: the page's results %v, want %s first", got, shape)
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll('.causes[data-by-words="true"]').length`); n != 0 {
		t.Errorf("a program's own check alone: %d boxes by words, want none", n)
	}
	runQuery(t, b, root, "en", cpSize+"[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\n")
	ids := browsertest.Eval[[]string](b, results)
	if box := browsertest.Eval[string](b, firstBox); !strings.HasPrefix(box, "2 ") || slices.Index(ids, shape) < 1 {
		t.Errorf("a check before a line an entry names: first box %q, results %v; want line 2's box first and %s after its causes", box, ids, shape)
	}
	// https://github.com/vllm-project/vllm/issues/7211: MIG is said in
	// words on line 1 and shown by the instance's UUID in the check's line
	// 5, which the symptom's box names, as the program printed it.
	runQuery(t, b, root, "en", "I found a bug when trying to run a model with vllm across 2 GPU MIG partitions.\n\nThus i get: \n\nValueError: invalid literal for int() with base 10: 'MIG-2e782cfd-36f2-55ff-a7d5-c6734444be2b'\n")
	if box := browsertest.Eval[string](b, firstBox); box != "5 symptom cuda/peer-access-under-mig" {
		t.Errorf("a check beside MIG said in words: the page's first box is %q, want MIG's", box)
	}

	// The panel: no facts in prose, and a link that asks the search page.
	b.Do(chromedp.Navigate(root+"en/index.html"), chromedp.WaitReady(chromedp.CSS("#machine")))
	if msg := paste(t, b, q); !strings.Contains(msg, "No output this site knows was recognized") || !strings.Contains(msg, "the known problems closest to its words") {
		t.Fatalf("panel: %q", msg)
	}
	b.Do(chromedp.Click(chromedp.CSS(".machine-paste-search")))
	waitFor(t, b, `document.body.dataset.searchDone`)
	if n := browsertest.Eval[int](b, `document.querySelectorAll('#search-causes .causes[data-by-words="true"] li[data-cause-id]').length`); n == 0 {
		t.Errorf("the panel's link opened a search page without the closest entries")
	}
	checkQuiet(t, b, root)
}
