package paste

import (
	"strings"
)

// The CUDA a program was built with, and the GPU's compute capability, as
// programs print them and people write them. A build older than the GPU's
// generation has no kernels for it (CUDA 11.0 brought sm_80, 11.8 sm_89
// and sm_90, 12.8 sm_100 and sm_120): the conditions of the no-kernel-image
// entries read cuda.build beside gpu.arch, so that a hang or a failure on
// an A30 with "cuda 10.2" is answered by the build (PaddlePaddle/Paddle#56514).
// nvidia-smi's "CUDA Version" is the driver's (cuda.driver), not a build's,
// and is not read here.

var (
	// What a program prints of its own build: NCCL's "NCCL version
	// 2.7.8+cuda10.2", PyTorch's "1.9.0+cu102", collect_env's "CUDA used to
	// build PyTorch: 10.2", PaddlePaddle's "Runtime API Version: 10.2".
	reCUDABuilt = pattern("cudaBuilt", `\+cu(?:da)?(\d{1,2}\.\d|1[0-3]\d|[89]\d)\b|CUDA used to build PyTorch: (\d{1,2}\.\d)\b|Runtime API Version: (\d{1,2}\.\d)\b`)
	// CUDA said in words or in an image's tag: "cuda 10.2", "CUDA 11.0",
	// "cuda10.2", "pytorch-cuda=11.8", "nvidia/cuda:11.8.0-devel", "cu118",
	// "CUDA版本是12.2";
	// not a device ("cuda:1"), which PyTorch prints on every tensor.
	reCUDASaid = pattern("cudaSaid", `(?i)(?:^|[^\w.])(?:cuda(?: ?版本号?[ \t]{0,2}(?:为|是|：|:|=)?[ \t]{0,2}v?|[ \t:=_-]?(?:toolkit[ \t])?v?)(\d{1,2}\.\d)(?:\.\d{1,3})?|cu(1[0-3]\d|[89]\d))\b`)
	// The GPU's compute capability as TensorFlow and PaddlePaddle print it
	// ("compute capability: 8.0", "GPU Compute Capability: 8.0").
	reComputeCap = pattern("computeCap", `(?i)compute capability:?[ \t]{0,2}(\d{1,2})\.(\d)\b`)
)

// cudaBuildWords are the words, as written, one of which every match of
// reCUDABuilt, reCUDASaid and reComputeCap holds.
var cudaBuildWords = []string{"+cu", "CUDA used to build", "Runtime API Version", "ompute capability", "ompute Capability", "OMPUTE CAPABILITY",
	"cuda1", "cuda 1", "cuda-1", "/cuda:", "cuda=1", "cuda_1", "CUDA1", "CUDA 1", "CUDA-1", "CUDA=1", "Cuda 1", "Cuda1",
	"cuda9", "cuda 9", "CUDA 9", "CUDA9", "Cuda 9", "cuda8", "cuda 8", "CUDA 8", "CUDA8", "Cuda 8",
	"cuda toolkit", "CUDA toolkit", "CUDA Toolkit", "cu1", "cu9", "cu8", "cuda版本", "CUDA版本", "Cuda版本", "cuda 版本", "CUDA 版本", "Cuda 版本"}

// maxCUDABuild is how many CUDA versions a paste is read for: the first
// lines that name one settle it.
const maxCUDABuild = 8

// cudaBuildLine reads stripped line s for the CUDA of a build and the
// GPU's compute capability.
func (x *Extractor) cudaBuildLine(s string, n int, raw string) {
	if !containsAny(s, cudaBuildWords...) {
		return
	}
	if m := reComputeCap.FindStringSubmatch(s); m != nil {
		if i := archOfCapability(m[1], m[2]); i >= 0 && x.gpuArch.seen&(1<<i) == 0 {
			x.gpuArch.seen |= 1 << i
			x.gpuArch.first.mark(n, raw)
		}
	}
	if x.cudaBuild >= maxCUDABuild {
		return
	}
	if m := reCUDABuilt.FindStringSubmatch(s); m != nil {
		x.cudaBuild++
		x.set("cuda.build", "version", cudaOfTag(first(m)), 2, n, raw, "build")
		return
	}
	if m := reCUDASaid.FindStringSubmatch(s); m != nil {
		x.cudaBuild++
		x.set("cuda.build", "version", cudaOfTag(first(m)), 0, n, raw, Said)
	}
}

// cudaOfTag is a CUDA version from a wheel's tag (cu102 is 10.2, cu92 9.2)
// or as written (10.2).
func cudaOfTag(v string) string {
	if strings.Contains(v, ".") {
		return v
	}
	return v[:len(v)-1] + "." + v[len(v)-1:]
}

// archOfCapability is the index in gpuArchs of compute capability
// major.minor, or -1 for one before Ampere or unknown.
func archOfCapability(major, minor string) int {
	name := ""
	switch {
	case major == "8" && minor == "9":
		name = "ada"
	case major == "8":
		name = "ampere"
	case major == "9":
		name = "hopper"
	case major == "10" || major == "12":
		name = "blackwell"
	}
	for i, a := range gpuArchs {
		if a.name == name {
			return i
		}
	}
	return -1
}
