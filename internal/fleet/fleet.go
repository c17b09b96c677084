// Package fleet reads one p2p-probe report per node and says where a fleet
// of GPU nodes differs from itself: nodes by verdict, failed and slow pairs,
// pairs and links below their peers of the same GPU model and link type,
// versions that differ, and the knowledge base's entries that apply, with
// the nodes they apply to. Reports are read one at a time and reduced to a
// few numbers, so a fleet of thousands of nodes fits in little memory.
package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// Verdicts, worst first. A node has the worst that fits it.
const (
	Unreadable = "unreadable" // the file is not a p2p-probe report
	NoNVML     = "no_nvml"    // NVML did not answer: no driver, or not visible
	Failed     = "failed"     // the test found a pair that failed, or data that arrived wrong
	Hung       = "hung"       // the test killed a pair at its deadline
	Slow       = "slow"       // P2P no faster than staged copies, or below its peers
	Blocked    = "blocked"    // NVML says some pairs cannot use P2P
	Untested   = "untested"   // no --test section; nothing else wrong
	OK         = "ok"         // tested, every pair verified and in line with its peers
)

var verdictOrder = []string{Unreadable, NoNVML, Failed, Hung, Slow, Blocked, Untested, OK}

func worse(a, b string) string {
	if slices.Index(verdictOrder, b) < slices.Index(verdictOrder, a) {
		return b
	}
	return a
}

// Options set how far a figure may fall from its group's median before it
// is named.
type Options struct {
	// SlowFraction: a pair whose P2P bandwidth is more than this fraction
	// below the median of its group is an outlier. Default 0.2.
	SlowFraction float64
	// LatencyFactor: a pair whose P2P latency is more than this many times
	// the median of its group is an outlier. Default 2.
	LatencyFactor float64
	// Entries are judged against every node; nil judges none.
	Entries []*kb.Entry
}

func (o Options) withDefaults() Options {
	if o.SlowFraction <= 0 || o.SlowFraction >= 1 {
		o.SlowFraction = 0.2
	}
	if o.LatencyFactor <= 1 {
		o.LatencyFactor = 2
	}
	return o
}

// View is what a fleet's reports say, for people (Write) and tools (JSON).
type View struct {
	Nodes    int            `json:"nodes"`
	Verdicts []VerdictNodes `json:"verdicts"` // worst first; only verdicts some node has
	Problems []PairProblem  `json:"problems"` // failed, hung and slow pairs as the probe judged them, by node
	Outliers []Outlier      `json:"outliers"` // figures far from their group's median
	Versions []Spread       `json:"versions"` // versions and settings with more than one value in the fleet
	Entries  []EntryNodes   `json:"entries"`  // entries whose conditions hold on some nodes and not on others
	// Everywhere are the entries whose conditions hold on every node read:
	// they describe the kind of machine (its GPUs, links, versions), not
	// what differs between nodes.
	Everywhere []string    `json:"entries_on_every_node"`
	Unread     []NodeError `json:"unreadable"` // files that are not reports, and why
	Groups     []Group     `json:"groups"`     // the medians outliers are measured against
	Threshold  Options     `json:"-"`
}

// VerdictNodes lists the nodes of one verdict.
type VerdictNodes struct {
	Verdict string   `json:"verdict"`
	Nodes   []string `json:"nodes"`
}

// PairProblem is a pair the probe's own test judged failed, hung or slow.
type PairProblem struct {
	Node   string `json:"node"`
	Pair   string `json:"pair"`   // GPU0->GPU1
	Status string `json:"status"` // failed, timeout, slow
	Reason string `json:"reason,omitempty"`
}

// Outlier is one figure of a node far from the median of its group.
type Outlier struct {
	Node   string  `json:"node"`
	Pair   string  `json:"pair,omitempty"` // GPU0->GPU1; for a link count, the GPU: GPU3
	Group  string  `json:"group"`          // NVIDIA H200 NV18
	Figure string  `json:"figure"`         // p2p_gbps, latency_us, nvlinks_active
	Value  float64 `json:"value"`
	Median float64 `json:"median"`
}

