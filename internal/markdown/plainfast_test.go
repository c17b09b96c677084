package markdown

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kbStrings are every string of every entry of the repository's KB, each
// also cut in half (a snippet cuts text where it likes), and the lines of
// the articles.
func kbStrings(t testing.TB) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v, v[:len(v)/2])
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	err := filepath.WalkDir("../../kb", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		walk(v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../content/*.md")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Split(string(b), "\n")...)
	}
	return out
}

// Plain's fast path gives what parsing gives, on every text of the KB and
// the articles; and it is taken for most of them, or it would save nothing.
func TestPlainFastPathIsParsedPlain(t *testing.T) {
	texts := kbStrings(t)
	fast := 0
	for _, s := range texts {
		if !isPlainText(s) {
			continue
		}
		fast++
		if got, want := Plain(s), parsedPlain(s); got != want {
			t.Errorf("Plain(%q) = %q, parsed %q", s, got, want)
		}
	}
	if fast < len(texts)/2 {
		t.Errorf("the fast path takes %d of %d texts", fast, len(texts))
	}
	for _, s := range []string{"# Heading", "- item", "1. item", "> quote", "    code", "a\n\n`b\n\nc`", "`a\n- b`", "Set `NCCL_P2P` *now*", "x\n===", "a ``b``"} {
		if isPlainText(s) {
			t.Errorf("%q is Markdown, but takes the fast path", s)
		}
	}
}

// FuzzPlainFastPath: whatever the text, when Plain takes its fast path, it
// gives what parsing gives.
func FuzzPlainFastPath(f *testing.F) {
	addSeeds(f, "a `b_c` d", "A\n`b\n`", "Ab\n    c", "Tab\t`x`\n\tq", "设置 `NCCL_P2P_DISABLE=1`。", "A `*` b `[x](y)` c")
	f.Fuzz(func(t *testing.T, s string) {
		if isPlainText(s) {
			if got, want := Plain(s), parsedPlain(s); got != want {
				t.Fatalf("Plain(%q) = %q, parsed %q", s, got, want)
			}
		}
	})
}

// Inline's fast path for words and code spans gives what goldmark gives,
// on every text of the KB and the articles, and takes most of those with
// a code span in them.
func TestCodeSpansOnlyIsParsedInline(t *testing.T) {
	r := New()
	texts := kbStrings(t)
	spans, fast := 0, 0
	for _, s := range texts {
		if strings.Contains(s, "`") {
			spans++
		}
		got, ok := codeSpansOnly(s)
		if !ok {
			continue
		}
		fast++
		want, err := r.parsedInline(s)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("codeSpansOnly(%q) = %q, goldmark %q", s, got, want)
		}
	}
	if fast < spans/2 {
		t.Errorf("the fast path takes %d of %d texts with a code span", fast, spans)
	}
	for _, s := range []string{"# `a`", "- `a`", "1. `a`", "> `a`", "    `a`", "a\n`b`", "`a` *b*", "a ``b``", "`a` see www.nvidia.com",
		"`a` at https://x.y", "`a` mail a@b.co", "` a `", "`a", "a `b` [c](d)", "a `b` \\`", "a `b` &amp;", "a `b` ~~c~~", "a `b` |c|"} {
		if _, ok := codeSpansOnly(s); ok {
			t.Errorf("%q is more Markdown than code spans, but takes the fast path", s)
		}
	}
}

// FuzzCodeSpansOnly: whatever the text, when Inline takes its code-span
// path, it gives what goldmark gives.
func FuzzCodeSpansOnly(f *testing.F) {
	addSeeds(f, "a `b_c` d", "Set `x<y & \"z\"` \"now\"", "设置 `NCCL_P2P_DISABLE=1`。\u3000", "Tab\t`x`\t", "`a`\u00a0", "A `*` b `[x](y)` c")
	r := New()
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := codeSpansOnly(s)
		if !ok {
			return
		}
		want, err := r.parsedInline(s)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Fatalf("codeSpansOnly(%q) = %q, goldmark %q", s, got, want)
		}
	})
}

// addSeeds seeds a fuzz target with every text of the KB and the articles,
// and the texts given.
func addSeeds(f *testing.F, more ...string) {
	for _, s := range append(kbStrings(f), more...) {
		f.Add(s)
	}
}

// codeSpansOnly is the fast path's HTML on its own.
func codeSpansOnly(s string) (string, bool) {
	b, ok := appendCodeSpans(nil, s)
	return string(b), ok
}

// AppendInline leaves what dst holds and appends what Inline returns, on
// every path: plain text, code spans only, and parsed Markdown.
func TestAppendInlineIsInline(t *testing.T) {
	r := New()
	for _, s := range []string{"plain words", "say \"hi\" & go", "call `cudaMemcpyPeer` twice", "a *b* [c](https://x.y)", "`a"} {
		want, err := r.Inline(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.AppendInline([]byte("before|"), s)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "before|"+string(want) {
			t.Errorf("AppendInline(%q) = %q, want %q", s, got, "before|"+string(want))
		}
	}
}
