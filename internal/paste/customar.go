package paste

// The custom all-reduce of vLLM, SGLang, TensorRT-LLM and their kin (one-
// or two-shot kernels over CUDA IPC buffers, in place of NCCL for small
// tensor-parallel all-reduces; FlashInfer's and TensorRT-LLM's all-reduce
// fused with the norm that follows, vLLM's quick all-reduce) named in a paste: by its own log line
// ("Registering 4067 cuda graph addresses", printed once its CUDA-graph
// buffers are shared), its files and classes (custom_all_reduce.cuh,
// CustomAllreduce), its switches, or in words. Beside a hang or wrong
// output it is the first thing to turn off; a line that only turns it off
// ("--disable-custom-all-reduce", vLLM's "Custom allreduce is disabled")
// does not name it as in use, unless it says the run fails without it.

var (
	reCustomAR        = pattern("customAR", `(?i)custom[ _-]?all[ _-]?reduce|custom[ _]ar\b|\bcustomallreduce|FORCE_NCCL_ALL_REDUCE_STRATEGY|Registering \d{1,9} cuda graph addresses|allreduce_fusion|cross_device_reduce_[12]stage|all[ _-]?reduce[ _-](?:\+\s?\w{1,12}\s)?fusion|\bAR[ _-]fusion\b|fused[ _-]all[ _-]?reduce|flashinfer[ _-]all[ _-]?reduce|trt-?llm[ _-]all[ _-]?reduce|quick[ _-]?all[ _-]?reduce|SymmMemCommunicator|ALLREDUCE_USE_SYMM_MEM|symm(?:etric)?[ _-]mem(?:ory)?[ _-]?all[ _-]?reduce|all[ _-]?reduce[^\n]{0,40}symmetric[ _-]memory|symmetric[ _-]memory[^\n]{0,40}all[ _-]?reduce|\b(?:vllm|sglang)\b[^\n]{0,200}symmetric[ _-]memory`)
	reCustomAROff     = pattern("customAROff", `(?i)disable[-_ ]custom[-_ ]?all[-_ ]?reduce|use_custom_all_reduce\s{1,4}disable|custom all-?reduce is disabled|custom allreduce is disabled`)
	reCustomARWithout = pattern("customARWithout", `(?i)\bwithout\s{1,4}(?:the\s{1,4})?(?:--)?disable`)
	// The program's own lines that show it running: vLLM's and SGLang's log
	// line once its graph buffers are shared, and its kernels' names.
	reCustomARLog = pattern("customARLog", `Registering \d{1,9} cuda graph addresses|cross_device_reduce_[12]stage`)
)

// customARWords are the words, as written, one of which every match of
// reCustomAR holds.
var customARWords = []string{"custom all", "Custom all", "Custom All", "CUSTOM ALL", "custom_all", "Custom_all", "CUSTOM_ALL", "custom-all", "Custom-all", "customall", "customAll", "CustomAll", "Customall",
	"custom AR", "Custom AR", "custom ar", "custom_ar", "custom_AR", "FORCE_NCCL_ALL_REDUCE_STRATEGY", "cuda graph addresses", "allreduce_fusion", "cross_device_reduce_",
	"fusion", "Fusion", "FUSION", "fused", "Fused", "FUSED", "flashinfer", "FlashInfer", "Flashinfer", "FLASHINFER", "trtllm", "TRTLLM", "TRT-LLM", "TrtLlm", "trt-llm", "QuickAllReduce", "quick_all", "quick all", "Quick all", "QuickAll", "quickall", "quick_allreduce", "SymmMem", "SYMM_MEM", "symm_mem", "symm-mem", "symmetric", "Symmetric"}

// customAR is the state of this reader: the first line that names the
// custom all-reduce as in use.
type customAR struct {
	named event
	log   bool // that line is the program's own (reCustomARLog), not words
}

// customARLine reads stripped line s.
func (x *Extractor) customARLine(s string, n int, raw string) {
	c := &x.car
	if c.named.set || !containsAny(s, customARWords...) || !reCustomAR.MatchString(s) {
		return
	}
	if reCustomAROff.MatchString(s) && !reCustomARWithout.MatchString(s) {
		return
	}
	c.named.mark(n, raw)
	c.log = reCustomARLog.MatchString(s)
}

// customARFacts gives the reader's fact once the input ends.
func (x *Extractor) customARFacts() {
	source := Said
	if x.car.log {
		source = "log"
	}
	x.setEvent("allreduce.custom", "bool", "true", 1, x.car.named, source)
}
