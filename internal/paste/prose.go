package paste

import "strings"

// What people write about a run rather than what it prints: "the job hangs
// at all_reduce", a run stopped with Ctrl-C in a collective, "the output is
// gibberish", "-nan instead of 10 is received". Each reader
// keeps the first line that says it, and needs the GPU or collective it
// happens in on the same line (or, for Ctrl-C, somewhere in the paste), so
// that a hang of something else is not read as one.

var (
	reHangWord  = pattern("hangWord", `(?i)\b(?:hangs?|hanging|hung|stuck|freez(?:es|ing|e)|froze|frozen|deadlock(?:s|ed)?)\b|卡住|卡死|卡在|挂起|死锁`)
	reHangNot   = pattern("hangNot", `(?i)(?:\bnot|\bnever|\bno longer|n't|\bwithout)\s{1,4}(?:\w{1,20}\s{1,4})?(?:hang|hung|stuck|freez|froze|deadlock)`)
	reHangWhere = pattern("hangWhere", `(?i)all_?reduce|all-reduce|all_?gather|reduce_?scatter|broadcast|barrier|init_process_group|\bnccl|collective|\bgpus?\b|multi-?gpu|p2pBandwidthLatencyTest|simpleP2P|_perf\b|\bddp\b|distributed|deepspeed|torchrun|tensor.parallel|\bcuda\b|\.generate\(|vllm|分布式|多卡|显卡`)
	reWrongOut  = pattern("wrongOut", `(?i)\b(?:wrong|incorrect|corrupt(?:ed)?|garbage|garbled|gibberish|nonsense|bogus)\s(?:\w{1,20}\s){0,2}(?:values?|results?|outputs?|data|answers?|numbers?|text|tokens?|tensors?|gradients?)\b|\b(?:outputs?|returns?|prints?|gives?|generates?|produces?|is|are)\s(?:\w{1,20}\s){0,2}(?:gibberish|garbage|nonsense|zeros)\b|\b(?:nan|zeros?|0)\W{0,3}\sinstead of\b|\bsilent(?:ly)? corrupt`)
	reDistCall  = pattern("distCall", `init_process_group|all_?reduce|barrier\(|torch[/.]distributed|\bdist\.|deepspeed`)
)

// hangWords are the words, as written, that a line saying a run hangs
// holds one of (reHangWord, case folded): the prefilter's triggers.
var hangWords = []string{"hang", "Hang", "HANG", "hung", "Hung", "stuck", "Stuck", "STUCK", "freez", "Freez", "FREEZ", "froze", "Froze", "deadlock", "Deadlock",
	"卡住", "卡死", "卡在", "挂起", "死锁"}

// wrongWords are the words, as written, one of which every match of
// reWrongOut holds.
var wrongWords = []string{"wrong", "Wrong", "WRONG", "incorrect", "Incorrect", "corrupt", "Corrupt", "garbage", "Garbage", "garbled", "Garbled",
	"gibberish", "Gibberish", "nonsense", "Nonsense", "bogus", "Bogus", "zeros", "Zeros", "ZEROS", "instead of", "Instead of", "ilent"}

// distWords are the words one of which every match of reDistCall holds.
var distWords = []string{"init_process_group", "all_reduce", "allreduce", "barrier(", "torch/distributed", "torch.distributed", "dist.", "deepspeed"}

// prose is the state of these readers.
type prose struct {
	hang  event // a line that says a run on GPUs hangs
	ctrlC event // a run stopped by hand (^C, KeyboardInterrupt)
	wrong event // a line that says results came back wrong
	dist  bool  // the paste calls torch.distributed or DeepSpeed
}

// proseLine reads stripped line s.
func (x *Extractor) proseLine(s string, n int, raw string) {
	p := &x.prose
	if !p.hang.set && containsAny(s, hangWords...) && reHangWord.MatchString(s) &&
		reHangWhere.MatchString(s) && !reHangNot.MatchString(s) {
		p.hang.mark(n, raw)
	}
	if !p.wrong.set && containsAny(s, wrongWords...) && reWrongOut.MatchString(s) {
		p.wrong.mark(n, raw)
	}
	if strings.HasPrefix(s, "^C") || strings.HasPrefix(s, "@^C") || strings.Contains(s, "KeyboardInterrupt") {
		p.ctrlC.mark(n, raw)
	}
	if !p.dist && containsAny(s, distWords...) && reDistCall.MatchString(s) {
		p.dist = true
	}
}

// proseFacts gives the facts of these readers once the input ends: a run
// that hangs, said in words, or a distributed run interrupted by hand.
func (x *Extractor) proseFacts() {
	p := &x.prose
	x.setEvent("hang.seen", "bool", "true", 2, p.hang, "description")
	x.setEvent("output.wrong", "bool", "true", 1, p.wrong, "description")
	if p.dist {
		x.setEvent("hang.seen", "bool", "true", 1, p.ctrlC, "interrupted run")
	}
}
