package markdown

import (
	"strings"
	"testing"
)

func TestRawHTMLIsNotPassedThrough(t *testing.T) {
	r := New()
	doc, err := r.Document([]byte("# T\n\n<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> b [x](javascript:alert(1))\n"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(doc.HTML)
	for _, bad := range []string{"<script", "<img", "onerror", "javascript:"} {
		if strings.Contains(html, bad) {
			t.Errorf("output contains %q:\n%s", bad, html)
		}
	}
}

func TestDocumentGFMTOCAndCode(t *testing.T) {
	src := "## One\n\ntext[^1]\n\n### Sub part\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n- [x] done\n\n~~old~~ https://example.org\n\n## 第二部分\n\n```cuda\ncudaMemcpyPeer(a, 1, b, 0, n);\n```\n\n[^1]: note\n"
	doc, err := New(WithLabels("复制", "链接")).Document([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	html := string(doc.HTML)
	for _, want := range []string{
		`<h2 id="one">One <a class="anchor" href="#one" aria-label="链接">#</a></h2>`,
		`<h2 id="第二部分">`,
		"<table>", `type="checkbox"`, "<del>old</del>", `<a href="https://example.org">`,
		`class="footnotes"`,
		`<div class="code"><button type="button" class="copy">复制</button><pre class="chroma">`,
		`<span class="nb">cudaMemcpyPeer</span>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("output lacks %s:\n%s", want, html)
		}
	}
	want := []Heading{{2, "one", "One"}, {3, "sub-part", "Sub part"}, {2, "第二部分", "第二部分"}}
	if len(doc.TOC) != len(want) {
		t.Fatalf("TOC = %v", doc.TOC)
	}
	for i := range want {
		if doc.TOC[i] != want[i] {
			t.Errorf("TOC[%d] = %v, want %v", i, doc.TOC[i], want[i])
		}
	}
}

func TestInline(t *testing.T) {
	r := New()
	cases := map[string]string{
		"set `NCCL_P2P_DISABLE=1` *now*":       "set <code>NCCL_P2P_DISABLE=1</code> <em>now</em>",
		"a <b>bold</b> move":                   "a <!-- raw HTML omitted -->bold<!-- raw HTML omitted --> move",
		"see [docs](https://docs.nvidia.com/)": `see <a href="https://docs.nvidia.com/">docs</a>`,
		"x < y && y > z":                       "x &lt; y &amp;&amp; y &gt; z",
	}
	for in, want := range cases {
		got, err := r.Inline(in)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}
