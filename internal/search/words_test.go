package search

import "testing"

// Prose is a line a person wrote. A line with Han characters is cut at its
// punctuation before its words are counted: a Chinese question runs its
// sentences and Latin names together without spaces, and read whole it was
// no prose. A sentence that quotes a long command in backticks is prose:
// its words outside the quotes are what a person wrote; a command alone,
// quoted or not, is not.
func TestProse(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		// https://github.com/hiyouga/LlamaFactory/issues/1219
		{"baichuan2-13b 做推理(do_predict)的时候爆显存？我用的是32G V100,有什么办法解决吗？我有多张v100，但似乎不能多卡推理？", true},
		// https://github.com/modelscope/ms-swift/issues/2669
		{"使用单卡训练无问题，但是多卡会发生下面的错误", true},
		// A label and a value, and a table's row, stay what they are.
		{"显卡：3090", false},
		{"| 0 | NVIDIA GeForce RTX 4090 | 显存 24G |", false},
		// https://github.com/facebookresearch/dlrm/issues/354
		{"Hi, I have used 8 gpus to train dlrm recently. The command I use is `python3 -m torch.distributed.launch --nproc_per_node 4 python3 dlrm_s_pytorch.py --arch-sparse-feature-size=64 --arch-mlp-bot=\"13-512-256-64\" --arch-mlp-top=\"512-512-256-1\" --max-ind-range=10000000 --data-generation=dataset --data-set=terabyte --loss-function=bce --round-targets=True --learning-rate=0.1 --mini-batch-size=2048 --use-gpu --dist-backend='nccl'`  However it cannot build connection within multi-gpu. Please help", true},
		{"`python3 -m torch.distributed.launch --nproc_per_node 4 train.py --use-gpu`", false},
		{"`CUDA_VISIBLE_DEVICES=0,1` `NCCL_P2P_DISABLE=1`", false},
		// `pip show torch` (https://github.com/vllm-project/vllm/issues/5679):
		// its list of packages names a program by chance.
		{"Requires: filelock, fsspec, jinja2, networkx, nvidia-cublas-cu11, nvidia-cuda-cupti-cu11, nvidia-nccl-cu11, nvidia-nvtx-cu11, sympy, triton, typing-extensions", false},
		{"Required-by: accelerate, torchaudio, torchvision, vllm, xformers", false},
		// A sentence that starts with the same word is still prose.
		{"Requires more than one GPU to reproduce, and it hangs every time", true},
	} {
		if got := Prose(c.line); got != c.want {
			t.Errorf("Prose(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// The words of a text are ranked by the pages of the language it is written
// in, whoever reads the answer: Chinese when its Han characters are at least
// as many as its other words.
func TestWordsLangIsTheTextsLanguage(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		// https://github.com/yuanzhoulvpi2017/zero_nlp/issues/155
		{"单卡跑，一步4，5秒，一批次10个数据，单卡一次1个数据，却要7秒，这是啥原因", "zh"},
		// https://github.com/hiyouga/LlamaFactory/issues/1219: names of
		// models and GPUs in a Chinese question.
		{"baichuan2-13b 做推理(do_predict)的时候爆显存？我用的是32G V100,有什么办法解决吗？我有多张v100，但似乎不能多卡推理？", "zh"},
		{"all_reduce hangs on two 4090s", "en"},
		// An English message with one Chinese word is English.
		{"训练 RuntimeError: CUDA error: an illegal memory access was encountered", "en"},
		// Figures are not words: two Han characters outweigh them.
		{"显卡 3090 4090 5090", "zh"},
	} {
		if got := WordsLang(c.text); got != c.want {
			t.Errorf("WordsLang(%q) = %s, want %s", c.text, got, c.want)
		}
	}
}

// The word "version" before a version number is left out of the words, the
// number kept; "version" said otherwise stays.
func TestDropVersionWord(t *testing.T) {
	for in, want := range map[string]string{
		"I test this code with Python 2.7.6 and pytorch version 0.2.0.": "I test this code with Python 2.7.6 and pytorch 0.2.0.",
		"NCCL Version: 2.21.5":                                "NCCL 2.21.5",
		"it broke in versions 1.7 and 1.8":                    "it broke in 1.7 and 1.8",
		"the driver version is v535.104":                      "the driver v535.104",
		"after upgrading to a newer version it hangs":         "after upgrading to a newer version it hangs",
		"version mismatch between the driver and the runtime": "version mismatch between the driver and the runtime",
	} {
		if got := DropVersionWord(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// Words of the path between GPUs, those of traffic and fabrics between them
// included; a description of a program's own trouble holds none. The UCX
// line is the description of https://github.com/openucx/ucx/issues/10868.
func TestLinkWords(t *testing.T) {
	for _, in := range []string{
		"After the update, I observed an increase in the GPU-to-GPU latency while running OSU tests.",
		"inter-GPU communication is slow on this box",
		"GPUDirect RDMA does not work with the new driver",
		"the job fails when UCX is used",
		"peer access is not supported between these two cards",
	} {
		if !LinkWords(in) {
			t.Errorf("%q: no words of the path found", in)
		}
	}
	for _, in := range []string{
		"When I run this code I sometimes get None as the gradient.",
		"only one GPU is used although four are visible",
		"the machine reboots during training",
	} {
		if LinkWords(in) {
			t.Errorf("%q: read as speaking of the path", in)
		}
	}
}
