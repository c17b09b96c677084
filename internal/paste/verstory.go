package paste

import (
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/rules"
)

// A version story said in words: "it works with driver 535 but hangs with
// 545.23.08", "downgrading NCCL to 2.18.3 fixed it", "hangs with NCCL
// 2.30.7 and completes with NCCL 2.31.2", "when I upgraded the NVIDIA
// driver to 545.23.08, it got stuck". People who have tried two versions of
// one component say so, and that A/B is the strongest clue a paste can hold:
// a regression between those versions. One line must name the component
// with a version, and either a version that works and another that fails,
// or one of them with the change that led to it (an upgrade, a downgrade, a
// rollback, a pin). "I use driver 535", a version in an environment dump,
// "it hangs with NCCL 2.19.3" alone, "upgrading did not fix it" and "it
// still hangs" tell no such story.

// storyCompNames are the components a story names, as a pattern's
// alternation (storyComponents says what each is).
const storyCompNames = `nvidia[- ]drivers?|drivers?|nccl|cuda|pytorch[- ]lightning|pytorch|torch|vllm|jaxlib|jax|aws-ofi-nccl|open ?mpi|ompi|ucx|deepspeed|tensorrt-llm|sglang|` +
	`tensorflow|horovod|linux kernel|transformers|accelerate|lightning|ray|cupy|rapids|llama\.cpp|ollama|lmdeploy|xformers|rocm|nvshmem|megatron-lm|megatron|nemo|mpich|mvapich2|gdrcopy|nixl|deepep`

