// Package synth writes synthetic knowledge bases for benchmarks: entries and
// articles of realistic length in both languages, with inline code, fenced
// CUDA blocks and unique signatures and patterns, the same for the same
// seed. It is never used for the site's content.
package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	domains  = []string{"cuda", "nccl", "pytorch", "tensorflow", "jax", "nvml", "driver"}
	cats     = []string{"runtime_error", "system_error", "hang", "wrong_result", "configuration"}
	subjects = []string{"peer access", "P2P copy", "NVLink", "PCIe switch", "IOMMU", "ACS", "device ordinal", "context", "stream", "allocator", "shared memory transport", "collective", "topology", "driver", "MIG instance", "virtual machine", "container runtime"}
	verbs    = []string{"failed", "is not supported", "timed out", "was rejected", "returned an error", "hung", "is disabled", "is unavailable", "was reset"}
	apis     = []string{"cudaMemcpyPeer", "cudaDeviceEnablePeerAccess", "cuCtxEnablePeerAccess", "ncclAllReduce", "ncclCommInitRank", "nvmlDeviceGetP2PStatus", "cudaIpcOpenMemHandle", "cudaMallocAsync", "torch.cuda.set_device", "tf.distribute.MirroredStrategy"}
	envs     = []string{"NCCL_P2P_DISABLE=1", "NCCL_SHM_DISABLE=1", "CUDA_VISIBLE_DEVICES=0,1", "NCCL_P2P_LEVEL=NVL", "NCCL_IB_DISABLE=1", "CUDA_DEVICE_ORDER=PCI_BUS_ID"}
	words    = strings.Fields("the GPUs cannot reach each other memory directly because the bridge between them redirects every request to the root complex which drops or slows the transfer and the driver reports the failure only when the first copy starts so the program stops long after the cause appears in the configuration of the node")
	zhWords  = []string{"两个", "GPU", "之间", "无法", "直接", "访问", "显存", "因为", "桥接", "请求", "重定向", "到", "根复合体", "驱动", "报告", "错误", "配置", "节点", "传输", "变慢"}
)

type gen struct{ r *rand.Rand }

func (g gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g gen) sentence(n int) string {
	var b []string
	for i := 0; i < n; i++ {
		w := g.pick(words)
		switch g.r.IntN(12) {
		case 0:
			w = "`" + g.pick(apis) + "`"
		case 1:
			w = "`" + g.pick(envs) + "`"
		}
		b = append(b, w)
	}
	s := strings.Join(b, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g gen) zh(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(g.pick(zhWords))
	}
	return b.String() + "。"
}

