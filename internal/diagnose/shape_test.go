package diagnose

import (
	"strings"
	"testing"
)

// Real lines for the shape entry (python/program-own-check): a program's own
// argument check that no entry names.
const (
	// https://github.com/xdit-project/mochi-xdit/issues/5
	cpSizeCheck = "AssertionError: Visual sequence length (14310) must be divisible by cp_size (4).\n"
	// https://github.com/vllm-project/vllm/issues/7211: vLLM's Ray executor
	// reads CUDA_VISIBLE_DEVICES as integers, MIG devices are named by UUID.
	migPaste = "I found a bug when trying to run a model with vllm across 2 GPU MIG partitions.\n\nThus i get: \n\nValueError: invalid literal for int() with base 10: 'MIG-2e782cfd-36f2-55ff-a7d5-c6734444be2b'\n"
)

// A line only the shape entry answers comes after a line an entry of its
// own names, whatever their order in the paste; alone, it is answered, and
// an entry of the message itself ranks above it on its own line.
func TestShapeLineAfterNamedLines(t *testing.T) {
	const shape = "python/program-own-check"
	d := explainJSON(t, cpSizeCheck+"[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\n")
	if len(d.Messages) < 2 || d.Messages[0].Line != 2 || d.Messages[0].Causes[0].ID == shape {
		t.Fatalf("messages %+v: want line 2's entries first", lines(d))
	}
	if m := d.Messages[1]; m.Line != 1 || m.Causes[0].ID != shape {
		t.Errorf("second message: line %d, %v; want line 1 answered by %s", m.Line, idsOf(m.Causes), shape)
	}

	d = explainJSON(t, cpSizeCheck)
	if len(d.Messages) != 1 || d.Messages[0].Causes[0].ID != shape || d.Errors != 1 {
		t.Errorf("the check alone: %+v, %d errors; want %s", lines(d), d.Errors, shape)
	}

	d = explainJSON(t, "ValueError: Default process group has not been initialized, please make sure to call init_process_group.\n")
	if c := d.Messages[0].Causes; c[0].ID != "pytorch/default-process-group-not-initialized" {
		t.Errorf("a check an entry names: %v, want that entry first", idsOf(c))
	}
}

// What the rest of the paste shows comes before a line only an entry of
// its shape answers: MIG said beside vLLM's ValueError about a MIG
// device's name; native Windows said beside torchrun's summary of a failed
// worker, which answers any failure of any worker (two GPUs under Windows
// 10, LLaMA-Factory's launch, https://github.com/hiyouga/LlamaFactory/issues/7697).
func TestShapeLineAfterSymptoms(t *testing.T) {
	for _, c := range []struct {
		in, first string
		line      int
		shape     string
	}{
		{migPaste, "cuda/peer-access-under-mig", 5, "python/program-own-check"},
		{"在win10系统单机双卡设备上，训练报错：torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n" +
			"D:\\LLaMA-Factory\\src\\llamafactory\\launcher.py FAILED\n" +
			"  exitcode  : 1 (pid: 5768)\n" +
			"查看网页知道是windows下对分布式训练不支持 llamafactory-webui可以设置单GPU训练吗 该怎么解决呢 有人知道吗\n",
			"pytorch/distributed-no-nccl-built-in", 1, "pytorch/torchrun-child-failed"},
	} {
		d := explainJSON(t, c.in)
		if len(d.Messages) < 2 || d.Messages[0].Causes[0].ID != c.first {
			t.Errorf("messages %+v: want %s first", lines(d), c.first)
			continue
		}
		found := false
		for _, m := range d.Messages[1:] {
			found = found || m.Line == c.line && m.Causes[0].ID == c.shape
		}
		if !found {
			t.Errorf("messages %+v: line %d is not answered by %s after them", lines(d), c.line, c.shape)
		}
	}
}

// A line only the shape entry answers leaves the input's other words to
// answer beside it, as a line no cause answers does.
func TestByWordsBesideShapeLine(t *testing.T) {
	d := explainJSON(t, "I run mochi with xDiT on 4 GPUs with ulysses_degree 4 and the sampling fails at the first step.\n"+cpSizeCheck)
	last := d.Messages[len(d.Messages)-1]
	if !last.ByWords || !last.Beside || len(last.Causes) == 0 {
		t.Errorf("messages %+v: want the closest entries beside the check", lines(d))
	}
}

func lines(d Diagnosis) []string {
	var out []string
	for _, m := range d.Messages {
		out = append(out, m.LineText+" "+firstID(m))
	}
	return out
}

func firstID(m Message) string {
	if len(m.Causes) == 0 {
		return "-"
	}
	return m.Causes[0].ID
}

// A program's own check alone is answered by its shape's entry with no
// entries by words, however long its line: explain keeps the first
// maxLineText bytes of a line as its text, the words query the whole line.
func TestShapeLineAloneLongerThanLineText(t *testing.T) {
	in := "ValueError: the parallel degree must divide the number of attention heads of every block listed" + strings.Repeat(" in the model and its layers", 40) + "\n"
	if len(in) <= maxLineText {
		t.Fatalf("the line has %d bytes: no longer than the text a message keeps", len(in))
	}
	d := explainJSON(t, in)
	if len(d.Messages) != 1 || d.Messages[0].Causes[0].ID != "python/program-own-check" {
		t.Errorf("messages %+v: want the check's shape alone", lines(d))
	}
}