var (
	// A component named with its version: "driver 535", "NVIDIA driver to
	// 545.23.08", "NCCL 2.30.7", "PyTorch version 2.3", "vLLM v0.4.2",
	// "vllm library version `v0.6.1`" (Markdown quotes it as code).
	reStoryComp = pattern("storyComp", `(?i)\b(`+storyCompNames+`)(?:[ \t]{1,3}(?:version|wheel|package|branch|release|series|library)s?){0,2}(?:[ \t]{1,3}(?:to|from|is|was|of)|[ \t]{0,2}(?:==|<=|>=|=|:|(?:降级|升级|回退|版本)[到为至]?))?(?:[ \t]{0,3}|-)[\x60'"*]{0,2}[vVrR]?(\d{1,3}(?:\.\d{1,3}){0,3})\b`)
	// A driver named by its version first: "the 545 driver", "R545 drivers",
	// "545.23.08 NVIDIA driver"; or by its version's shape alone, three
	// digits and two more parts ("revert to 535.154.05"), which no other
	// component's version has.
	reStoryDriver = pattern("storyDriver", `\b[rR]?([3-9]\d{2}(?:\.\d{1,3}){0,2})(?:[ \t]{1,3}(?:series|branch))?[ \t]{1,3}(?:[Nn][Vv][Ii][Dd][Ii][Aa][ \t]{1,3})?[Dd]rivers?\b|(?:^|[^\w.])([3-9]\d{2}\.\d{1,3}\.\d{2})(?:[^\w.]|\.?$|\.\s)`)
	// llama.cpp names its releases by build number, and reporters bisect
	// them so: "after version B5298 ... on B5297 everything ran perfectly"
	// (ggml-org/llama.cpp#14114), "older build `b7728` works correctly",
	// "newer build `b8783-e21cdc11a` produces gibberish"
	// (ggml-org/llama.cpp#21887). The word before it or a quote keeps a
	// GPU's name (B200) and other b-numbers out.
	reStoryBuild = pattern("storyBuild", `(?i)(?:\b(?:llama\.cpp|builds?|versions?|releases?|tags?|flight)[ \t]{1,3}[\x60'"]?|[\x60'"(])b([1-9]\d{3,4})\b`)
	// "from 545 to 535", "from PyTorch 2.1 to 2.4": the first is the
	// version left, the second the one taken. Markdown may bold or quote
	// either, and the one left may carry a suffix ("from **0.2.1.post1**
	// to **0.2.7**", vllm-project/vllm#2417).
	reStoryFromTo = pattern("storyFromTo", `(?i)\bfrom\s(?:[\w-]{1,16}\s){0,2}[\x60'"*]{0,2}[vr]?(\d{1,3}(?:\.\d{1,3}){0,3})(?:[\w.+-]{0,12}[\x60'"*]{0,2})?\s(?:to|->|=>)\s(?:[\w-]{1,16}\s){0,2}[\x60'"*]{0,2}[vr]?(\d{1,3}(?:\.\d{1,3}){0,3})\b`)
	// A version said alone, of the program the paste is about: "The
	// 26.02.01 ... config crashes at iteration 0 ... This worked in
	// 26.02.00." (NVIDIA-NeMo/Megatron-Bridge#3343). Two or three parts,
	// so that an address is none.
	reStoryAnon = pattern("storyAnon", `(?:^|[\s(\x60'"*])[vV]?(\d{1,3}\.\d{1,3}(?:\.\d{1,3})?)(?:\.?$|\.\s|[\s,;:)!?\x60'"*])`)
	// A figure, not a version: a unit or a count after it ("12.5 GB/s",
	// "1.5x", "2.5 it/s").
	reStoryUnit = pattern("storyUnit", `^\s?(?:[KMGTP]i?B\b|[KMGT]b(?:ps|it)|[GM]T/s|GHz|MHz|TFLOPS|FLOPS|ms\b|us\b|s\b|secs?\b|seconds?\b|min(?:ute)?s?\b|hours?\b|days?\b|%|x\b|it/s|W\b|V\b|°|C\b|GPUs?\b|nodes?\b|ranks?\b|times\b|steps?\b|epochs?\b|tokens?\b|fps\b)`)
	// Any version on the line, for those said without the name ("works with
	// driver 535 but hangs with 545.23.08").
	reStoryVer = pattern("storyVer", `\b[vVrR]?(\d{1,3}(?:\.\d{1,3}){0,3})\b`)
	// Where a line's clauses end: each says how one version behaves.
	reStoryCut = pattern("storyCut", `(?i)[;!?]|[,.](?:\s|$)|\s(?:but|while|whereas|however|though|although|and|yet|then|whilst)\s|[，。；]|但`)
	// What a clause says of its version: it fixed the trouble ("solved the
	// problem"), fails (hangs, is slow, crashes, breaks) or works. A denial
	// turns a failure into working ("no problem with 535", "does not hang
	// with 2.18"), and a work denied is a failure ("doesn't work with 545").
	// A fix denied, "still", "same issue" or a condition ("if", "whether")
	// says nothing of the version.
	reStoryBad     = pattern("storyBad", `(?i)\b(?:hangs?|hung|hanging|stuck|freez\w{0,3}|froze|deadlock\w{0,2}|fail\w{0,4}|crash\w{0,3}|breaks|broke|broken|break|slow\w{0,3}|errors?|segfault\w{0,2}|regress\w{0,4}|corrupt\w{0,3}|degrad\w{0,5}|wrong|garbage|gibberish|timeouts?|timed out|times? out|bug|issues?|problems?)\b|卡住|卡死|挂起|报错|失败|变慢|:x:|❌|✗|✘`)
	reStoryNotWork = pattern("storyNotWork", `(?i)(?:\bnot|\bnever|\bno longer|n't)\s(?:\w{1,12}\s)?(?:work\w{0,3}|run\w{0,3}|pass\w{0,3}|finish\w{0,3}|complete\w{0,1})\b|n't\W{0,4}$|`+
		// The GPUs a release stops using: "Ollama no longer uses both GPUs"
		// (ollama/ollama#6479), "it can only use the AMD video card"
		// (ollama/ollama#11481).
		`\bno longer\s(?:\w{1,12}\s)?(?:uses?|using|sees?|detects?|finds?|loads?|splits?|recogni[sz]es?|utili[sz]es?)\b|\bcan only (?:use|see|detect|find|load)\b`)
	reStoryDenied = pattern("storyDenied", `(?i)(?:\bnot|\bnever|n't|\bno|\bwithout|\bzero)\s(?:\w{1,12}\s){0,3}(?:hang|hung|stuck|freez|froze|deadlock|fail|crash|break|broke|slow|error|segfault|regress|corrupt|degrad|issue|problem|bug)|没有?问题|不会?卡`)
	reStoryFix    = pattern("storyFix", `(?i)\b(?:fix(?:es|ed)?|solve[sd]?|resolve[sd]?|help(?:s|ed)?|cured?|avoid(?:s|ed)?|(?:is|are|was|were) gone|disappear(?:s|ed)?|went away|goes away)\b|解决`)
	reStoryGood   = pattern("storyGood", `(?i)\b(?:works?|worked|working|fine|perfectly|pass(?:es|ed)?|complete[sd]?|ok|okay|normal(?:ly)?|succeed\w{0,3}|success\w{0,4})\b|正常|可以|:white_check_mark:|:heavy_check_mark:|✅|✔`)
	reStoryNone   = pattern("storyNone", storyUnfixedSrc+`|(?:\bnot|\bnever|n't|\bno)\s(?:\w{1,12}\s)?change|\b(?:if|whether)\b`)
	// A story that names no version: "after the upgrade it hangs",
	// "downgrading fixed it", "the new version broke it", "works on the
	// old image". The change must be one of versions (an upgrade, a
	// downgrade, a rollback, a new or old release, an update of a
	// component): "after updating my code" is none.
	reStoryBare = pattern("storyBare", `(?i)\b(?:upgrad\w{1,4}|downgrad\w{1,4}|roll(?:ed|ing)?[ -]?back|rollback|revert\w{0,3}\s(?:back\s)?to|(?:new|newer|newest|latest|recent|old|older|previous)\s(?:\w{1,12}\s)?(?:versions?|releases?|images?|drivers?|builds?|containers?|wheels?)|(?:drivers?|nccl|cuda|torch|pytorch|vllm)\supdates?|updat\w{1,4}\s(?:the\s|my\s|our\s)?(?:nvidia\s)?(?:drivers?|nccl|cuda|torch|pytorch|vllm)|`+
		// An update said as a noun, of what the line does not always name:
		// "Latest ComfyUI update broke the nodes" (pollockjj/ComfyUI-MultiGPU
		// #148), "after an update my gpus work worse", "an automatical update
		// of linux-modules-nvidia-440-...:amd64 driver" (pytorch/pytorch
		// #44171).
		`(?:newest|latest|recent|last)\s(?:[\w.-]{1,20}\s)?updates?|\bafter\s(?:the|an?|this|that)\s(?:[\w.-]{1,20}\s)?updates?|updates?\s(?:of|to)\s(?:the\s)?(?:\S{1,60}\s){0,2}?(?:nvidia\s)?(?:drivers?|nccl|cuda|torch|pytorch|vllm))\b|升级|降级|回退|旧版本|新版本`)
	// A regression found in the code's history rather than between two
	// installed versions: a bisection ("I bisected it to PR #3110", "git
	// bisect points at ..."), the first bad commit or build named, a change
	// said to have broken it ("broken in PR #3110", "caused by the recently
	// merged MR (#5149)", "since commit b3188", "a regression in v2.13").
	reStoryBisect = pattern("storyBisect", `(?i)\bfirst bad (?:commit|build|release|version)\b\W{0,3}\s*\w|\bgit bisect\b|\bbisect(?:ed|ing)?\s(?:it|this|the (?:issue|problem|regression|bug|hang|crash)|down|to)\b|\bbroken (?:in|by|since) (?:the )?(?:PR|pull request|commit|MR|#\d)|\bregression (?:introduced )?(?:in|from|since|by|caused by) (?:the )?(?:PR|pull request|commit|MR|#\d|v?\d+\.\d)|\bcaused by (?:the )?recently merged\b|\bintroduced (?:in|by) (?:the )?(?:PR|pull request|commit|MR|#\d)|\bsince (?:commit|build) [0-9a-z]|`+
		// A recent change of the code said to have broken it: "a recent
		// commit broke parity" (facebookresearch/fairscale#241).
		`\b(?:a|the|this|that|some|one)\s(?:recent|latest|new|last)\s(?:commit|PR|pull request|merge|MR)s?\s(?:has\s|have\s)?(?:broke|broken|breaks|break|introduced|caused)\b|`+
		// A release said to have regressed: "Resnet50 training regressed
		// on pytorch 2.10 and later" (pytorch/pytorch#180500). A regression
		// is itself a comparison with the release before.
		`\bregressed (?:on|in|with|since|after|from) (?:the )?(?:[\w.-]{1,16} )?v?\d+\.\d`)
	// Not a release changed: hardware upgraded ("before the system memory
	// was upgraded to 256 GB"), a figure that fell ("bandwidth is
	// downgraded") or a PCIe link trained below its best, as lspci marks it
	// ("LnkSta: Speed 2.5GT/s (downgraded)"), or what a program updates in
	// another ("updates the vllm weights", OpenRLHF/OpenRLHF#660).
	reStoryNotRelease = pattern("storyNotRelease", `(?i)\b(?:memory|ram|dimms?|cpus?|motherboard|psu|power supply|ssds?|disks?|bandwidth|performance|speed|throughput|latency)\s(?:\w{1,12}\s){0,2}(?:upgrad|downgrad)\w{0,4}|\b(?:upgrad|downgrad)\w{0,4}\s(?:the\s|my\s|our\s)?(?:system\s)?(?:memory|ram|dimms?|cpus?|motherboard|psu|power supply|ssds?|disks?)\b|\(downgraded\)|\bLnk(?:Sta|Cap)2?:|\bupdat\w{1,4}\s(?:the\s|my\s|our\s)?(?:vllm|torch|pytorch|nccl|cuda)\s(?:weights?|models?|engines?|workers?|param\w{0,8}|tensors?|buffers?|caches?|state|ranks?)\b|`+
		// A training step's update, not a release's: "after the weight
		// update", "the last gradient update".
		`\b(?:weights?|param\w{0,8}|gradients?|grads?|model|optimizer|policy|actor|critic|parameter[- ]server|ema|step)\supdates?\b|`+
		// A new API of the same release, not a new release: "Using the new
		// version API to run the official demo" (NVIDIA-Merlin/HugeCTR#378).
		`\bversions?\s(?:of\s(?:the\s)?)?(?:APIs?|interfaces?|syntax)\b`)
	// Advice, a plan or a question is no story: "try downgrading",
	// "should I upgrade?", "please update the driver".
	reStoryAdvice = pattern("storyAdvice", `(?i)\b(?:try|should|could|would|recommend\w{0,3}|suggest\w{0,3}|please|maybe|might|plan\w{0,3}|going to|will|want to|need to|have to|consider\w{0,3})\b|\?|建议|是否`)
	// A version said to have worked, right before it: "my job that used
	// to work in v0.2.1 time out in v0.3.0" (meta-pytorch/torchtune#1718)
	// says both in one clause, so the clause's outcome is the other
	// version's.
	reStoryWorkedAt  = pattern("storyWorkedAt", `(?i)\b(?:used to (?:work|run|pass)|worked)(?:\s(?:fine|well|perfectly|ok|okay|normally))?\s(?:in|with|on|under|using)\s(?:the\s)?(?:(?:version|release|build)\s)?[\x60'"*\[]{0,3}[vVrR]?$`)
	reStoryWorkedNot = pattern("storyWorkedNot", `(?i)(?:\bnot|\bnever|n't)\s{1,3}(?:\w{1,12}\s{1,3})?$`)
	// A change said not to have cured it: "I have updated to 0.8.2
	// version. But seems this issue is not solved" (hiyouga/EasyR1#198):
	// both versions fail, and no story is told.
	reStoryUnfixed = pattern("storyUnfixed", storyUnfixedSrc)
	// A component named without its version, on the story's line.
	reStoryCompWord = pattern("storyCompWord", `(?i)\b(`+storyCompNames+`)\b`)
	// A component named elsewhere: installed by pip, conda or apt, or the
	// image the job runs ("pip install -U vllm", "apt-get install
	// libnccl2=2.18.3-1+cuda12.2", "nvcr.io/nvidia/pytorch:24.05-py3").
	reStoryInstall = pattern("storyInstall", `(?i)\b(?:pip3?|uv pip|conda|mamba|apt|apt-get|yum|dnf)\s(?:\S{1,40}\s){0,4}?install\s(?:-\S{1,30}\s){0,4}["']?(torch|vllm|jaxlib|jax|deepspeed|sglang|tensorrt[-_]llm|nvidia-nccl-cu\d{2}|libnccl2|nvidia-driver|cuda-drivers|cuda-toolkit)\b|\b(?:nvcr\.io/nvidia/(pytorch)|vllm/(vllm)-openai|lmsysorg/(sglang)):`)
	// The change that led to a version: an upgrade, a downgrade, a
	// rollback, a pin, a switch back, "since" a version ("since PyTorch
	// 2.3"); "after training" is none.
	reStoryChange = pattern("storyChange", `(?i)\b(?:upgrad\w{1,4}|downgrad\w{1,4}|updat\w{1,4}|roll(?:ed|ing)?[ -]?back|rollback|revert\w{0,3}|pinn(?:ed|ing)|pin|switch\w{0,3}(?: back)? to|went back to|go(?:ing)? back to|mov(?:e|ed|ing) from|went from|going from)\b|\bsince\s(?:[\w-]{1,16}\s)?v?\d|升级|降级|回退`)
)