// Write creates dir/kb with n entries (and kb/schema.json copied from
// schema) and dir/content with n/100 articles in both languages.
func Write(dir string, n int, seed uint64, schema []byte) error {
	g := gen{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	if err := os.MkdirAll(filepath.Join(dir, "kb"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "kb", "schema.json"), schema, 0o644); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		e := g.entry(i)
		p := filepath.Join(dir, "kb", filepath.FromSlash(e["id"].(string))+".json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data, err := json.MarshalIndent(e, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "content"), 0o755); err != nil {
		return err
	}
	for i := 0; i < max(1, n/100); i++ {
		slug := fmt.Sprintf("synthetic-article-%05d", i)
		for _, lang := range []string{"en", "zh"} {
			name := slug + ".md"
			if lang == "zh" {
				name = slug + ".zh.md"
			}
			if err := os.WriteFile(filepath.Join(dir, "content", name), []byte(g.article(i, lang)), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// estimate is the basis of every synthetic rate: none is counted.
var estimate = map[string]any{"estimate": true}

func (g gen) entry(i int) map[string]any {
	domain := domains[i%len(domains)]
	code := fmt.Sprintf("SYN%05d", i)
	subject, verb, api := g.pick(subjects), g.pick(verbs), g.pick(apis)
	sig := fmt.Sprintf("RuntimeError: %s %s in %s on GPU:%d (%s, case %d)", subject, verb, api, g.r.IntN(8), code, i)
	re := regexp.QuoteMeta(sig)
	re = regexp.MustCompile(`GPU:\d+`).ReplaceAllString(re, `GPU:\d+`)
	var works, worksZH []string
	var wk []map[string]any
	for j := 0; j < 2+g.r.IntN(3); j++ {
		w := g.sentence(25 + g.r.IntN(20))
		works = append(works, w)
		worksZH = append(worksZH, g.zh(30))
		wk = append(wk, map[string]any{"action": w, "success_rate": float64(50+g.r.IntN(50)) / 100, "success_rate_basis": estimate, "condition": "", "sources": []string{}})
	}
	var dead []map[string]any
	for j := 0; j < 1+g.r.IntN(3); j++ {
		dead = append(dead, map[string]any{"action": g.sentence(8), "why_fails": g.sentence(20), "why_fails_zh": g.zh(20), "fail_rate": float64(40+g.r.IntN(60)) / 100, "fail_rate_basis": estimate, "condition": "", "sources": []string{}})
	}
	// Lint checks every signature against the text it was copied from; a
	// synthetic entry's excerpt is its own signature.
	return map[string]any{
		"$schema": "../schema.json", "id": fmt.Sprintf("%s/synthetic-%05d", domain, i),
		"signature": sig, "signature_zh": "运行时错误：" + g.zh(8) + " (" + code + ")", "regex": re,
		"signature_source": map[string]any{"kind": "documentation", "url": "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html", "excerpt": sig},
		"domain":           domain, "category": g.pick(cats), "subcategory": nil,
		"root_cause": g.sentence(40 + g.r.IntN(30)), "root_cause_type": "generic", "root_cause_zh": g.zh(45),
		"versions":    []map[string]any{{"version": fmt.Sprintf("cuda>=%d.%d", 11+g.r.IntN(3), g.r.IntN(9)), "status": "active"}, {"version": fmt.Sprintf("nvidia-driver>=%d", 470+g.r.IntN(120)), "status": "active"}},
		"os_specific": map[string]string{}, "dead_ends": dead, "workarounds": wk, "workarounds_zh": worksZH,
		"transition_graph": map[string]any{"leads_to": []string{}, "preceded_by": []string{}, "frequently_confused_with": []string{}},
		"official_doc_url": "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__PEER.html", "official_doc_section": nil,
		"error_code": strings.ToLower(code), "verification_tier": "ai_generated", "confidence": 0.8, "fix_success_rate": 0.7, "fix_success_rate_basis": estimate, "resolvable": "partial",
		"first_seen": "2024-01-01", "last_confirmed": "2024-06-01", "last_updated": "2024-06-01", "evidence_count": 1 + g.r.IntN(20),
		"tags": []string{"p2p", domain}, "locale": "en", "aliases": []string{fmt.Sprintf("ERR_%d", 7000+i)},
	}
}

func (g gen) article(i int, lang string) string {
	var b strings.Builder
	title := fmt.Sprintf("Synthetic article %d about %s", i, g.pick(subjects))
	if lang == "zh" {
		title = fmt.Sprintf("合成文章 %d：%s", i, g.zh(3))
	}
	fmt.Fprintf(&b, "---\ntitle: %q\ndate: \"2025-01-30\"\nsummary: %q\ntags: [\"p2p\", \"synthetic\"]\nverification: ai_generated\n---\n", title, g.sentence(15))
	for s := 0; s < 5; s++ {
		fmt.Fprintf(&b, "\n## Section %d\n\n", s+1)
		for p := 0; p < 3; p++ {
			if lang == "zh" {
				b.WriteString(g.zh(60) + "\n\n")
			} else {
				b.WriteString(g.sentence(60) + "\n\n")
			}
		}
		if s%2 == 0 {
			fmt.Fprintf(&b, "```cuda\n__global__ void k%d(float *a) { a[threadIdx.x] *= 2.0f; }\nint main() {\n  float *p; cudaMalloc(&p, 1024);\n  k%d<<<1, 256>>>(p);\n  cudaError_t e = %s(0, 0);\n  return e != cudaSuccess;\n}\n```\n", s, s, "cudaDeviceEnablePeerAccess")
		}
	}
	return b.String()
}