// Group is a set of figures compared with one another: one GPU model and
// one kind of link between two GPUs.
type Group struct {
	Name      string  `json:"name"`
	Pairs     int     `json:"pairs"`
	MedianBW  float64 `json:"median_p2p_gbps,omitempty"`
	MedianLat float64 `json:"median_latency_us,omitempty"`
}

// Spread is one version or setting and the nodes of each of its values.
type Spread struct {
	Name   string       `json:"name"` // driver, cuda, nccl, kernel, ...
	Values []ValueNodes `json:"values"`
}

// ValueNodes is one value and the nodes that have it, most nodes first.
type ValueNodes struct {
	Value string   `json:"value"`
	Nodes []string `json:"nodes"`
}

// EntryNodes is an entry whose conditions hold on some nodes.
type EntryNodes struct {
	ID        string   `json:"id"`
	Signature string   `json:"signature"`
	Nodes     []string `json:"nodes"`
}

// NodeError is a file that could not be read as a report.
type NodeError struct {
	Node  string `json:"node"`
	Error string `json:"error"`
}

// node is what is kept of one report.
type node struct {
	name     string
	path     string // the file it was read from
	verdict  string
	problems []PairProblem
	figures  []figure
	links    []linkCount
	settings map[string]string // spread name -> value
	entries  []int             // indexes into the judged entries that apply
	err      string
}

type figure struct {
	pair    string
	group   string
	bw, lat float64
}

type linkCount struct {
	gpu    string
	group  string // GPU model
	active int
}

// spreadNames are the versions and settings compared across the fleet, in
// the order they are shown.
var spreadNames = []string{"driver", "cuda", "cuda_toolkit", "nccl", "torch", "kernel", "os", "gpu", "iommu", "acs_redirect", "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_IGNORE_DISABLED_P2P"}

// summarize reduces one report to what the fleet view needs.
func summarize(name string, r *facts.Report, j *judge) node {
	n := node{name: name, verdict: OK, settings: map[string]string{}}
	set := func(k, v string) {
		if v != "" {
			n.settings[k] = v
		}
	}
	set("driver", r.Driver.Version.V)
	set("cuda", r.Driver.CUDA.V)
	set("cuda_toolkit", r.Driver.CUDAToolkit)
	set("kernel", r.Host.Kernel)
	set("os", r.Host.OS)
	for _, p := range r.Software.Python {
		switch {
		case strings.HasPrefix(p.Name, "nvidia-nccl"):
			set("nccl", p.Version)
		case p.Name == "torch":
			set("torch", p.Version)
		}
	}
	for _, k := range []string{"NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_IGNORE_DISABLED_P2P"} {
		set(k, r.Software.Env[k])
	}
	if e := r.Software.IOMMU.Enabled; e != nil {
		set("iommu", fmt.Sprint(*e))
	}
	redirect := false
	for _, b := range r.Software.ACS {
		redirect = redirect || b.RequestRedirect || b.CompletionRedirect
	}
	if len(r.Software.ACS) > 0 {
		set("acs_redirect", fmt.Sprint(redirect))
	}
	var names []string
	for _, g := range r.GPUs {
		if g.Name.V != "" && !slices.Contains(names, g.Name.V) {
			names = append(names, g.Name.V)
		}
	}
	slices.Sort(names)
	set("gpu", strings.Join(names, ", "))

	if !r.NVML.Available {
		n.verdict = NoNVML
	}
	if len(r.Summary.BlockedPairs) > 0 {
		n.verdict = worse(n.verdict, Blocked)
	}
	for _, g := range r.GPUs {
		if len(g.NVLinks) > 0 {
			n.links = append(n.links, linkCount{gpu: fmt.Sprintf("GPU%d", g.Index), group: g.Name.V, active: g.NVLinksActive})
		}
	}
	t := r.Test
	if t == nil || !t.Ran {
		n.verdict = worse(n.verdict, Untested)
	} else {
		conn := map[[2]int]string{}
		for _, p := range r.Pairs {
			conn[[2]int{p.From, p.To}] = p.Connection
		}
		for _, p := range t.Pairs {
			pair := fmt.Sprintf("GPU%d->GPU%d", p.Src, p.Dst)
			switch p.Status {
			case "failed":
				n.verdict = worse(n.verdict, Failed)
				n.problems = append(n.problems, PairProblem{Node: name, Pair: pair, Status: p.Status, Reason: p.Reason})
			case "timeout":
				n.verdict = worse(n.verdict, Hung)
				n.problems = append(n.problems, PairProblem{Node: name, Pair: pair, Status: p.Status, Reason: p.Reason})
			case "slow":
				n.verdict = worse(n.verdict, Slow)
				n.problems = append(n.problems, PairProblem{Node: name, Pair: pair, Status: p.Status, Reason: p.Reason})
			}
			if p.Bandwidth == nil || p.Bandwidth.P2POn <= 0 {
				continue
			}
			// Test ordinals follow CUDA's order, NVML's pairs their own;
			// they agree unless CUDA_VISIBLE_DEVICES or CUDA_DEVICE_ORDER
			// reorder them, and then the model alone names the group.
			g := strings.TrimSpace(deviceName(t, p.Src) + " " + conn[[2]int{p.Src, p.Dst}])
			f := figure{pair: pair, group: g, bw: p.Bandwidth.P2POn}
			if p.LatencyUS != nil {
				f.lat = p.LatencyUS.P2POn
			}
			n.figures = append(n.figures, f)
		}
		if ok := t.Summary.DataOK; ok != nil && !*ok {
			n.verdict = worse(n.verdict, Failed)
		}
	}
	if j != nil {
		n.entries = j.applying(rules.FromReport(r))
	}
	return n
}