// storyUnfixedSrc is a fix denied, "still" or "same issue": of a change,
// that it did not cure the trouble (reStoryUnfixed); of a clause, that it
// says nothing of its version (reStoryNone). Its leading (?i) holds for
// what reStoryNone adds after it.
const storyUnfixedSrc = `(?i)(?:\bnot|\bnever|n't|\bno)\s(?:\w{1,12}\s)?(?:fix|solve|resolve|help|make a difference)|\bstill\b|\bsame (?:issue|problem|error|hang|result|behaviou?r)|还是|仍然|依然|没有?解决`

// storyWords are the words, as written, one of which every line the story
// reader acts on holds: the change or the outcome of a comparison, or a
// bisection (storyBisectWords). Each is
// rare in NCCL's own INFO lines, which are not read for it.
var storyWords = append([]string{"upgrad", "Upgrad", "UPGRAD", "downgrad", "Downgrad", "DOWNGRAD", "updat", "Updat", "roll", "Roll", "revert", "Revert", "pinn", "Pinn", "pin ", "Pin ",
	"switch", "Switch", "went back", "back to", "since", "Since", "ove from", "oved from", "oving from", "went from", "oing from",
	"works", "Works", "worked", "Worked", "working", "used to", "Used to", "passes", "passed", "fine", "fixed", "Fixed", "fixes", "solved", "Solved", "resolved", "Resolved", "helped", "completes", "succeed", "Succeed", "perfectly",
	"gone", "disappear", "went away", "goes away", "no such", "No such", "n't", "not ", "no issue", "No issue", "no problem", "No problem",
	"升级", "降级", "回退",
	// A failure said beside one version, which a version said to work on
	// another line completes (storyHalf).
	// "hang" alone is in "change": the forms a failure takes.
	"hangs", "hang ", "hang.", "hang,", "hanging", "Hang", "hung", "stuck", "Stuck", "deadlock", "Deadlock", "freez", "froze", "crash", "Crash", "broke", "Broke",
	"regress", "Regress", "slow", "Slow", "segfault", "Segfault", "卡住", "卡死", "挂起",
	// "there is a bug with pytorch 0.4.1" (OpenNMT/OpenNMT-py#921).
	"a bug ", "A bug ", "bug with ", "bug in ",
	// A table of versions marked as GitHub renders them ("Open MPI 3.1.3 :x:",
	// horovod/horovod#638).
	":x:", "❌", "✗", "✘", ":white_check_mark:", ":heavy_check_mark:", "✅", "✔",
	// A new or old release said without its version (reStoryBare).
	// Led by a space: "renew", "threshold" and "hold" are none.
	" new ", "New ", " newer", "latest", "Latest", " old ", "Old ", " older", "previous", "Previous", "旧版本", "新版本"}, storyBisectWords...)

