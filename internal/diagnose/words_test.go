package diagnose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/search"
)

func explainJSON(t *testing.T, in string) Diagnosis {
	t.Helper()
	var out bytes.Buffer
	if _, err := Explain(&out, repoSite(t), strings.NewReader(in), nil, Options{Lang: "en", JSON: true, Paste: paste.New()}); err != nil {
		t.Fatal(err)
	}
	var d Diagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// Prose from real public threads (none in reports/ or the audit set), in
// which no line is known, is answered by the entries closest to its words,
// marked as such and counted as nothing recognized.
func TestByWordsAnswersProse(t *testing.T) {
	// The family of every entry, as the report sets score them.
	var fams struct {
		Entries map[string][]int `json:"entries"`
	}
	data, err := os.ReadFile("../../reports/families.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &fams); err != nil {
		t.Fatal(err)
	}
	const fabric = 12 // NVSwitch, Fabric Manager and NVLS
	for _, c := range []struct {
		url, in string
		family  int // the right family of the first entry
	}{
		{"https://github.com/NVIDIA/nvtrust/issues/55 (a comment)",
			"I tried to install nvidia-fabricmanager-550 on the host. But it gives error to start the service with the mismatch with driver version.\n",
			fabric},
		{"https://github.com/siderolabs/pkgs/issues/720",
			"After building proprietary driver there is an error from Fabric Manager service:\nIt might make sense to release drivers based on datacenter documentation in a bundle with FabricManager.\n",
			fabric},
		{"https://github.com/Azure/azhpc-images/pull/86",
			"The cuda drivers are installed via nvidia's \".run\" script; whereas, the fabric manager is installed via the deb packages.  This means that if you run `apt-get upgrade`, `apt-get update`, the fabric manager and drivers will not be in sync, and you will get a cuda initialization error.\n",
			fabric},
	} {
		d := explainJSON(t, c.in)
		if len(d.Messages) != 1 || !d.Messages[0].ByWords {
			t.Errorf("%s: %d messages, want one by words", c.url, len(d.Messages))
			continue
		}
		m := d.Messages[0]
		if m.Severity != "by_words" || m.Line != 0 || d.Errors+d.Notes != 0 || len(d.Collect) == 0 || m.Words.Partial {
			t.Errorf("%s: severity %s, line %d, summary %+v, collect %v, words %+v", c.url, m.Severity, m.Line, d.Summary, d.Collect, m.Words)
		}
		if len(m.Causes) == 0 || len(m.Causes) > search.MaxClosest+1 || !slices.Contains(fams.Entries[m.Causes[0].ID], c.family) {
			var ids []string
			for _, x := range m.Causes {
				ids = append(ids, x.ID)
			}
			t.Errorf("%s: causes %v, want an entry of family %d first", c.url, ids, c.family)
		}
	}
}

// Random words, and healthy readings of real machines, get no entry: they
// share too few words with any, or hold no prose.
func TestByWordsLeavesNoiseAlone(t *testing.T) {
	ins := map[string]string{
		"random words": "banana purple keyboard lighthouse umbrella seventeen giraffe window\nthe quick brown fox jumps over the lazy dog near a quiet river bank\n",
		"lorem ipsum":  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n",
	}
	// collect_env's banner and an environment dump are short prose that
	// shares a word or two with some entry by chance.
	for _, f := range []string{"scalellm-env.txt", "collect-env-vllm.txt", "h200x2-nvidia-smi-q.txt", "h200x2-topo-m.txt", "h200x2-topo-p2p.txt", "nvidia-smi-q-bar1-6x4090.txt", "topo-m-nic.txt", "nvbandwidth.txt", "nccl-tests-ring-busbw.txt"} {
		b, err := os.ReadFile("../paste/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		ins[f] = string(b)
	}
	b, err := os.ReadFile("../../kb/repro/simplep2p_corrected.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	ins["simpleP2P on a healthy 2xH200"] = string(b)
	for name, in := range ins {
		for _, m := range explainJSON(t, in).Messages {
			if m.ByWords {
				t.Errorf("%s: answered by words with %s (query %q)", name, m.Causes[0].ID, m.Words.Query)
			}
		}
	}
}

// A description of LongWords words or more is answered when its first
// entry holds MinSharedLong of its words: the real description of
// https://github.com/openucx/ucx/issues/10868 shares less than MinShared
// with any entry, as long stories do.
func TestByWordsLongDescription(t *testing.T) {
	const in = "We recently updated the CUDA drivers on our H100 nodes from R565 to R575. After the update, I observed an increase in the GPU-to-GPU latency while running OSU tests. After some debugging, I believe that it should be related to the inability of UCP to register an rcache.\n"
	d := explainJSON(t, in)
	if len(d.Messages) != 1 || !d.Messages[0].ByWords {
		t.Fatalf("%d messages, want one by words", len(d.Messages))
	}
	m := d.Messages[0]
	if m.Words.Terms < search.LongWords {
		t.Fatalf("%d ranking words, want at least %d", m.Words.Terms, search.LongWords)
	}
	res := wordsSearch(t, m.Words.Query)
	for _, r := range res {
		if r.Kind != "entry" {
			continue
		}
		if r.ID != m.Causes[0].ID || r.Shared < search.MinSharedLong || r.Shared >= search.MinShared {
			t.Errorf("first entry %s holds %.3f of the words, explain's first is %s: want it between %v and %v", r.ID, r.Shared, m.Causes[0].ID, search.MinSharedLong, search.MinShared)
		}
		break
	}
}

// A description a person wrote beside a recognized line is read for its
// words too: after the line's causes, in a message of its own marked
// beside them, holding no entry already shown, not counted in the summary,
// and said so in English and Chinese. A log's own sentences, however many,
// are no description. The paste is the first post of
// https://github.com/EleutherAI/gpt-neox/issues/1147.
func TestByWordsBesideRecognized(t *testing.T) {
	const in = "hi\ni started training on two nodes and used 125M.yml config file and only changed the directories for data and tokenizer files. also added my own hostfile. now during training it gives me this error:\n" +
		"```\nNCCL error in: ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.14.3\n```\n" +
		"i run the code again with `NCCL_DEBUG=INFO` and got this:\n" +
		"```\nnode2: Last error:\nnode2: Net : Call to recv from NODE2_IP<56843> failed : Connection refused\n```\n"
	d := explainJSON(t, in)
	if len(d.Messages) < 2 {
		t.Fatalf("%d messages, want the recognized line's and one beside it", len(d.Messages))
	}
	last := d.Messages[len(d.Messages)-1]
	if !last.ByWords || !last.Beside || last.Line != 0 || len(last.Causes) == 0 || d.Errors+d.Notes != len(d.Messages)-1 {
		t.Fatalf("last message: by words %v, beside %v, line %d, %d causes; summary %+v", last.ByWords, last.Beside, last.Line, len(last.Causes), d.Summary)
	}
	shown := map[string]bool{}
	for _, m := range d.Messages[:len(d.Messages)-1] {
		if m.ByWords || m.Line == 0 {
			t.Errorf("message at line %d: by words %v before the recognized lines' end", m.Line, m.ByWords)
		}
		for _, c := range m.Causes {
			shown[c.ID] = true
		}
	}
	for _, c := range last.Causes {
		if shown[c.ID] {
			t.Errorf("%s is both a recognized cause and close by words", c.ID)
		}
	}
	for lang, want := range map[string]string{"en": text("en", "beside_words"), "zh": text("zh", "beside_words")} {
		var out bytes.Buffer
		if _, err := Explain(&out, repoSite(t), strings.NewReader(in), nil, Options{Lang: lang, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want) || strings.Contains(out.String(), text(lang, "no_match")) {
			t.Errorf("%s: the text lacks %q, or says nothing was recognized:\n%s", lang, want, out.String())
		}
	}
	// The same error line among NCCL's INFO lines and PyTorch's own
	// sentences, with no person's words: nothing beside it.
	var log strings.Builder
	log.WriteString("NCCL error in: ProcessGroupNCCL.cpp:1269, internal error, NCCL version 2.14.3\n")
	for i := range 40 {
		fmt.Fprintf(&log, "node1:15874:17284 [4] NCCL INFO Channel %02d : 4[61000] -> 3[42000] via SHM/direct/direct after the connection was set up between ranks %d and %d\n", i, i, i+1)
	}
	log.WriteString("CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n")
	for _, m := range explainJSON(t, log.String()).Messages {
		if m.ByWords {
			t.Errorf("a log with no description: by words %v (beside %v)", idsOf(m.Causes), m.Beside)
		}
	}
}

// A recognized line that no cause answers (a CUDA error quoted in an
// exception, which no entry names) leaves the paste's words to answer,
// beside it: the real report of
// https://github.com/sgl-project/sglang/issues/23580.
func TestByWordsBesideCauselessLine(t *testing.T) {
	const line = "Exception: Capture cuda graph failed: HIP error: operation failed due to a previous error during capture\n"
	const in = "After applying the file overlays from PR #23533 (`tencent/Hy3-preview` model support) to a fresh `rocm/sgl-dev:v0.5.10.post1-rocm720-mi30x-20260423` container and launching the standard SGLang server with the parameters recommended by the model card, **first decode CUDA-graph replay fails with `HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016`**, killing all 8 TP scheduler subprocesses.\n\nThe same model + same PR works correctly in **eager mode** (`--disable-cuda-graph`), which confirms the model code itself is correct on AMD. The crash is specific to CUDA-graph replay.\n\nWhen `--debug-cuda-graph` is enabled, the underlying error becomes visible:\n\n```\nException: Capture cuda graph failed: HIP error: operation failed due to a previous error during capture\n```\n" + line + "```\n"
	d := explainJSON(t, in)
	if len(d.Messages) != 2 {
		t.Fatalf("%d messages, want the composed line's and one by words", len(d.Messages))
	}
	if first := d.Messages[0]; !first.Composed || len(first.Causes) != 0 || first.ByWords {
		t.Fatalf("first message: composed %v, %d causes, by words %v", first.Composed, len(first.Causes), first.ByWords)
	}
	if last := d.Messages[1]; !last.ByWords || !last.Beside || len(last.Causes) == 0 {
		t.Fatalf("last message: by words %v, beside %v, %d causes", last.ByWords, last.Beside, len(last.Causes))
	}
	// The error line alone is answered by what it is made of.
	if d := explainJSON(t, line); len(d.Messages) != 1 || d.Messages[0].ByWords {
		t.Errorf("the error line alone: %d messages, the first by words", len(d.Messages))
	}
}

// A short input is answered from an entry holding MinShared of its words,
// less than the 15% once asked: the real report of
// https://github.com/TensorSpeech/TensorFlowTTS/issues/187, NaN in one
// model's layer when trained on several GPUs.
func TestByWordsShortInputBelowFormerFloor(t *testing.T) {
	const in = "[WARNING] Nan problem in PostNet of FastSpeech/FastSpeech2 when using Multi-GPU.\n\nsigle_gpu got the same problem\n"
	m := byWordsAlone(t, in)
	if m.Words.Terms >= search.LongWords {
		t.Fatalf("%d ranking words: a description, not a short input", m.Words.Terms)
	}
	r, _ := firstAtFloors(t, m)
	if r.Shared >= 0.15 || !slices.ContainsFunc(m.Causes, func(c Cause) bool { return c.ID == r.ID }) {
		t.Errorf("the closest start at %s, which holds %.3f of the words (causes %v): want one below 0.15 among the causes", r.ID, r.Shared, idsOf(m.Causes))
	}
}

// An entry that ranks first on a rare word or two but holds too little of
// the input is passed over, and the first entry that reaches the floors
// leads the closest: the report of https://github.com/pytorch/vision/issues/7644
// is answered although the search's first entry holds less of it than
// MinShared asks.
func TestByWordsPassesOverEntryBelowFloor(t *testing.T) {
	const in = "IOU difference between single and multi-GPU evaluation when testing DeepLabv3 on COCO\n"
	m := byWordsAlone(t, in)
	r, passed := firstAtFloors(t, m)
	if !slices.ContainsFunc(m.Causes, func(c Cause) bool { return c.ID == r.ID }) {
		t.Errorf("the first entry that reaches the floors, %s, is not among the causes %v", r.ID, idsOf(m.Causes))
	}
	if passed == 0 {
		t.Errorf("the search's first entry reaches the floors: the input does not test passing over one")
	}
}

// byWordsAlone explains in and returns its one message, answered by its
// words with causes.
func byWordsAlone(t *testing.T, in string) Message {
	t.Helper()
	d := explainJSON(t, in)
	if len(d.Messages) != 1 || !d.Messages[0].ByWords || len(d.Messages[0].Causes) == 0 {
		t.Fatalf("%d messages, want one by words with causes", len(d.Messages))
	}
	return d.Messages[0]
}

// firstAtFloors is the first entry the search ranks for m's words that
// reaches the floors of the closest entries (search.Index.Closest), and how
// many entries ranked above it were passed over.
func firstAtFloors(t *testing.T, m Message) (search.Result, int) {
	t.Helper()
	floor := search.MinShared
	if m.Words.Terms >= search.LongWords {
		floor = search.MinSharedLong
	}
	passed := 0
	for _, r := range wordsSearch(t, m.Words.Query) {
		if r.Kind != "entry" {
			continue
		}
		if r.Score >= search.MinWordsScore && r.Shared >= floor {
			return r, passed
		}
		passed++
	}
	t.Fatal("no entry reaches the floors")
	return search.Result{}, 0
}

// A paste that names a GeForce card and says nothing else went wrong on the
// path between GPUs is answered first by its words, the card's causes after;
// a word of the path puts the card's causes first again.
func TestByWordsBeforeConsumerGPU(t *testing.T) {
	// https://github.com/rosinality/style-based-gan-pytorch/issues/65: two
	// GTX 1080 Ti, one used less than the other; the answer was the
	// training's own split of work, not the path between them.
	const in = "Seems GPUs utilization is not the same:\n" +
		"[0] GeForce GTX 1080 Ti | 71'C,  98 % |  4539 / 11176 MB | my_user(4521M) root(5M)\n" +
		"[1] GeForce GTX 1080 Ti | 60'C,  57 % |  3145 / 11178 MB | my_user(3133M)\n" +
		"Is this normal?\n" +
		"On [0] I have 90-100% utilization all the time and it's more stable, on [1] I have 70-100% utilization and it's more jumping, so it's more or less ok, but I have 1.23s/it for 64p on 2 1080ti, which is quite slow.\n"
	const consumer = "cuda/geforce-peer-access-no"
	d := explainJSON(t, in)
	if len(d.Messages) < 2 {
		t.Fatalf("%d messages, want the closest entries and the card's", len(d.Messages))
	}
	first, card := d.Messages[0], d.Messages[1]
	if !first.ByWords || !first.Before || !first.Beside || len(first.Causes) == 0 || first.Causes[0].ID != "pytorch/multi-gpu-slower-than-one-gpu" {
		t.Errorf("first message: by words %v, before %v, causes %v; want the closest entries, several GPUs no faster than one first", first.ByWords, first.Before, idsOf(first.Causes))
	}
	if card.ByWords || card.Line != 2 || len(card.Causes) == 0 || card.Causes[0].ID != consumer || d.Errors != 1 {
		t.Errorf("second message: line %d, by words %v, causes %v, %d errors; want the card's at line 2", card.Line, card.ByWords, idsOf(card.Causes), d.Errors)
	}
	var out bytes.Buffer
	if _, err := Explain(&out, repoSite(t), strings.NewReader(in), nil, Options{Lang: "zh", Paste: paste.New()}); err != nil {
		t.Fatal(err)
	}
	if txt := out.String(); !strings.Contains(txt, text("zh", "before_words")) || strings.Index(txt, "multi-gpu-slower-than-one-gpu") > strings.Index(txt, consumer) {
		t.Errorf("the text does not say why the closest entries come first, or puts them after the card's:\n%s", txt)
	}
	// The same paste that asks about the path: the card's causes first.
	for _, said := range []string{"Could P2P between the two cards be the problem?\n", "Is NCCL slow on these cards?\n", "They sit on a PCIe x8 slot each.\n"} {
		d := explainJSON(t, in+said)
		if m := d.Messages[0]; m.ByWords || len(m.Causes) == 0 || m.Causes[0].ID != consumer {
			t.Errorf("%q: first message by words %v, causes %v; want the card's", said, m.ByWords, idsOf(m.Causes))
		}
	}
}

// wordsSearch is the search the closest entries of query are taken from.
func wordsSearch(t *testing.T, query string) []search.Result {
	t.Helper()
	ix, err := wordsIndex(repoSite(t), "en")
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(query, "en", search.WordsResults)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func idsOf(cs []Cause) []string {
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids
}

// A huge paste of unknown prose builds a bounded query and says which lines
// it used, in English and Chinese (whose entries rank by their Chinese
// text, so the first may differ).
func TestByWordsBoundedAndSaysSo(t *testing.T) {
	var in strings.Builder
	const lines = 50000
	for i := range lines {
		fmt.Fprintf(&in, "worker %d says the fabric manager and driver packages differ at step %d after the upgrade\n", i, i)
	}
	d := explainJSON(t, in.String())
	if len(d.Messages) != 1 || !d.Messages[0].ByWords {
		t.Fatalf("%d messages, want one by words", len(d.Messages))
	}
	w := d.Messages[0].Words
	if !w.Partial || w.Of != lines || w.Lines >= lines || w.Terms == 0 || len(w.Query) > search.MaxQueryBytes || strings.Count(w.Query, "\n")+1 != w.Lines {
		t.Errorf("words %+v (query %d bytes)", *w, len(w.Query))
	}
	for lang, want := range map[string]string{"en": fmt.Sprintf("Only the words of lines 1-%d of %d were used", w.Lines, lines), "zh": fmt.Sprintf("只用了第 1-%d 行（共 %d 行）的词语", w.Lines, lines)} {
		var out bytes.Buffer
		if _, err := Explain(&out, repoSite(t), strings.NewReader(in.String()), nil, Options{Lang: lang, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), text(lang, "no_match")) || lang == "en" && !strings.Contains(out.String(), d.Messages[0].Causes[0].ID) {
			t.Errorf("%s: the text lacks %q, the no-match line or the first entry:\n%s", lang, want, out.String()[:min(out.Len(), 2000)])
		}
	}
	// A short paste: the whole of it, said plainly, in Chinese too.
	var out bytes.Buffer
	if _, err := Explain(&out, repoSite(t), strings.NewReader("I tried to install nvidia-fabricmanager-550 on the host. But it gives error to start the service with the mismatch with driver version.\n"), nil, Options{Lang: "zh", Paste: paste.New()}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), text("zh", "by_words")) || strings.Contains(out.String(), "只用了") {
		t.Errorf("zh: %s", out.String())
	}
}

// A paste gets the same closest entries in Chinese as in English, each
// shown in the reader's language: the pages of the paste's own language
// rank its words (search.WordsLang), English pages an English paste, whose
// words a Chinese page's cause and fixes share too few of, and Chinese pages
// a description in Chinese, whose Han characters no English page holds. The
// pastes are the real ones of the report sets, in English and in Chinese.
func TestByWordsSameInChinese(t *testing.T) {
	var dev []reportText
	for _, f := range []string{"dev.json", "validation.json", "validation2.json", "validation3.json", "validation17.json", "validation31.json"} {
		dev = append(dev, readSet(t, f)...)
	}
	closest := func(in, lang string) (ids, urls []string) {
		var out bytes.Buffer
		if _, err := Explain(&out, repoSite(t), strings.NewReader(in), nil, Options{Lang: lang, JSON: true, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		var d Diagnosis
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		for _, m := range d.Messages {
			if !m.ByWords {
				continue
			}
			for _, c := range m.Causes {
				ids, urls = append(ids, c.ID), append(urls, c.URL)
			}
		}
		return ids, urls
	}
	answered, chinese := 0, 0
	for _, r := range dev {
		en, enURLs := closest(r.Paste, "en")
		if len(en) == 0 {
			continue
		}
		answered++
		if search.WordsLang(r.Paste) == "zh" {
			chinese++
		}
		zh, urls := closest(r.Paste, "zh")
		if strings.Join(zh, ",") != strings.Join(en, ",") {
			t.Errorf("%s: zh %v, en %v", r.URL, zh, en)
		}
		for _, u := range urls {
			if !strings.Contains(u, "zh/kb/") {
				t.Errorf("%s: zh links to %s", r.URL, u)
			}
		}
		for _, u := range enURLs {
			if !strings.Contains(u, "en/kb/") {
				t.Errorf("%s: en links to %s", r.URL, u)
			}
		}
	}
	if answered < 3 || chinese < 3 {
		t.Errorf("%d pastes of the report sets answered by words in en, %d of them in Chinese: too few to compare", answered, chinese)
	}
	if zh, _ := closest("两块显卡之间的点对点拷贝在开启 IOMMU 时数据损坏，关闭 IOMMU 后正常\n", "zh"); len(zh) == 0 {
		t.Error("Chinese prose gets no entry by words in zh")
	}
	// A question in Chinese read in English: the Chinese pages find that
	// one GPU was faster per sample than several
	// (https://github.com/yuanzhoulvpi2017/zero_nlp/issues/155); the English
	// pages, which hold no Han character, found nothing.
	if en, _ := closest("单卡跑，一步4，5秒，一批次10个数据，单卡一次1个数据，却要7秒，这是啥原因\n", "en"); len(en) == 0 || en[0] != "pytorch/multi-gpu-slower-than-one-gpu" {
		t.Errorf("a question in Chinese read in English: closest %v, want pytorch/multi-gpu-slower-than-one-gpu first", en)
	}
}

// Words that speak of no path between GPUs get, of their closest entries,
// those whose usual cause is on the program's side first, each group in
// the words' order; words of the path keep the words' order. The input is
// a real report of tensor-parallel generation printing nonsense, with no
// error line (https://github.com/Lightning-AI/litgpt/issues/1663), whose
// first entry by its words is about the path.
func TestByWordsProgramSideFirstWithoutLinkWords(t *testing.T) {
	const report = "### Bug description\n\nFor some reason, the tensor parallel implementation generates non-sensical outputs\n\n```\n" +
		"⚡ python-api-tensor-parallel ~/litgpt litgpt generate_tp checkpoints/microsoft/phi-2 \n...\n" +
		"Instruct: What food do llamas eat?\nOutput: When the\n.\n\nThe first\n\n.\n\nThe first\n\n.\n\n" +
		"Time for inference 1: 1.31 sec total, 15.23 tokens/sec\n```\n\n### What operating system are you using?\n\nLinux\n\n" +
		"### LitGPT Version\n\nCurrent main branch\n"
	s := repoSite(t)
	programSide := func(id string) bool { return s.KB.ByID[id].ProgramSide }
	m := byWordsAlone(t, report)
	ids := idsOf(m.Causes)
	var words []string
	for _, r := range wordsSearch(t, m.Words.Query) {
		if slices.Contains(ids, r.ID) {
			words = append(words, r.ID)
		}
	}
	if len(words) != len(ids) || programSide(words[0]) {
		t.Fatalf("the words rank %v for causes %v: want the same entries, the first not on the program's side", words, ids)
	}
	var want []string
	for _, side := range []bool{true, false} {
		for _, id := range words {
			if programSide(id) == side {
				want = append(want, id)
			}
		}
	}
	if !slices.Equal(ids, want) || !programSide(ids[0]) {
		t.Errorf("causes %v, want %v: the program's side first, each in the words' order", ids, want)
	}
	if !m.Words.ProgramFirst {
		t.Error("the order moved, and the answer does not say so")
	}
	for _, lang := range []string{"en", "zh"} {
		var out bytes.Buffer
		if _, err := Explain(&out, s, strings.NewReader(report), nil, Options{Lang: lang, Paste: paste.New()}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), text(lang, "program_first")) {
			t.Errorf("%s: the text does not say why the program's side is first:\n%s", lang, out.String())
		}
	}

	// The same words with the path between GPUs named keep their order.
	m = byWordsAlone(t, report+"The two GPUs are joined by an NVLink bridge.\n")
	ids, words = idsOf(m.Causes), nil
	for _, r := range wordsSearch(t, m.Words.Query) {
		if slices.Contains(ids, r.ID) {
			words = append(words, r.ID)
		}
	}
	if !slices.Equal(ids, words) || m.Words.ProgramFirst {
		t.Errorf("with the path named: causes %v (program first: %v), want the words' order %v", ids, m.Words.ProgramFirst, words)
	}
}

// When none of the closest entries of words that speak of no path is on
// the program's side, the closest that is comes first, before them in
// their order. The input is a real report of OpenMM failing on any GPU but
// the first under srun (https://github.com/openmm/openmm/issues/2613).
func TestByWordsAddsClosestProgramSideFirst(t *testing.T) {
	s := repoSite(t)
	in := reportPaste(t, "validation22.json", "https://github.com/openmm/openmm/issues/2613")
	m := byWordsAlone(t, in)
	ids := idsOf(m.Causes)
	if len(ids) != search.MaxClosest+1 {
		t.Fatalf("causes %v: want the %d closest and one more", ids, search.MaxClosest)
	}
	var ranked []string
	for _, r := range wordsSearch(t, m.Words.Query) {
		if r.Kind == "entry" {
			ranked = append(ranked, r.ID)
		}
	}
	added := ids[0]
	for _, id := range ids[1:] {
		if s.KB.ByID[id].ProgramSide {
			t.Errorf("%s is on the program's side: nothing needed adding", id)
		}
	}
	if !s.KB.ByID[added].ProgramSide || !m.Words.ProgramFirst {
		t.Fatalf("the first cause %s (program first: %v): want the closest on the program's side, added and said to be moved first", added, m.Words.ProgramFirst)
	}
	// The others keep the words' order.
	var rest []string
	for _, id := range ranked {
		if slices.Contains(ids[1:], id) {
			rest = append(rest, id)
		}
	}
	if !slices.Equal(rest, ids[1:]) {
		t.Errorf("after the added entry: %v, want the words' order %v", ids[1:], rest)
	}
	// The closest on the program's side after the first closest entry.
	from := slices.Index(ranked, ids[1])
	for _, id := range ranked[from:] {
		if s.KB.ByID[id].ProgramSide {
			if id != added {
				t.Errorf("added %s, want %s, the closest on the program's side", added, id)
			}
			break
		}
	}
	// Words of the path add nothing.
	if ids := idsOf(byWordsAlone(t, "The GPUs are connected over PCIe.\n"+in).Causes); len(ids) > search.MaxClosest {
		t.Errorf("with the path named: causes %v, want no entry added", ids)
	}
}

// reportText is a report of reports/ as these tests read it.
type reportText struct{ URL, Paste string }

// readSet reads the reports of reports/set.
func readSet(t *testing.T, set string) []reportText {
	t.Helper()
	data, err := os.ReadFile("../../reports/" + set)
	if err != nil {
		t.Fatal(err)
	}
	var rs []reportText
	if err := json.Unmarshal(data, &rs); err != nil {
		t.Fatalf("reports/%s: %v", set, err)
	}
	return rs
}

// reportPaste is the paste of the report at url in reports/set.
func reportPaste(t *testing.T, set, url string) string {
	t.Helper()
	for _, r := range readSet(t, set) {
		if r.URL == url {
			return r.Paste
		}
	}
	t.Fatalf("%s: no report %s", set, url)
	return ""
}
