package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The browser names facts and says what shows them from the table written
// here (assets/rules.js runs it): the site's build writes it to TablePath,
// so that each name is written once.

// TablePath is the script the build writes with the facts' table; rules.js
// reads it as window.p2pkbRulesTable.
const TablePath = "assets/rules.table.js"

// pasteSource is an output that shows facts when pasted with a log: those
// named, and those whose names start with a prefix.
type pasteSource struct {
	Paste    string   `json:"paste"`
	Facts    []string `json:"facts,omitempty"`
	Prefixes []string `json:"prefixes,omitempty"`
}

// pasteSources are read in order: the first that names a fact shows it.
var pasteSources = []pasteSource{
	{Paste: "nvidia-smi topo -p2p r", Facts: []string{"p2p.all_pairs_ok", "p2p.blocked_pairs"}},
	{Paste: "nvidia-smi topo -m", Facts: []string{"nvlink.present", "nvswitch.present", "topo.sys_pairs", "topo.known"}},
	// nvidia-smi's process table shows which GPUs a job's processes use.
	{Paste: "nvidia-smi", Facts: []string{"gpu.unwanted_use", "memory.oom"}},
	{Paste: "nvidia-smi -L", Facts: []string{"gpu.count", "mig.enabled", "gpu.consumer", "gpu.arch"}},
	{Paste: "rocm-smi --showproductname", Facts: []string{"gpu.amd"}},
	{Paste: "nvidia-smi", Facts: []string{"driver.version", "cuda.driver"}},
	{Paste: "nvcc --version", Facts: []string{"cuda.version"}},
	{Paste: "python -m torch.utils.collect_env", Facts: []string{"cuda.build"}},
	{Paste: "nvidia-smi -q", Facts: []string{"gpu.bar1_mib", "gpu.bar1_small"}},
	// lscpu names the CPU's maker and counts its sockets.
	{Paste: "lscpu", Facts: []string{"cpu.amd", "cpu.sockets"}},
	// The file system type of the directory each node reads (nfs, lustre
	// or a local disk) shows whether the nodes share it.
	{Paste: "df -hT", Facts: []string{"storage.node_local"}},
	// The ports held on the machine show what a second job collides with.
	{Paste: "ss -ltnp", Facts: []string{"launch.second_job"}},
	// A run with P2P off shows whether the path between the GPUs is what fails.
	{Paste: "NCCL_P2P_DISABLE=1", Facts: []string{"p2p.off_works"}},
	// A run with the other GPU made device 0 of the process shows whether
	// the program assumes device 0 or the GPU itself fails.
	{Paste: "CUDA_VISIBLE_DEVICES=1", Facts: []string{"gpu.first_only"}},
	{Paste: "NCCL_DEBUG=INFO", Prefixes: []string{"nccl.", "env.NCCL_"}},
	{Paste: "sudo dmesg", Prefixes: []string{"iommu.", "xid."}},
	{Paste: "sudo lspci -vvv", Facts: []string{"acs.redirect"}},
	{Paste: "p2pBandwidthLatencyTest", Prefixes: []string{"p2p.test."}},
	{Paste: "pip list", Prefixes: []string{"python."}},
}

// PasteFor is the output that shows a fact when pasted with a log
// ("nvidia-smi topo -m" for nvlink.present); "" when none does.
func PasteFor(fact string) string {
	for _, s := range pasteSources {
		for _, f := range s.Facts {
			if f == fact {
				return s.Paste
			}
		}
		for _, p := range s.Prefixes {
			if strings.HasPrefix(fact, p) {
				return s.Paste
			}
		}
	}
	return ""
}

// Table is the JavaScript the build writes to TablePath.
func Table() []byte {
	names := map[string]string{}
	for fact, n := range displayNames {
		names[fact] = n.en
	}
	// ReasonIn's words: each fact's name and each reason, in English and
	// in Chinese, in a fixed order.
	var zhNames, zhReasons [][2]string
	for _, fact := range slices.Sorted(maps.Keys(displayNames)) {
		n := displayNames[fact]
		zhNames = append(zhNames, [2]string{n.en, n.zh})
	}
	for _, r := range reasons {
		zhReasons = append(zhReasons, [2]string{r.en, r.zh})
	}
	own := map[string][2]string{}
	for fact, w := range ownReasons {
		own[fact] = [2]string{w[0].en, w[1].en}
	}
	t := struct {
		Names     map[string]string    `json:"names"`     // Display's names
		Paste     []pasteSource        `json:"paste"`     // PasteFor's outputs
		ZhNames   [][2]string          `json:"zhNames"`   // ReasonIn's names
		ZhReasons [][2]string          `json:"zhReasons"` // ReasonIn's reasons
		Versions  []string             `json:"versions"`  // VersionFact's names
		VersionsP []string             `json:"versionPrefixes"`
		Own       map[string][2]string `json:"own"` // Set's yes and no
	}{names, pasteSources, zhNames, zhReasons,
		versionNames(), versionFacts.prefixes, own}
	var b strings.Builder
	b.WriteString("// The facts' names and the outputs that show them, written by the build\n// from internal/rules (table.go); rules.js runs them.\nwindow.p2pkbRulesTable = ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		panic(fmt.Sprintf("rules: table: %v", err)) // plain strings always encode
	}
	return []byte(strings.TrimSuffix(b.String(), "\n") + ";\n")
}