// storyBisectWords are the words, as written, one of which every match of
// reStoryBisect holds.
var storyBisectWords = []string{"isect", "ISECT", "irst bad", "irst Bad", "IRST BAD", "roken in", "roken by", "roken since", "egression in", "egression from", "egression since",
	"egression by", "egression caused", "egression introduced", "ecently merged", "ntroduced in", "ntroduced by", "ince commit", "ince build",
	"egressed on", "egressed in", "egressed with", "egressed since", "egressed after", "egressed from", "ecent commit", "atest commit", "ew commit", "ast commit", "ecent PR", "atest PR", "ew PR", "ast PR", "ecent pull", "atest pull", "ew pull", "ast pull", "ecent merge", "atest merge", "ast merge", "ecent MR", "ast MR"}

// storyInstallWords are the words, as written, one of which every match of
// reStoryInstall holds: what names a component elsewhere in the paste.
var storyInstallWords = []string{"pip install", "pip3 install", "conda install", "mamba install", "apt install", "apt-get install", "apt-get -y install",
	"yum install", "dnf install", "nvcr.io/nvidia/", "vllm-openai:", "lmsysorg/sglang:"}

// storyBareWords are the words, as written, one of which every match of
// reStoryBare holds (case aside, where a sentence may start with it).
var storyBareWords = []string{"pgrad", "PGRAD", "owngrad", "OWNGRAD", "back", "Back", "revert", "Revert", "new", "New", "old", "Old", "latest", "Latest",
	"previous", "Previous", "recent", "Recent", "pdat", "升级", "降级", "回退", "版本"}

// storyComponents name each component as the facts do, by the word a line
// uses for it (lower case), and the fact that holds its version where one does.
var storyComponents = map[string][2]string{
	"nvidia driver": {"driver", "driver.version"}, "nvidia-driver": {"driver", "driver.version"}, "nvidia drivers": {"driver", "driver.version"},
	"nvidia-drivers": {"driver", "driver.version"}, "driver": {"driver", "driver.version"}, "drivers": {"driver", "driver.version"},
	"nccl": {"nccl", "nccl.version"}, "cuda": {"cuda", ""}, "pytorch": {"torch", "python.torch"}, "torch": {"torch", "python.torch"},
	"vllm": {"vllm", "python.vllm"}, "jax": {"jax", "python.jax"}, "jaxlib": {"jax", "python.jaxlib"}, "aws-ofi-nccl": {"aws-ofi-nccl", ""},
	"open mpi": {"openmpi", ""}, "openmpi": {"openmpi", ""}, "ompi": {"openmpi", ""}, "ucx": {"ucx", ""}, "deepspeed": {"deepspeed", ""},
	"tensorrt-llm": {"tensorrt-llm", ""}, "sglang": {"sglang", ""},
	"tensorflow": {"tensorflow", ""}, "horovod": {"horovod", ""}, "linux kernel": {"kernel", ""},
	"transformers": {"transformers", ""}, "accelerate": {"accelerate", ""}, "lightning": {"lightning", ""}, "pytorch lightning": {"lightning", ""},
	"pytorch-lightning": {"lightning", ""}, "ray": {"ray", ""}, "cupy": {"cupy", ""}, "rapids": {"rapids", ""}, "llama.cpp": {"llama.cpp", ""},
	"ollama": {"ollama", ""}, "lmdeploy": {"lmdeploy", ""}, "xformers": {"xformers", ""}, "rocm": {"rocm", ""}, "nvshmem": {"nvshmem", ""},
	"megatron-lm": {"megatron", ""}, "megatron": {"megatron", ""}, "nemo": {"nemo", ""}, "mpich": {"mpich", ""}, "mvapich2": {"mvapich2", ""},
	"gdrcopy": {"gdrcopy", ""}, "nixl": {"nixl", ""}, "deepep": {"deepep", ""},
}

