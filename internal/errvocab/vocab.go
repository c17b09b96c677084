// Package errvocab knows what a failed call prints: every CUDA runtime and
// driver error, NCCL result and Linux errno by name, code and message, and
// the shapes of the lines in which each layer of the stack (NCCL, a custom
// all-reduce kernel, MPI and UCX, a benchmark, a framework) reports the error
// it got from the layer below. It reads a line into who printed it and what
// went wrong inside; it knows nothing of the knowledge base.
package errvocab

import (
	"bufio"
	_ "embed"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Error is one error of the vocabulary.
type Error struct {
	Family string `json:"family"` // cuda_runtime, cuda_driver, nccl, errno or xid
	Code   int    `json:"code"`   // its number: 217, 1, 22, 79
	Name   string `json:"name"`   // cudaErrorPeerAccessUnsupported, ncclUnhandledCudaError, EINVAL, ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS
	Text   string `json:"text"`   // what the library's error-string call returns for it
}

// The families, as Error.Family names them.
const (
	CUDARuntime = "cuda_runtime"
	CUDADriver  = "cuda_driver"
	NCCL        = "nccl"
	Errno       = "errno"
	Xid         = "xid" // the NVIDIA kernel driver's Xid events, by NVIDIA's Xid catalog
)

var (
	//go:embed cuda.tsv
	cudaTSV string
	//go:embed nccl.tsv
	ncclTSV string
	//go:embed errno.tsv
	errnoTSV string
	//go:embed xid.tsv
	xidTSV string
)

// vocab is every error, with the indexes Read looks them up by.
type vocab struct {
	all    []Error
	byName map[string]int            // name -> index in all
	byCode map[string]map[int]int    // family -> code -> index
	byText map[string]map[string]int // family -> message (and its short form) -> index
	byNorm map[string]map[string]int // family -> message as norm writes it -> index
}

var v = load()

func load() *vocab {
	x := &vocab{byName: map[string]int{}, byCode: map[string]map[int]int{}, byText: map[string]map[string]int{}, byNorm: map[string]map[string]int{}}
	read := func(file, data string, cols int, family func([]string) string) {
		sc := bufio.NewScanner(strings.NewReader(data))
		n := 0
		for sc.Scan() {
			n++
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			f := strings.Split(line, "\t")
			if len(f) != cols {
				panic(fmt.Sprintf("errvocab: %s:%d: %d fields, want %d", file, n, len(f), cols))
			}
			fam := family(f)
			f = f[cols-3:]
			code, err := strconv.Atoi(f[0])
			if err != nil {
				panic(fmt.Sprintf("errvocab: %s:%d: code %q: %v", file, n, f[0], err))
			}
			x.add(Error{Family: fam, Code: code, Name: f[1], Text: f[2]})
		}
	}
	read("cuda.tsv", cudaTSV, 4, func(f []string) string {
		if f[0] == "driver" {
			return CUDADriver
		}
		return CUDARuntime
	})
	read("nccl.tsv", ncclTSV, 3, func([]string) string { return NCCL })
	read("errno.tsv", errnoTSV, 3, func([]string) string { return Errno })
	read("xid.tsv", xidTSV, 3, func([]string) string { return Xid })
	return x
}

func (x *vocab) add(e Error) {
	i := len(x.all)
	x.all = append(x.all, e)
	if _, ok := x.byName[e.Name]; !ok {
		x.byName[e.Name] = i
	}
	if x.byCode[e.Family] == nil {
		x.byCode[e.Family], x.byText[e.Family], x.byNorm[e.Family] = map[int]int{}, map[string]int{}, map[string]int{}
	}
	x.byCode[e.Family][e.Code] = i
	for _, t := range []string{e.Text, shortText(e.Text)} {
		if _, ok := x.byText[e.Family][t]; !ok {
			x.byText[e.Family][t] = i
		}
		if _, ok := x.byNorm[e.Family][norm(t)]; !ok {
			x.byNorm[e.Family][norm(t)] = i
		}
	}
}

// norm is a message as people quote it, whatever they changed of it: in
// lower case, spaces collapsed, without a final full stop or plural s
// ("Peer access is not supported between these two device").
func norm(t string) string {
	t = strings.ToLower(strings.Join(strings.Fields(t), " "))
	t = strings.TrimRight(t, ". ")
	return strings.TrimSuffix(t, "s")
}

// shortText is a message without the advice NCCL appends to it: NCCL before
// 2.8 printed "unhandled cuda error" alone.
func shortText(t string) string {
	for _, sep := range []string{" (run with", " - please"} {
		if i := strings.Index(t, sep); i > 0 {
			return t[:i]
		}
	}
	return t
}

// ByName returns the error of that name (cudaErrorInvalidValue,
// CUDA_ERROR_INVALID_VALUE, ncclSystemError, ECONNREFUSED).
func ByName(name string) (Error, bool) {
	i, ok := v.byName[name]
	if !ok {
		return Error{}, false
	}
	return v.all[i], true
}

// ByCode returns the error of a family by its number.
func ByCode(family string, code int) (Error, bool) {
	i, ok := v.byCode[family][code]
	if !ok {
		return Error{}, false
	}
	return v.all[i], true
}

// ByText returns the error of one of families whose message text is, or
// starts text followed by something that is not a letter (a message is often
// followed by where it happened), in any case; else whose message text is as
// people quote it (norm: another case, no plural s); the first family that
// knows it wins.
func ByText(text string, families ...string) (Error, bool) {
	text = strings.TrimSpace(text)
	for _, fam := range families {
		if i, ok := v.byText[fam][text]; ok {
			return v.all[i], true
		}
	}
	// The longest message that starts text.
	best, bestLen := -1, 0
	for _, fam := range families {
		for t, i := range v.byText[fam] {
			if len(t) > bestLen && len(t) >= 8 && len(t) <= len(text) && strings.EqualFold(text[:len(t)], t) && !letter(text, len(t)) {
				best, bestLen = i, len(t)
			}
		}
		if best >= 0 {
			return v.all[best], true
		}
	}
	n := norm(text)
	for _, fam := range families {
		if i, ok := v.byNorm[fam][n]; ok && len(n) >= 8 {
			return v.all[i], true
		}
	}
	return Error{}, false
}

func letter(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Same lists the names of the error in every family that shares its message
// and number, the error's own first: the runtime's cudaErrorPeerAccessUnsupported
// is the driver's CUDA_ERROR_PEER_ACCESS_UNSUPPORTED.
func Same(e Error) []string {
	out := []string{e.Name}
	if e.Family == Xid {
		return append(out, "Xid "+strconv.Itoa(e.Code)) // as entries and people name it
	}
	other := map[string]string{CUDARuntime: CUDADriver, CUDADriver: CUDARuntime}[e.Family]
	if other == "" {
		return out
	}
	if o, ok := ByCode(other, e.Code); ok && o.Text == e.Text {
		out = append(out, o.Name)
	} else if i, ok := v.byText[other][e.Text]; ok {
		out = append(out, v.all[i].Name)
	}
	return out
}

// All lists every error of a family, by code.
func All(family string) []Error {
	var out []Error
	for _, e := range v.all {
		if e.Family == family {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Result tells whether text is nothing but an NCCL result: its name
// (ncclUnhandledCudaError) or its message, with or without the advice NCCL
// appends ("unhandled cuda error"), and not a CUDA error's too. A line that says only that wraps an
// error it does not name: the line that names it (NCCL's WARN line, the
// "Last error:" below PyTorch's) is the one that explains it.
func Result(text string) bool {
	t := strings.TrimSpace(text)
	if e, ok := ByName(t); ok {
		return e.Family == NCCL && e.Code != 0
	}
	// PyTorch names the place NCCL's call failed and then its result
	// ("NCCL error in: ProcessGroupNCCL.cpp:1269, invalid argument"): the
	// result there is NCCL's, whatever CUDA's strings hold.
	if m := torchNCCLError.FindStringSubmatch(t); m != nil {
		i, ok := v.byText[NCCL][m[1]]
		return ok && v.all[i].Code != 0
	}
	i, ok := v.byText[NCCL][t]
	if !ok || v.all[i].Code == 0 {
		return false
	}
	// "invalid argument" is CUDA's cudaErrorInvalidValue too: a line that
	// says it may name the failure itself.
	_, rt := v.byText[CUDARuntime][t]
	_, dr := v.byText[CUDADriver][t]
	return !rt && !dr
}

// torchNCCLError is PyTorch's line of a failed NCCL call up to its result.
var torchNCCLError = regexp.MustCompile(`^NCCL error in: \S+:\d+, (.+)$`)

// bareWrap are the words a CUDA check prints around an error whatever
// program it is in: "CUDA error: ", "cudaErrorX: ".
var bareWrap = []string{"RuntimeError: ", "CUDA error: ", "CUDA error ", "Cuda error: ", "error: "}

// Bare tells whether a message is nothing but an error of the vocabulary:
// its name, its message, or both, with the words every CUDA check prints
// around them. Such a message says what failed and not who called: an
// entry whose signature is bare explains the error in general, and ranks
// below one that names the layer too.
func Bare(msg string) bool {
	s := strings.TrimSpace(msg)
	for _, w := range bareWrap {
		s = strings.TrimPrefix(s, w)
	}
	if name, rest, ok := strings.Cut(s, ": "); ok {
		if _, known := ByName(name); known {
			s = rest
		}
	}
	s = strings.TrimSpace(s)
	if _, ok := ByName(s); ok {
		return true
	}
	for _, fam := range []string{CUDARuntime, CUDADriver, NCCL} {
		if _, ok := v.byText[fam][s]; ok {
			return true
		}
	}
	return false
}
