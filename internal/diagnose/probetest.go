package diagnose

import (
	"fmt"
	"io"
	"strings"

	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// TestResult is what `p2p-probe --test` measured, as `p2pkb match --json`
// prints it before the entries: the bandwidth matrices as
// p2pBandwidthLatencyTest draws them and the verdict, with the same reasons
// the rules give.
type TestResult struct {
	Ran        bool   `json:"ran"`
	Error      string `json:"error,omitempty"`
	SizeBytes  int64  `json:"size_bytes"`
	DurationMS int64  `json:"duration_ms"`
	// GB/s by source row and destination column; the diagonal is a copy
	// within the GPU; null where nothing was measured.
	P2POn   [][]*float64       `json:"bandwidth_p2p_on"`
	P2POff  [][]*float64       `json:"bandwidth_p2p_off"`
	Devices []facts.TestDevice `json:"devices"` // host to device and back, and the local copy
	Pairs   []PairResult       `json:"pairs"`
	Checks  []Check            `json:"checks"` // data, cross-process, failed, slow, timed out
	Verdict string             `json:"verdict"`
}

// PairResult is one ordered pair's outcome.
type PairResult struct {
	From      int              `json:"from"`
	To        int              `json:"to"`
	Status    string           `json:"status"` // ok, failed, slow, timeout, skipped
	Bandwidth *facts.Bandwidth `json:"bandwidth,omitempty"`
	LatencyUS *facts.Latency   `json:"latency_us,omitempty"`
}

// Check is one fact of the test with its verdict and reasons.
type Check struct {
	Fact    string   `json:"fact"`  // the condition checked, p2p.test.data_ok
	Holds   *bool    `json:"holds"` // null when the report cannot tell
	Reasons []string `json:"reasons"`
}

// matched is match's JSON when the report has a test.
type matched struct {
	Test    *TestResult  `json:"test"`
	Entries []Applicable `json:"entries"`
}

// withTest is what match --json prints: the entries alone as before when
// the report has no test, else the test first and the entries after it.
func withTest(out []Applicable, t *facts.Test, f rules.Facts) any {
	if t == nil {
		return out
	}
	return matched{Test: testResult(t, f), Entries: out}
}

var checkLabels = map[string]string{"p2p.test.data_ok": "t_data", "p2p.test.ipc_ok": "t_ipc",
	"p2p.test.failed_pairs == 0": "t_failed", "p2p.test.slow_pairs == 0": "t_slow", "p2p.test.timeouts == 0": "t_timeouts"}

var checkFacts = []string{"p2p.test.data_ok", "p2p.test.ipc_ok", "p2p.test.failed_pairs == 0", "p2p.test.slow_pairs == 0", "p2p.test.timeouts == 0"}

func testResult(t *facts.Test, f rules.Facts) *TestResult {
	r := &TestResult{Ran: t.Ran, Error: t.Error, SizeBytes: t.SizeBytes, DurationMS: t.DurationMS, Verdict: t.Summary.Verdict,
		Devices: t.Devices, Pairs: []PairResult{}, Checks: []Check{}}
	if r.Devices == nil {
		r.Devices = []facts.TestDevice{}
	}
	n := 0
	for _, d := range t.Devices {
		n = max(n, d.Ordinal+1)
	}
	for _, p := range t.Pairs {
		n = max(n, p.Src+1, p.Dst+1)
	}
	n = min(n, 64) // a matrix a person can read; the pairs list has every pair
	r.P2POn, r.P2POff = grid(n), grid(n)
	for _, d := range t.Devices {
		if d.Ordinal >= 0 && d.Ordinal < n && d.LocalGBps > 0 {
			v := d.LocalGBps
			r.P2POn[d.Ordinal][d.Ordinal], r.P2POff[d.Ordinal][d.Ordinal] = &v, &v
		}
	}
	for _, p := range t.Pairs {
		r.Pairs = append(r.Pairs, PairResult{From: p.Src, To: p.Dst, Status: p.Status, Bandwidth: p.Bandwidth, LatencyUS: p.LatencyUS})
		if b := p.Bandwidth; b != nil && p.Src >= 0 && p.Src < n && p.Dst >= 0 && p.Dst < n {
			on, off := b.P2POn, b.P2POff
			r.P2POn[p.Src][p.Dst], r.P2POff[p.Src][p.Dst] = &on, &off
		}
	}
	if !t.Ran {
		return r
	}
	for _, c := range checkFacts {
		e, err := rules.Parse(c)
		if err != nil {
			panic(err) // the conditions above are constants
		}
		v := rules.Eval(e, f)
		var holds *bool
		if v.Truth != rules.Unknown {
			b := v.Truth == rules.True
			holds = &b
		}
		r.Checks = append(r.Checks, Check{Fact: c, Holds: holds, Reasons: v.Reasons})
	}
	return r
}

func grid(n int) [][]*float64 {
	g := make([][]*float64, n)
	for i := range g {
		g[i] = make([]*float64, n)
	}
	return g
}

// marks label the cells of pairs that did not pass, in letters as well as
// words, so a terminal without colour shows them.
var marks = map[string]string{"failed": "F", "slow": "S", "timeout": "T", "skipped": "-"}

// writeTest prints the test before the entries: the two matrices, the
// checks, and the probe's verdict.
func writeTest(w io.Writer, t *facts.Test, f rules.Facts, lang string) {
	if t == nil {
		return
	}
	r := testResult(t, f)
	if !r.Ran {
		fmt.Fprintf(w, "%s%s\n\n", text(lang, "t_title"), text(lang, "t_not_run")+colon(r.Error))
		return
	}
	fmt.Fprintf(w, "%s%s\n", text(lang, "t_title"), fmt.Sprintf(text(lang, "t_sizes"), len(t.Devices), len(t.Pairs), rules.Size(r.SizeBytes), float64(r.DurationMS)/1000))
	status := map[[2]int]string{}
	for _, p := range r.Pairs {
		status[[2]int{p.From, p.To}] = p.Status
	}
	for i, m := range [][][]*float64{r.P2POn, r.P2POff} {
		fmt.Fprintf(w, "\n%s\n   D\\D", text(lang, []string{"t_on", "t_off"}[i]))
		for j := range m {
			fmt.Fprintf(w, " %9d  ", j)
		}
		fmt.Fprintln(w)
		for a, row := range m {
			fmt.Fprintf(w, "%6d", a)
			for b, v := range row {
				cell, mk := "n/a", " "
				if v != nil {
					cell = rules.GBps(*v)
				}
				if m, ok := marks[status[[2]int{a, b}]]; ok && a != b {
					mk = m
				}
				fmt.Fprintf(w, " %9s %s", cell, mk)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "%s\n", text(lang, "t_legend"))
	var host []string
	for _, d := range t.Devices {
		if d.H2DGBps > 0 || d.D2HGBps > 0 {
			host = append(host, fmt.Sprintf("GPU%d %s / %s", d.Ordinal, rules.GBps(d.H2DGBps), rules.GBps(d.D2HGBps)))
		}
	}
	if len(host) > 0 {
		fmt.Fprintf(w, "%s%s%s\n", text(lang, "t_host"), text(lang, "t_colon"), strings.Join(host, ", "))
	}
	fmt.Fprintln(w)
	for _, c := range r.Checks {
		label := text(lang, checkLabels[c.Fact]) + text(lang, "t_colon")
		if count, ok := strings.CutSuffix(c.Fact, " == 0"); ok {
			if c.Holds != nil && !*c.Holds {
				fmt.Fprintf(w, "  ✗ %s%s\n", label, f.Text(count))
			}
			continue // none failed, was slow or timed out: the matrix says so
		}
		mark := "?"
		if c.Holds != nil && *c.Holds {
			mark = "✓"
		} else if c.Holds != nil {
			mark = "✗"
		}
		fmt.Fprintf(w, "  %s %s%s\n", mark, label, strings.Join(c.Reasons, "; "))
	}
	if r.Verdict != "" {
		fmt.Fprintf(w, "\n  %s%s\n", text(lang, "t_verdict"), r.Verdict)
	}
	fmt.Fprintln(w)
}

func colon(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// The terminal's words for the test, kept apart from report.go's table.
func init() {
	for lang, m := range map[string]map[string]string{
		"en": {"t_title": "P2P test (p2p-probe --test): ", "t_not_run": "did not run",
			"t_sizes": "%d GPUs, %d ordered pairs, %s per copy, %.1f s",
			"t_on":    "Unidirectional bandwidth (GB/s), P2P on; rows: from, columns: to",
			"t_off":   "Unidirectional bandwidth (GB/s), P2P off (staged through host memory)",
			"t_legend": "F failed (data wrong, peer access refused or an error), S slow (P2P not faster than through the host), " +
				"T timed out, - skipped; the diagonal is a copy within the GPU",
			"t_verdict": "p2p-probe says: ", "t_colon": ": ", "t_host": "Host to GPU / GPU to host (GB/s)", "t_data": "Data check", "t_ipc": "Cross-process (IPC)",
			"t_failed": "Pairs that failed", "t_slow": "Pairs where P2P is not faster than through the host", "t_timeouts": "Pairs that timed out"},
		"zh": {"t_title": "P2P 测试（p2p-probe --test）：", "t_not_run": "未运行",
			"t_sizes":   "%d 块 GPU，%d 个有序对，每次复制 %s，用时 %.1f 秒",
			"t_on":      "单向带宽（GB/s），P2P 开启；行：源，列：目标",
			"t_off":     "单向带宽（GB/s），P2P 关闭（经主机内存中转）",
			"t_legend":  "F 失败（数据错误、对等访问被拒绝或出错），S 慢（P2P 不比经主机快），T 超时，- 跳过；对角线为 GPU 内部复制",
			"t_verdict": "p2p-probe 的结论：", "t_colon": "：", "t_host": "主机到 GPU / GPU 到主机（GB/s）", "t_data": "数据校验", "t_ipc": "跨进程（IPC）",
			"t_failed": "失败的 GPU 对", "t_slow": "P2P 不比经主机快的 GPU 对", "t_timeouts": "超时的 GPU 对"},
	} {
		for k, v := range m {
			texts[lang][k] = v
		}
	}
}