// storyComponentWords is storyComponents as the browser's table holds it:
// word, component, fact, in the words' order.
func storyComponentWords() []string {
	words := make([]string, 0, len(storyComponents))
	for w := range storyComponents {
		words = append(words, w)
	}
	sort.Strings(words)
	var out []string
	for _, w := range words {
		out = append(out, w, storyComponents[w][0], storyComponents[w][1])
	}
	return out
}

// story is the state of this reader: the first line that tells a story,
// or the line that completes one told over two lines.
type story struct {
	ev            event
	component     string // as storyComponents names it
	fact          string // the fact of its version, or ""
	good, bad     string // the version that works and the one that fails; either may be ""
	goodEv, badEv event  // the lines that say them
	halves        []storyHalf
	installed     string // a component installed or run as an image elsewhere in the paste, for a story that names none
	bare          bool   // a change of versions that names no version (bareStory)
	pending       pendingChange
}

// pendingChange is a change between two versions said on a line that says
// nothing of how it went, which the next line may say: "I updated vLLM
// version from 0.2.1.post1 to 0.2.7." then "Model Generation is Broken
// when tensor_parallel_size >=2." (vllm-project/vllm#2417).
type pendingChange struct {
	component   string
	left, taken string
	ev          event
}

// maxPendingGap is how many lines after a change its outcome may be said.
const maxPendingGap = 2

// storyHalf is half a story told over lines: "I tested alltoall_perf with
// NCCL 2.19.1 ... it hangs at init" on one, "When I used nccl 2.18.6, there
// are no problems" on another. Each line says how one version of a
// component fares, with no change that led to it; a version said to work
// and another said to fail, of the same component, make the story.
type storyHalf struct {
	key           string // what pairs the halves: the component, or the major of versions said alone
	component     string
	good, bad     string
	goodEv, badEv event
}

// maxHalves bounds the components whose halves are kept; maxHalfGap is
// how many lines apart the two halves of a story may be said: a person
// tells it in a few sentences, and a long log's lines far apart speak of
// other runs.
const (
	maxHalves  = 16
	maxHalfGap = 12
)

// verAt is a version said on a line, at byte offset at.
type verAt struct {
	v    string
	at   int
	comp string // the component named with it, or ""
}

// storyLine reads stripped line s for a version story.
func (x *Extractor) storyLine(s string, n int, raw string) {
	if x.story.installed == "" && containsAny(s, storyInstallWords...) && !strings.Contains(s, "NCCL INFO") {
		if m := reStoryInstall.FindStringSubmatch(s); m != nil {
			x.story.installed = installedComponent(m)
		}
	}
	if x.story.ev.set || !containsAny(s, storyWords...) || strings.Contains(s, "NCCL INFO") {
		return
	}
	if x.pendingStory(s, n) {
		return
	}
	// A version has a digit; a line without one can tell a story that
	// names none only.
	if strings.IndexAny(s, "0123456789") < 0 {
		x.bareStory(s, n, raw)
		return
	}
	var named []verAt
	for _, m := range reStoryComp.FindAllStringSubmatchIndex(s, 8) {
		named = append(named, verAt{s[m[4]:m[5]], m[4], storyComponents[normalSpace(strings.ToLower(s[m[2]:m[3]]))][0]})
	}
	for _, m := range reStoryDriver.FindAllStringSubmatchIndex(s, 4) {
		if m[2] < 0 {
			m = m[2:]
		}
		named = append(named, verAt{s[m[2]:m[3]], m[2], "driver"})
	}
	builds := reStoryBuild.FindAllStringSubmatchIndex(s, 8)
	for _, m := range builds {
		named = append(named, verAt{s[m[2]:m[3]], m[2], "llama.cpp"})
	}
	comp, first, firstAt := "", "", len(s)
	for _, v := range named {
		if v.comp != "" && v.at < firstAt && storyShape(v.comp, v.v, v.v) {
			comp, first, firstAt = v.comp, v.v, v.at
		}
	}
	if comp == "" {
		if !x.fromToStory(s, n, raw) && !x.anonStory(s, n, raw) {
			x.bareStory(s, n, raw)
		}
		return
	}
	// The component's versions: those named with it, and those said alone
	// in its shape; another component's versions are not its.
	var vers []verAt
	for _, m := range reStoryVer.FindAllStringSubmatchIndex(s, 16) {
		v, at, owner := s[m[2]:m[3]], m[2], ""
		for _, nv := range named {
			if nv.at == at {
				owner = nv.comp
			}
		}
		// Named with the component, a version is its in any major ("RAPIDS
		// 26.02 ... RAPIDS 25.12"); said alone, only in the first's shape.
		if owner == comp && storyShape(comp, v, v) || owner == "" && storyShape(comp, v, first) {
			vers = append(vers, verAt{v, at, comp})
		}
	}
	if comp == "llama.cpp" {
		for _, m := range builds {
			vers = append(vers, verAt{s[m[2]:m[3]], m[2], comp})
		}
		sort.Slice(vers, func(i, j int) bool { return vers[i].at < vers[j].at })
	}
	good, bad := storySides(s, vers)
	var e event
	e.mark(n, raw)
	switch {
	case good != "" && bad != "":
		if rules.CompareVersions(good, bad) == 0 {
			return
		}
	case good != "" || bad != "":
		// One version and the change that led to it, or a release said to
		// have regressed; a change said not to have cured it tells none.
		if !reStoryChange.MatchString(s) && !(bad != "" && bisected(s)) {
			x.storyHalf(comp, good, bad, e)
			return
		}
		if reStoryUnfixed.MatchString(s) {
			return
		}
	default:
		x.pendChange(comp, s, e)
		return
	}
	x.tellStory(comp, good, bad, e, e, e)
}

