// Package draft writes the skeleton of a new KB entry from a pasted error: it
// picks the line that reports the error, strips the log's own prefixes
// (timestamps, ranks, NCCL's host:pid:tid), keeps the message verbatim as the
// signature, and generalizes its variable parts (numbers, addresses, paths)
// into a regex that is checked against the line. Everything a person must
// still write says TODO, which lint refuses in a published entry.
package draft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/p2pkb/p2pkb/internal/kb"
)

// Draft is a new entry, ready to be written to Path.
type Draft struct {
	Path      string // <domain>/<slug>.json inside the KB
	Line      string // the line of the paste the entry is for
	Signature string // the message, without the log's prefixes
	Regex     string // matches Line and Signature
	JSON      []byte // the entry file
}

// Prefixes a log puts before a message, which are no part of it.
var prefixes = []*regexp.Regexp{
	regexp.MustCompile(`^\s*>\s?`), // a quoted line
	regexp.MustCompile(`^\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s*`), // ISO time
	regexp.MustCompile(`^\[?[A-Z][a-z]{2} +\d+ \d\d:\d\d:\d\d\]?\s*`),                                  // syslog time
	regexp.MustCompile(`^\[\s*\d+\.\d+\]\s*`),                                                          // dmesg time
	regexp.MustCompile(`^\[(?:rank|RANK|Rank)\s*\d+\]:?\s*`),                                           // torchrun
	regexp.MustCompile(`^\((?:pid=\d+|[\w.]+ pid=\d+)(?:, ip=[\d.]+)?\)\s*`),                           // Ray
	regexp.MustCompile(`^[\w.-]+:\d+:\d+ \[\d+\] `),                                                    // NCCL host:pid:tid [dev]
	regexp.MustCompile(`^(?:INFO|WARNING|WARN|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \S+\] `),        // vLLM
}

// Words that make a line the likely error.
var errorWords = regexp.MustCompile(`(?i)\b(error|failed|failure|fault|unhandled|exception|abort|cannot|not supported|timed? ?out|invalid|warn)\b`)

// Line picks the line of text that reports the error: the last line with
// the most error words, so that a traceback gives its final exception.
func Line(text string) string {
	best, score := "", 0
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(errorWords.FindAllString(l, -1)); n >= score && n > 0 {
			best, score = l, n
		}
	}
	if best == "" {
		for _, l := range strings.Split(text, "\n") {
			if strings.TrimSpace(l) != "" {
				best = strings.TrimRight(l, "\r")
			}
		}
	}
	return best
}

// Message strips the log's prefixes from a line.
func Message(line string) string {
	for changed := true; changed; {
		changed = false
		for _, p := range prefixes {
			if loc := p.FindStringIndex(line); loc != nil && loc[1] > 0 {
				line, changed = line[loc[1]:], true
			}
		}
	}
	return strings.TrimSpace(line)
}

// The variable parts of a message, in the order they are tried.
var variable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`0x[0-9a-fA-F]+`), `0x[0-9a-fA-F]+`},
	{regexp.MustCompile(`(?:/[\w.+-]+)+/?`), `\S+`},
	{regexp.MustCompile(`\b[0-9a-fA-F]{4,}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F]\b`), `[0-9a-fA-F:.]+`}, // PCI bus id
	// Bounded: an unbounded group after \d+ is what lint refuses, since the
	// site's backtracking engine could take exponential time on it.
	{regexp.MustCompile(`\d+(?:\.\d+)*`), `\d+(?:\.\d+){0,4}`},
}

// Pattern turns a message into a regex: literal text quoted, variable parts
// generalized.
func Pattern(msg string) string {
	var b strings.Builder
	for len(msg) > 0 {
		at, end, with := len(msg), len(msg), ""
		for _, v := range variable {
			if loc := v.re.FindStringIndex(msg); loc != nil && loc[1] > loc[0] && loc[0] < at {
				at, end, with = loc[0], loc[1], v.with
			}
		}
		b.WriteString(regexp.QuoteMeta(msg[:at]))
		b.WriteString(with)
		msg = msg[end:]
	}
	return b.String()
}

// Domain guesses the domain of a message from the software it names.
func Domain(msg string) string {
	for _, d := range []struct{ re, domain string }{
		{`NCCL|nccl`, "nccl"},
		{`vllm|vLLM|[Cc]ustom allreduce|custom_all_reduce`, "vllm"},
		{`sglang`, "sglang"},
		{`TensorRT-LLM|tensorrt_llm`, "tensorrt-llm"},
		{`tensorflow|TensorFlow|\btf\.`, "tensorflow"},
		{`\bjax\b|JAX|XLA|xla`, "jax"},
		{`torch|RuntimeError|AcceleratorError|DistBackendError`, "pytorch"},
		{`NVRM|AMD-Vi|DMAR|IO_PAGE_FAULT|ACSCtl|iommu`, "linux"},
		{`ucx|UCX|cuda_ipc`, "ucx"},
		{`MPI|mca_|opal_|OMPI`, "openmpi"},
		{`NVML|nvidia-smi`, "nvml"},
	} {
		if regexp.MustCompile(d.re).MatchString(msg) {
			return d.domain
		}
	}
	return "cuda"
}

