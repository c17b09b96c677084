package fleet

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// shown is how many node names a line of text lists before "and N more";
// --json lists them all.
const shown = 8

var words = map[string]map[string]string{
	"en": {
		"fleet": "%d nodes", "problems": "Pairs the test judged failed, hung or slow",
		"outliers": "Below their peers (same GPU model and link): P2P bandwidth more than %.0f%% under the group's median, latency over %.1fx it, fewer active NVLinks",
		"versions": "Versions and settings that differ", "entries": "Entries whose conditions hold on some nodes only",
		"everywhere": "The conditions of %d more entries hold on every node: they fit this kind of machine rather than a fault (--json lists them).", "unread": "Files that are not reports",
		"none": "Nothing differs: every node is in line with the rest of the fleet.", "more": "and %d more", "nodes": "%d nodes", "node": "1 node",
		"median": "median", "links": "active NVLinks",
		Unreadable: "unreadable", NoNVML: "no NVML", Failed: "failed", Hung: "hung", Slow: "slow", Blocked: "P2P blocked", Untested: "untested", OK: "ok",
	},
	"zh": {
		"fleet": "%d 个节点", "problems": "测试判为失败、挂起或偏慢的 GPU 对",
		"outliers": "低于同类节点（同一 GPU 型号和链路）：P2P 带宽比组中位数低 %.0f%% 以上、延迟超过中位数 %.1f 倍、活动 NVLink 更少",
		"versions": "各节点不一致的版本和设置", "entries": "仅在部分节点上条件成立的条目",
		"everywhere": "另有 %d 个条目的条件在所有节点上都成立：它们对应的是这类机器本身，而不是故障（--json 会列出）。", "unread": "不是 p2p-probe 报告的文件",
		"none": "没有差异：每个节点都与集群其余节点一致。", "more": "等另外 %d 个", "nodes": "%d 个节点", "node": "1 个节点",
		"median": "中位数", "links": "个活动 NVLink",
		Unreadable: "无法读取", NoNVML: "无 NVML", Failed: "失败", Hung: "挂起", Slow: "偏慢", Blocked: "P2P 被阻止", Untested: "未测试", OK: "正常",
	},
}

func word(lang, key string) string {
	if w, ok := words[lang][key]; ok {
		return w
	}
	return words["en"][key]
}

// WriteJSON writes the view as one JSON document.
func WriteJSON(w io.Writer, v View) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Write writes the view for people, in English or Chinese. entryURL turns
// an entry id into the address of its page ("" leaves it out).
func Write(w io.Writer, v View, lang string, entryURL func(id string) string) error {
	var b strings.Builder
	counts := []string{}
	for _, vn := range v.Verdicts {
		counts = append(counts, fmt.Sprintf("%d %s", len(vn.Nodes), word(lang, vn.Verdict)))
	}
	fmt.Fprintf(&b, word(lang, "fleet")+": %s\n", v.Nodes, strings.Join(counts, ", "))
	for _, vn := range v.Verdicts {
		if vn.Verdict == OK {
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", word(lang, vn.Verdict), names(lang, vn.Nodes))
	}
	if len(v.Problems) > 0 {
		fmt.Fprintf(&b, "\n%s:\n", word(lang, "problems"))
		for _, p := range v.Problems {
			fmt.Fprintf(&b, "  %s  %s  %s", text(p.Node), p.Pair, word(lang, statusWord(p.Status)))
			if p.Reason != "" {
				fmt.Fprintf(&b, ": %s", text(p.Reason))
			}
			b.WriteByte('\n')
		}
	}
	if len(v.Outliers) > 0 {
		fmt.Fprintf(&b, "\n"+word(lang, "outliers")+":\n", 100*v.Threshold.SlowFraction, v.Threshold.LatencyFactor)
		for _, o := range v.Outliers {
			switch o.Figure {
			case "p2p_gbps":
				fmt.Fprintf(&b, "  %s  %s  %s: %.1f GB/s, %s %.1f GB/s\n", text(o.Node), o.Pair, text(o.Group), o.Value, word(lang, "median"), o.Median)
			case "latency_us":
				fmt.Fprintf(&b, "  %s  %s  %s: %.2f µs, %s %.2f µs\n", text(o.Node), o.Pair, text(o.Group), o.Value, word(lang, "median"), o.Median)
			case "nvlinks_active":
				fmt.Fprintf(&b, "  %s  %s  %s: %.0f %s, %s %.0f\n", text(o.Node), o.Pair, text(o.Group), o.Value, word(lang, "links"), word(lang, "median"), o.Median)
			}
		}
	}
	if len(v.Versions) > 0 {
		fmt.Fprintf(&b, "\n%s:\n", word(lang, "versions"))
		for _, s := range v.Versions {
			var parts []string
			for i, val := range s.Values {
				if i == 0 {
					parts = append(parts, fmt.Sprintf("%s (%s)", text(val.Value), count(lang, len(val.Nodes))))
					continue
				}
				parts = append(parts, fmt.Sprintf("%s (%s)", text(val.Value), names(lang, val.Nodes)))
			}
			fmt.Fprintf(&b, "  %s: %s\n", s.Name, strings.Join(parts, "; "))
		}
	}
	if len(v.Entries) > 0 {
		fmt.Fprintf(&b, "\n%s:\n", word(lang, "entries"))
		for _, e := range v.Entries {
			fmt.Fprintf(&b, "  %s  %s\n    %s\n", e.ID, text(e.Signature), names(lang, e.Nodes))
			if entryURL != nil {
				if u := entryURL(e.ID); u != "" {
					fmt.Fprintf(&b, "    %s\n", u)
				}
			}
		}
	}
	if len(v.Everywhere) > 0 {
		fmt.Fprintf(&b, "\n"+word(lang, "everywhere")+"\n", len(v.Everywhere))
	}
	if len(v.Unread) > 0 {
		fmt.Fprintf(&b, "\n%s:\n", word(lang, "unread"))
		for _, u := range v.Unread {
			fmt.Fprintf(&b, "  %s\n", text(u.Error))
		}
	}
	if len(v.Problems)+len(v.Outliers)+len(v.Versions)+len(v.Entries)+len(v.Unread) == 0 {
		fmt.Fprintf(&b, "\n%s\n", word(lang, "none"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func statusWord(s string) string {
	switch s {
	case "failed":
		return Failed
	case "timeout":
		return Hung
	}
	return Slow
}

func count(lang string, n int) string {
	if n == 1 {
		return word(lang, "node")
	}
	return fmt.Sprintf(word(lang, "nodes"), n)
}

// names lists node names, the first few of a long list.
func names(lang string, ns []string) string {
	if len(ns) <= shown {
		return text(strings.Join(ns, ", "))
	}
	return text(strings.Join(ns[:shown], ", ")) + " " + fmt.Sprintf(word(lang, "more"), len(ns)-shown)
}

// text shows a string read from a file as text on a terminal: control
// characters (an escape sequence in a file name or a reason) are written
// as \x1b rather than sent to the terminal.
func text(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
