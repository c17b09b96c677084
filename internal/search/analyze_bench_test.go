package search

import (
	"strings"
	"testing"
)

func BenchmarkAnalyze(b *testing.B) {
	text := strings.Repeat("The GPUs cannot reach each other's memory: `cudaMemcpyPeer` returned cudaErrorPeerAccessUnsupported after NCCL_P2P_DISABLE=1 was set on torch.cuda.set_device(1). 两个GPU之间无法直接访问显存，因为桥接请求被重定向。", 8)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Analyze(text)
	}
}