var codeRE = regexp.MustCompile(`\b(cuda[A-Z]\w+|CUDA_ERROR_\w+|nccl[A-Z]\w+|cu[A-Z]\w+Error\w*)\b`)

// slug names a file after the message's words.
func slug(msg string) string {
	words := regexp.MustCompile(`[a-z]+`).FindAllString(strings.ToLower(msg), -1)
	var keep []string
	for _, w := range words {
		if len(w) > 2 && w != "the" && w != "and" && w != "error" {
			keep = append(keep, w)
		}
		if len(keep) == 6 {
			break
		}
	}
	if len(keep) == 0 {
		return "new-entry"
	}
	return strings.Join(keep, "-")
}

// New makes the skeleton of an entry for the error in text, dated today.
func New(text, today string) (*Draft, error) {
	line := Line(text)
	msg := Message(line)
	if msg == "" {
		return nil, errors.New("no error message in the input")
	}
	expr := Pattern(msg)
	re, err := kb.CompilePattern(expr)
	if err != nil {
		return nil, fmt.Errorf("the pattern made from %q: %w", msg, err)
	}
	if !re.MatchString(line) || !re.MatchString(msg) {
		return nil, fmt.Errorf("the pattern %s does not match the line %q", expr, line)
	}
	domain := Domain(msg)
	id := domain + "/" + slug(msg)
	// A code the software prints when the message holds one, else a plain
	// id that no one takes for such a code.
	code := strings.ReplaceAll(id, "/", "-")
	if m := codeRE.FindString(msg); m != "" && kb.IsPrintedCode(m) {
		code = m
	}
	todo := func(what string) string { return kb.TODO + ": " + what }
	entry := map[string]any{
		"$schema":           "../schema.json",
		"id":                id,
		"signature":         msg,
		"regex":             expr,
		"signature_source":  map[string]any{"kind": "report", "url": "https://example.invalid/TODO", "note": todo("the report, source line or reproduction the signature is copied from"), "excerpt": line},
		"domain":            domain,
		"category":          "runtime_error",
		"root_cause":        todo("why it happens; say so if it is a guess"),
		"root_cause_zh":     todo("根本原因"),
		"versions":          []any{map[string]any{"version": todo("component and version it was seen with, e.g. CUDA 12.4"), "status": "active"}},
		"dead_ends":         []any{map[string]any{"action": todo("what people try that fails"), "action_zh": todo("无效的做法"), "why_fails": todo("why"), "why_fails_zh": todo("原因"), "fail_rate": 0.5, "fail_rate_basis": map[string]any{"estimate": true}, "condition": "", "sources": []any{}}},
		"workarounds":       []any{map[string]any{"action": todo("what fixes it"), "success_rate": 0.5, "success_rate_basis": map[string]any{"estimate": true}, "condition": "", "sources": []any{}}},
		"workarounds_zh":    []any{todo("有效的办法")},
		"transition_graph":  map[string]any{"leads_to": []any{}, "preceded_by": []any{}, "frequently_confused_with": []any{}},
		"error_code":        code,
		"verification_tier": "ai_generated",
		"confidence":        0.5,
		"first_seen":        today,
		"last_updated":      today,
		"tags":              []any{"p2p"},
		"locale":            "en",
		"applies_when":      "",
	}
	data, err := marshal(entry)
	if err != nil {
		return nil, err
	}
	return &Draft{Path: id + ".json", Line: line, Signature: msg, Regex: expr, JSON: data}, nil
}

// marshal writes the entry in the order of kb/schema.json's fields, so a
// skeleton reads like the entries beside it.
func marshal(entry map[string]any) ([]byte, error) {
	order := []string{"$schema", "id", "signature", "signature_source", "regex", "domain", "category",
		"root_cause", "root_cause_zh", "versions", "dead_ends", "workarounds", "workarounds_zh", "transition_graph",
		"error_code", "verification_tier", "confidence", "first_seen", "last_updated", "tags", "locale", "applies_when"}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range order {
		var v bytes.Buffer
		enc := json.NewEncoder(&v)
		enc.SetEscapeHTML(false) // messages quote <...> and & as printed
		enc.SetIndent("  ", "  ")
		if err := enc.Encode(entry[k]); err != nil {
			return nil, err
		}
		key, _ := json.Marshal(k)
		fmt.Fprintf(&b, "  %s: %s", key, bytes.TrimRight(v.Bytes(), "\n"))
		if i < len(order)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