// pendChange keeps the change from one version to another that line s
// says, with its outcome unsaid, for the lines after it (pendingStory).
func (x *Extractor) pendChange(comp, s string, e event) {
	left, taken, _, ok := fromToChange(s)
	if !ok || reStoryAdvice.MatchString(s) {
		return
	}
	x.story.pending = pendingChange{component: comp, left: left, taken: taken, ev: e}
}

// fromToChange is the change from one version to another that line s
// says (reStoryFromTo, with a change word): the version left, the one
// taken and the offset of the one taken. Both have a dot, so that "from 2
// to 4 GPUs" is none.
func fromToChange(s string) (left, taken string, takenAt int, ok bool) {
	m := reStoryFromTo.FindStringSubmatchIndex(s)
	if m == nil || !reStoryChange.MatchString(s) {
		return "", "", 0, false
	}
	left, taken = s[m[2]:m[3]], s[m[4]:m[5]]
	if !strings.Contains(left, ".") || !strings.Contains(taken, ".") || rules.CompareVersions(left, taken) == 0 {
		return "", "", 0, false
	}
	return left, taken, m[4], true
}

// pendingStory tells the story of a change said a line or two before line
// s, when s says how it went and names no version of its own. It says
// whether it told one.
func (x *Extractor) pendingStory(s string, n int) bool {
	p := x.story.pending
	if !p.ev.set || n-p.ev.line > maxPendingGap || reStoryAnon.MatchString(s) {
		return false
	}
	pol := storyOutcome(s, 0)
	if pol == 0 || reStoryUnfixed.MatchString(s) {
		return false
	}
	good, bad := p.taken, p.left
	if pol < 0 {
		good, bad = p.left, p.taken
	}
	x.tellStory(p.component, good, bad, p.ev, p.ev, p.ev)
	return true
}

// storySides is the version of vers that line s says works and the one it
// says fails, each from its clause, else the clause after or before it
// when that one names no version; "" for none.
func storySides(s string, vers []verAt) (good, bad string) {
	cuts := append([]int{0}, storyCuts(s)...)
	cuts = append(cuts, len(s))
	clause := func(at int) int {
		for i := 1; i < len(cuts); i++ {
			if at < cuts[i] {
				return i - 1
			}
		}
		return len(cuts) - 2
	}
	hasVer := func(c int) bool {
		for _, v := range vers {
			if clause(v.at) == c {
				return true
			}
		}
		return false
	}
	// The version left in "from A to B" fares the other way from the one
	// taken.
	from := map[int]bool{}
	for _, m := range reStoryFromTo.FindAllStringSubmatchIndex(s, 4) {
		from[m[2]] = true
	}
	for _, v := range vers {
		c := clause(v.at)
		pol := storyPolarity(s[cuts[c]:cuts[c+1]])
		// "when I upgraded the driver to 545, it got stuck", "training slows
		// down when upgrading from PyTorch 1.6 to 1.7": the outcome in the
		// next clause, else the one before, when it names no version.
		if pol == 0 && c+2 < len(cuts) && !hasVer(c+1) {
			pol = storyPolarity(s[cuts[c+1]:cuts[c+2]])
		}
		if pol == 0 && c > 0 && !hasVer(c-1) {
			pol = storyPolarity(s[cuts[c-1]:cuts[c]])
		}
		if from[v.at] {
			pol = -pol
		}
		if workedAt(s, v.at) {
			pol = 1
		}
		// A version the line has already said fails does not also work
		// ("after version B5298 ... Before that, everything was
		// normal.On flight B5298, I was unable ..."), nor the reverse.
		switch {
		case pol > 0 && good == "" && v.v != bad:
			good = v.v
		case pol < 0 && bad == "" && v.v != good:
			bad = v.v
		}
	}
	return good, bad
}

// workedAt says whether line s says, right before offset at, that the
// version there used to work (reStoryWorkedAt), not denied.
func workedAt(s string, at int) bool {
	before := s[max(0, at-64):at]
	m := reStoryWorkedAt.FindStringIndex(before)
	return m != nil && !reStoryWorkedNot.MatchString(before[:m[0]])
}

// fromToStory reads line s for a story whose component goes unnamed,
// the program the paste is about: a change from one version to another
// and what it did, in the clause of the version taken or the two after
// ("I just updated from version 1.59.1 to version 1.72, and for whatever
// reason whenever I use row-split, I get this error", LostRuins/koboldcpp#1047).
// Both versions have a dot, so that "from 2 to 4 GPUs" is none. It says
// whether it told the story.
func (x *Extractor) fromToStory(s string, n int, raw string) bool {
	left, taken, takenAt, ok := fromToChange(s)
	if !ok {
		return false
	}
	var e event
	e.mark(n, raw)
	good, bad := left, taken
	switch pol := storyOutcome(s, takenAt); {
	case pol == 0:
		x.pendChange("", s, e)
		return false
	case pol > 0:
		good, bad = taken, left
	}
	x.tellStory("", good, bad, e, e, e)
	return true
}