func deviceName(t *facts.Test, ordinal int) string {
	for _, d := range t.Devices {
		if d.Ordinal == ordinal {
			return d.Name
		}
	}
	return ""
}

// judge decides which entries apply to a node. Nodes of one fleet are much
// alike, so a verdict is kept for each combination of the facts an entry
// reads.
type judge struct {
	entries []*kb.Entry
	exprs   []rules.Expr
	reads   [][]string
	seen    []map[string]bool
	key     strings.Builder
}

func newJudge(entries []*kb.Entry) (*judge, error) {
	j := &judge{}
	for _, e := range entries {
		var versions []string
		for _, v := range e.Versions {
			versions = append(versions, v.Version)
		}
		x, err := rules.Compile(versions, e.AppliesWhen)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.File, err)
		}
		if x == nil {
			continue // an entry without conditions says nothing about a machine
		}
		j.entries = append(j.entries, e)
		j.exprs = append(j.exprs, x)
		j.reads = append(j.reads, rules.Reads(x))
		j.seen = append(j.seen, map[string]bool{})
	}
	return j, nil
}

func (j *judge) applying(f rules.Facts) []int {
	var out []int
	for i, x := range j.exprs {
		j.key.Reset()
		for _, name := range j.reads[i] {
			j.key.WriteString(f.Seen(name))
			j.key.WriteByte(0xff)
		}
		k := j.key.String()
		holds, ok := j.seen[i][k]
		if !ok {
			holds = rules.Eval(x, f).Truth == rules.True
			j.seen[i][k] = holds
		}
		if holds {
			out = append(out, i)
		}
	}
	return out
}

