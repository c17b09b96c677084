package search

import "testing"

// A line with Han characters is cut at its punctuation before its words
// are counted: a Chinese question runs its sentences and Latin names
// together without spaces, and read whole it was no prose.
func TestProseCutsHanLinesAtPunctuation(t *testing.T) {
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
	} {
		if got := Prose(c.line); got != c.want {
			t.Errorf("Prose(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