// anonStory reads line s for a story of versions said alone, of the
// program the paste is about: one said to work and another of the same
// major said to fail, on this line or on lines a few apart (storyHalf).
// A version with a change that led to it and nothing on the other side is
// left to bareStory. It says whether the story is told.
func (x *Extractor) anonStory(s string, n int, raw string) bool {
	// A table's figures marked as passing or failing are results, not
	// versions (huggingface/transformers#47942: "| 3.158 ✅ |").
	if strings.Contains(s, "|") {
		return false
	}
	var vers []verAt
	for _, m := range reStoryAnon.FindAllStringSubmatchIndex(s, 8) {
		// A value given ("loss ≈ 3.16", "lr=0.5") is no version either.
		before := strings.TrimRight(s[:m[0]+1], " ")
		if !reStoryUnit.MatchString(s[m[3]:]) && !strings.HasSuffix(before, "=") && !strings.HasSuffix(before, "≈") && !strings.HasSuffix(before, "~") {
			vers = append(vers, verAt{v: s[m[2]:m[3]], at: m[2]})
		}
	}
	if len(vers) == 0 {
		return false
	}
	good, bad := storySides(s, vers)
	var e event
	e.mark(n, raw)
	switch {
	case good != "" && bad != "":
		if !anonPair(good, bad) {
			return false
		}
		x.tellStory("", good, bad, e, e, e)
	case good != "" || bad != "":
		if reStoryChange.MatchString(s) {
			return false
		}
		// A version said alone completes a named component's half of its
		// major said a few lines before: "there is a bug with pytorch
		// 0.4.1", then "This was not an issue in 0.4.0"
		// (OpenNMT/OpenNMT-py#921).
		if h := x.namedHalf(good+bad, good != "", n); h != nil {
			x.storyHalfAs(h.key, h.component, good, bad, e)
			return x.story.ev.set
		}
		// Halves pair within one major: "0.4.2 works" and "0.5.0 hangs",
		// not a version and a figure of another kind.
		x.storyHalfAs("~"+majorOf(good+bad), "", good, bad, e)
		return x.story.ev.set
	default:
		return false
	}
	return true
}

// anonPair says whether versions good and bad, said alone on one line, can
// be two releases of one program: of one major ("0.4.2 works, 0.4.3
// hangs"), or of any when both have three parts, which figures of other
// kinds seldom have ("I have only seen this issue with 27.0.0. Version
// 26.1.2 worked fine", obsproject/obs-studio#4816).
func anonPair(good, bad string) bool {
	if rules.CompareVersions(good, bad) == 0 {
		return false
	}
	return majorOf(good) == majorOf(bad) || strings.Count(good, ".") >= 2 && strings.Count(bad, ".") >= 2
}

// namedHalf is the half story of a named component whose other side (the
// version that fails, when good; else the one that works) is of version
// v's major and was said at most maxHalfGap lines before line n.
func (x *Extractor) namedHalf(v string, good bool, n int) *storyHalf {
	for i := range x.story.halves {
		h := &x.story.halves[i]
		other, ev := h.bad, h.badEv
		if !good {
			other, ev = h.good, h.goodEv
		}
		if h.component != "" && other != "" && majorOf(other) == majorOf(v) && n-ev.line <= maxHalfGap {
			return h
		}
	}
	return nil
}

// majorOf is version v's first part.
func majorOf(v string) string {
	major, _, _ := strings.Cut(v, ".")
	return major
}

// bareStory reads line s for a story that names no version: a change of
// versions and what it did, in the same clause or the two after ("after
// downgrading HPC-X ..., I tried NCCL-test and it worked well"), or a new
// or old release said to fail or work.
// The component is the one the line names, else the one installed or run
// elsewhere in the paste (storyFacts), else unknown.
func (x *Extractor) bareStory(s string, n int, raw string) {
	if !bisected(s) && !bareChange(s) {
		return
	}
	var e event
	e.mark(n, raw)
	x.tellStory(lineComponent(s), "", "", e, e, e)
	x.story.bare = true
}

// bisected says whether line s finds a regression in the code's history
// (reStoryBisect): one by itself, whatever the line says of how the run
// went; advice to bisect is none. Only advice before the finding counts
// ("you should bisect it"): a hedge after it is the reporter's ("a
// regression in v2.13 (2.10 should work)", NVIDIA/nccl's reports).
func bisected(s string) bool {
	if !containsAny(s, storyBisectWords...) {
		return false
	}
	m := reStoryBisect.FindStringIndex(s)
	return m != nil && !reStoryAdvice.MatchString(s[:m[0]])
}

// bareChange says whether line s says a change of release (reStoryBare)
// broke or fixed the run.
func bareChange(s string) bool {
	if !containsAny(s, storyBareWords...) {
		return false
	}
	m := reStoryBare.FindStringIndex(s)
	return m != nil && !reStoryNotRelease.MatchString(s) && storyOutcome(s, m[0]) != 0
}

// lineComponent is the first component line s names, "" for none;
// nccl-tests ("NCCL-test") is not NCCL.
func lineComponent(s string) string {
	for _, w := range reStoryCompWord.FindAllStringIndex(s, 4) {
		if inPath(s, w[0]) {
			continue
		}
		if rest := strings.ToLower(s[w[1]:]); !strings.HasPrefix(rest, "-test") && !strings.HasPrefix(rest, "_test") {
			return storyComponents[normalSpace(strings.ToLower(s[w[0]:w[1]]))][0]
		}
	}
	return ""
}

// inPath says whether byte i of line s lies in a link or a path: a
// component named in another project's address ("[for instance](https://
// github.com/PyTorchLightning/...)", facebookresearch/fairscale#241) is not
// the one the story is about.
func inPath(s string, i int) bool {
	start := strings.LastIndexAny(s[:i], " \t(<[") + 1
	return strings.Contains(s[start:i], "/")
}

// installedComponent is the component match m of reStoryInstall names.
func installedComponent(m []string) string {
	for _, g := range m[1:] {
		switch g = strings.ToLower(g); {
		case g == "":
		case strings.HasPrefix(g, "nvidia-nccl") || g == "libnccl2":
			return "nccl"
		case g == "nvidia-driver" || g == "cuda-drivers":
			return "driver"
		case g == "cuda-toolkit":
			return "cuda"
		case g == "pytorch":
			return "torch"
		case strings.HasPrefix(g, "tensorrt"):
			return "tensorrt-llm"
		default:
			return g
		}
	}
	return ""
}

