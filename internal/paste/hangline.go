package paste

import (
	"slices"
	"strings"
)

// A hang said by the program that waited: the error lines that say a
// collective, a communicator's set-up or a barrier did not finish in time.
// Such a line says that something hung, not why: the rest of the paste (the
// driver branch, NCCL's release, /dev/shm in a container, NVLS) may say why,
// and the entries that read hang.seen hold with it.

var (
	// PyTorch's NCCL watchdog ("Watchdog caught collective operation
	// timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, ...) ran for 60273
	// milliseconds before timing out", "Timeout at NCCL work: 1, last
	// enqueued NCCL work: 1", its flight recorder's "Received a dump signal
	// due to a collective timeout", its heartbeat monitor's "watchdog got
	// stuck for 480 seconds without making progress"), the store-based
	// barrier of init_process_group, the non-blocking communicator's init
	// ("NCCL timeout when waiting for nonblocking call to become
	// successful", "NCCL timeout in: ../torch/csrc/distributed/c10d/
	// NCCLUtils.cpp:84"), Horovod's stall inspector ("waiting
	// for remainder of ranks for more than 60 seconds") and XLA's rendezvous
	// ("Expected 8 threads to join the rendezvous, but not all of them
	// arrived on time").
	reHangLine = pattern("hangLine", `Watchdog caught collective operation timeout|\bTimeout at NCCL work: -?\d|Received a dump signal due to a collective timeout|\bwatchdog got stuck for \d{1,9} seconds without making progress|`+
		`Timed out initializing process group in store based ?barrier|\bNCCL timeout (?:in: \S|when waiting for nonblocking call)|`+
		`waiting for remainder of ranks for more than \d{1,9} seconds|Expected \d{1,6} threads to join the rendezvous, but not all of them arrived`)
	// A person who quotes the line to say it no longer comes ("no more
	// Watchdog caught collective operation timeout after the fix").
	reHangLineNot = pattern("hangLineNot", `(?i)(?:\bno|\bnot|\bnever|\bwithout|\bno longer|\bno more|n't)\s(?:\w{1,20}\s){0,4}["'\x60(]?(?:\[[^\]]{0,40}\]\s)?(?:watchdog caught|timeout at nccl work|nccl timeout|watchdog got stuck|timed out initializing process group|waiting for remainder)`)
)

// PyTorch's watchdog line names the collective that timed out on its rank
// (SeqNum, OpType, NumelIn). Ranks that wait at the same SeqNum in
// different collectives, or in the same one with different sizes, were
// not called alike: the program's mismatch, not a transport that hangs
// (modelscope/FunASR#2317: rank 0 in an ALLREDUCE of 4311252 elements,
// rank 1 in one of 1 element, both at SeqNum 3437). Point-to-point sends
// and receives pair different operations, and all-to-all and gather take
// sizes of their own, so only the collectives of one size compare sizes.
var reWatchdogWork = pattern("watchdogWork", `\bRank (\d+)\] Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(\d+), OpType=(\w+), NumelIn=(\d+),`)

// maxWorks bounds the collectives remembered to compare (a log of
// thousands of ranks needs only a pair).
const maxWorks = 256

// work is the collective a rank's watchdog line waits in.
type work struct{ rank, op, numel string }

// sameSize are the operations whose input has one size on every rank.
var sameSize = []string{"ALLREDUCE", "BROADCAST", "REDUCE", "ALLGATHER", "_ALLGATHER_BASE", "REDUCE_SCATTER", "_REDUCE_SCATTER_BASE"}

// watchdogWork reads a watchdog line's collective and marks differ when
// another rank waits at the same SeqNum in another one.
func (p *prose) watchdogWork(s string, n int, raw string) {
	m := reWatchdogWork.FindStringSubmatch(s)
	if m == nil || m[3] == "SEND" || m[3] == "RECV" {
		return
	}
	w, seq := work{rank: m[1], op: m[3], numel: m[4]}, m[2]
	prev, ok := p.works[seq]
	if !ok {
		if len(p.works) < maxWorks {
			if p.works == nil {
				p.works = map[string]work{}
			}
			p.works[seq] = w
		}
		return
	}
	if prev.rank != w.rank && (prev.op != w.op || slices.Contains(sameSize, w.op) && prev.numel != w.numel) {
		p.differ.mark(n, raw)
	}
}

// hangLineWords are the words, as written, one of which every match of
// reHangLine holds; NCCL's own INFO lines hold none.
var hangLineWords = []string{"Watchdog caught", "Timeout at NCCL work", "dump signal", "watchdog got stuck", "store based", "NCCL timeout",
	"remainder of ranks", "join the rendezvous"}

// hangLineRead reads stripped line s for the first line that says a
// collective, a set-up or a barrier timed out.
func (x *Extractor) hangLineRead(s string, n int, raw string) {
	p := &x.prose
	if !p.hangLine.set && HangLine(s) {
		p.hangLine.mark(n, raw)
	}
	if !p.differ.set && strings.Contains(s, "WorkNCCL(SeqNum=") {
		p.watchdogWork(s, n, raw)
	}
}

// HangLine says whether line is one of a program saying that a collective,
// a set-up or a barrier timed out: a line that tells that something hung,
// not why. Explain answers such lines with what the rest of the paste says
// about why first (assets/paste.js's hangLine is the same).
func HangLine(line string) bool {
	return containsAny(line, hangLineWords...) && !strings.Contains(line, "NCCL INFO") && reHangLine.MatchString(line) && !reHangLineNot.MatchString(line)
}