// fold turns the nodes into the fleet's view.
func fold(nodes []node, j *judge, o Options) View {
	// Lists are empty rather than null in JSON, for tools.
	v := View{Nodes: len(nodes), Threshold: o, Verdicts: []VerdictNodes{}, Problems: []PairProblem{}, Outliers: []Outlier{},
		Versions: []Spread{}, Entries: []EntryNodes{}, Everywhere: []string{}, Unread: []NodeError{}, Groups: []Group{}}
	slices.SortFunc(nodes, func(a, b node) int { return cmp.Compare(a.name, b.name) })

	byVerdict := map[string][]string{}
	for _, n := range nodes {
		if n.err != "" {
			v.Unread = append(v.Unread, NodeError{Node: n.name, Error: n.err})
		}
		v.Problems = append(v.Problems, n.problems...)
	}

	// Medians of each group, then the figures far from them.
	bw, lat, links := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	for _, n := range nodes {
		for _, f := range n.figures {
			bw[f.group] = append(bw[f.group], f.bw)
			if f.lat > 0 {
				lat[f.group] = append(lat[f.group], f.lat)
			}
		}
		for _, l := range n.links {
			links[l.group] = append(links[l.group], float64(l.active))
		}
	}
	medBW, medLat, medLinks := medians(bw), medians(lat), medians(links)
	for _, g := range sortedKeys(bw) {
		v.Groups = append(v.Groups, Group{Name: g, Pairs: len(bw[g]), MedianBW: medBW[g], MedianLat: medLat[g]})
	}
	outlying := map[string]bool{}
	for _, n := range nodes {
		for _, f := range n.figures {
			// A group needs peers to be measured against.
			if len(bw[f.group]) >= 3 && f.bw < (1-o.SlowFraction)*medBW[f.group] {
				v.Outliers = append(v.Outliers, Outlier{Node: n.name, Pair: f.pair, Group: f.group, Figure: "p2p_gbps", Value: f.bw, Median: medBW[f.group]})
				outlying[n.name] = true
			}
			if m := medLat[f.group]; len(lat[f.group]) >= 3 && f.lat > o.LatencyFactor*m {
				v.Outliers = append(v.Outliers, Outlier{Node: n.name, Pair: f.pair, Group: f.group, Figure: "latency_us", Value: f.lat, Median: m})
				outlying[n.name] = true
			}
		}
		for _, l := range n.links {
			if len(links[l.group]) >= 3 && float64(l.active) < medLinks[l.group] {
				v.Outliers = append(v.Outliers, Outlier{Node: n.name, Pair: l.gpu, Group: l.group, Figure: "nvlinks_active", Value: float64(l.active), Median: medLinks[l.group]})
				outlying[n.name] = true
			}
		}
	}
	for _, n := range nodes {
		verdict := n.verdict
		if outlying[n.name] {
			verdict = worse(verdict, Slow)
		}
		byVerdict[verdict] = append(byVerdict[verdict], n.name)
	}
	for _, verdict := range verdictOrder {
		if ns := byVerdict[verdict]; len(ns) > 0 {
			v.Verdicts = append(v.Verdicts, VerdictNodes{Verdict: verdict, Nodes: ns})
		}
	}

	// Versions and settings that differ.
	for _, name := range spreadNames {
		values := map[string][]string{}
		for _, n := range nodes {
			if n.err != "" {
				continue
			}
			val, ok := n.settings[name]
			if !ok {
				val = "unknown"
			}
			values[val] = append(values[val], n.name)
		}
		if len(values) < 2 {
			continue
		}
		s := Spread{Name: name}
		for val, ns := range values {
			s.Values = append(s.Values, ValueNodes{Value: val, Nodes: ns})
		}
		sort.Slice(s.Values, func(a, b int) bool {
			if len(s.Values[a].Nodes) != len(s.Values[b].Nodes) {
				return len(s.Values[a].Nodes) > len(s.Values[b].Nodes)
			}
			return s.Values[a].Value < s.Values[b].Value
		})
		v.Versions = append(v.Versions, s)
	}

	// Entries that apply, with their nodes.
	if j != nil {
		on := make([][]string, len(j.entries))
		for _, n := range nodes {
			for _, i := range n.entries {
				on[i] = append(on[i], n.name)
			}
		}
		read := 0
		for _, n := range nodes {
			if n.err == "" {
				read++
			}
		}
		for i, ns := range on {
			e := j.entries[i]
			switch {
			case len(ns) == 0:
			case len(ns) == read && read > 1:
				v.Everywhere = append(v.Everywhere, e.ID)
			default:
				v.Entries = append(v.Entries, EntryNodes{ID: e.ID, Signature: e.Signature, Nodes: ns})
			}
		}
		slices.SortStableFunc(v.Entries, func(a, b EntryNodes) int { return cmp.Compare(len(b.Nodes), len(a.Nodes)) })
	}
	return v
}

func medians(m map[string][]float64) map[string]float64 {
	out := map[string]float64{}
	for k, xs := range m {
		s := slices.Clone(xs)
		slices.Sort(s)
		if len(s)%2 == 1 {
			out[k] = s[len(s)/2]
		} else {
			out[k] = (s[len(s)/2-1] + s[len(s)/2]) / 2
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