// tellStory sets the story of comp: good and bad said on lines goodEv and
// badEv, told by line e.
func (x *Extractor) tellStory(comp, good, bad string, e, goodEv, badEv event) {
	x.story = story{component: comp, good: good, bad: bad, ev: e, installed: x.story.installed}
	if good != "" {
		x.story.goodEv = goodEv
	}
	if bad != "" {
		x.story.badEv = badEv
	}
	for k, c := range storyComponents {
		if c[0] == comp && (x.story.fact == "" || k == comp) {
			x.story.fact = c[1]
		}
	}
}

// storyHalf notes that line e says version good of comp works, or bad
// fails, and tells the story once another line has said the other of
// another version.
func (x *Extractor) storyHalf(comp, good, bad string, e event) {
	x.storyHalfAs(comp, comp, good, bad, e)
}

// storyHalfAs is storyHalf with the halves paired by key, which may be
// other than the component they tell a story of.
func (x *Extractor) storyHalfAs(key, comp, good, bad string, e event) {
	var h *storyHalf
	for i := range x.story.halves {
		if x.story.halves[i].key == key {
			h = &x.story.halves[i]
		}
	}
	if h == nil {
		if len(x.story.halves) >= maxHalves {
			return
		}
		x.story.halves = append(x.story.halves, storyHalf{key: key, component: comp})
		h = &x.story.halves[len(x.story.halves)-1]
	}
	// The first of each is kept until it is too far behind to pair.
	if good != "" && (h.good == "" || e.line-h.goodEv.line > maxHalfGap) {
		h.good, h.goodEv = good, e
	}
	if bad != "" && (h.bad == "" || e.line-h.badEv.line > maxHalfGap) {
		h.bad, h.badEv = bad, e
	}
	if h.good != "" && h.bad != "" && rules.CompareVersions(h.good, h.bad) != 0 && h.goodEv.line-h.badEv.line <= maxHalfGap && h.badEv.line-h.goodEv.line <= maxHalfGap {
		x.tellStory(comp, h.good, h.bad, e, h.goodEv, h.badEv)
	}
}

// storyShape says whether v can be a version of comp on a line whose first
// version of it is first: a driver's is three digits, then dot-separated
// numbers (535, 545.23.08); another's has a dot and the same major as
// first, so that "CUDA 12.1" beside "NCCL 2.18.3" is not NCCL's.
func storyShape(comp, v, first string) bool {
	major, _, dot := strings.Cut(v, ".")
	switch {
	case comp == "driver":
		return len(major) == 3 && major[0] >= '3'
	case comp == "llama.cpp" && !dot:
		// A build number (reStoryBuild).
		return len(v) >= 4
	}
	fmajor, _, _ := strings.Cut(first, ".")
	return dot && major == fmajor
}

// storyOutcome is what line s says of the change of versions at offset at,
// in its clause or the two after (storyPolarity): 0 when that clause is
// advice, a plan or a question, or none of them says.
func storyOutcome(s string, at int) int {
	cuts := append([]int{0}, storyCuts(s)...)
	cuts = append(cuts, len(s))
	c := 0
	for c+2 < len(cuts) && at >= cuts[c+1] {
		c++
	}
	if reStoryAdvice.MatchString(s[cuts[c]:cuts[c+1]]) {
		return 0
	}
	pol := 0
	for i := c; pol == 0 && i <= c+2 && i+1 < len(cuts); i++ {
		pol = storyPolarity(s[cuts[i]:cuts[i+1]])
	}
	return pol
}

// storyCuts are the offsets in s where its clauses end.
func storyCuts(s string) []int {
	var out []int
	for _, m := range reStoryCut.FindAllStringIndex(s, 32) {
		out = append(out, m[1])
	}
	return out
}

// storyPolarity says what clause c says of its version: 1 works, -1
// fails, 0 nothing.
func storyPolarity(c string) int {
	switch {
	case reStoryNone.MatchString(c):
		return 0
	case reStoryNotWork.MatchString(c):
		return -1
	case reStoryDenied.MatchString(c), reStoryFix.MatchString(c):
		return 1
	case reStoryBad.MatchString(c):
		return -1
	case reStoryGood.MatchString(c):
		return 1
	}
	return 0
}

// normalSpace turns runs of spaces and tabs in s into one space.
func normalSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// storyFacts gives the story's facts once the input ends: that it was told
// (version.regression), of which component, its good and bad versions, and
// the bad version as the component's own version where words alone gave
// that one (the version the job runs is the one that fails): a version said
// in words that is the story's good one is no longer the one in use.
func (x *Extractor) storyFacts() {
	st := &x.story
	if !st.ev.set {
		return
	}
	// A change that names no version is weaker: version.changed.
	if st.bare {
		x.setEvent("version.changed", "bool", "true", 1, st.ev, Said)
	} else {
		x.setEvent("version.regression", "bool", "true", 1, st.ev, Said)
	}
	if st.component == "" {
		st.component = st.installed
	}
	if st.component == "" {
		return
	}
	x.setEvent("version.component", "str", st.component, 1, st.ev, Said)
	if st.good != "" {
		x.setEvent("version.good", "version", st.good, 1, st.goodEv, Said)
	}
	if st.bad != "" {
		x.setEvent("version.bad", "version", st.bad, 1, st.badEv, Said)
	}
	if st.fact == "" {
		return
	}
	// A tool's reading stands (prio above 0) unless it shows the version
	// said to work ("✅ Driver Version: 525.125.06" above "❌ Driver
	// Version: 545.29.06", InternLM/lmdeploy#1750): the failure is the other
	// version's, and the entries' version conditions judge that one.
	p := x.prio[st.fact]
	f, known := x.facts[st.fact]
	showsGood := known && st.good != "" && rules.CompareVersions(f.Value, st.good) == 0
	badOK := st.bad != "" && (st.fact != "driver.version" || storyShape("driver", st.bad, st.bad))
	if p > 0 && !(badOK && showsGood) {
		return
	}
	if known && (st.bad != "" || showsGood) {
		delete(x.facts, st.fact)
		delete(x.prio, st.fact)
	}
	if badOK {
		x.setEvent(st.fact, "version", st.bad, p, st.badEv, Said)
	}
}
