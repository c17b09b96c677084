package main

import (
	"bytes"
	"strings"
	"testing"
)

// The progress line redraws in place, shows the last page count, is cleared
// at the end, and is never drawn into a pipe or a file.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &progressLine{w: &b}
	p.update("load", 0, 0)
	for i := 1; i <= 1000; i++ {
		p.update("pages", i, 1000)
	}
	p.update("search", 0, 0)
	p.clear()
	out := b.String()
	for _, want := range []string{"\r\033[Kloading", "\r\033[Kpages 1000/1000", "\r\033[Kindexing for search", "\r\033[K"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress output lacks %q: %q", want, out)
		}
	}
	if n := strings.Count(out, "pages "); n > 50 {
		t.Errorf("%d redraws for 1000 pages in an instant; the line is redrawn at most ten times a second", n)
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("the line is not cleared at the end: %q", out)
	}
	if pr, _ := buildProgress(&b, false); pr != nil {
		t.Error("progress drawn into a buffer, which is no terminal")
	}
}
