package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// A page weighs its HTML and every stylesheet and script it references,
// however the tag writes its attributes, and nothing else it links.
func TestPageWeightCountsWhatThePageLoads(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"en/index.html": `<!doctype html><html><head>
<link rel="search" href="../opensearch.xml"><link rel="canonical" href="https://example.org/en/">
<link href="../assets/a.css" rel="stylesheet"><link rel="stylesheet" href="../assets/print.css" media="print">
<script defer src="../assets/s.js?v=1"></script><script>var inline = 1;</script>
</head><body><a href="../assets/unloaded.js">a link</a></body></html>`,
		"assets/a.css":       "a{}",
		"assets/print.css":   "@media print{}",
		"assets/s.js":        "void 0;",
		"assets/unloaded.js": "not loaded by opening the page",
		"opensearch.xml":     "<OpenSearchDescription/>",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := PageWeight(dir, "en/index.html")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, name := range []string{"en/index.html", "assets/a.css", "assets/print.css", "assets/s.js"} {
		want[name] = len(files[name])
	}
	if len(w.Files) != len(want) {
		t.Errorf("counted %v, want %v", w.Files, want)
	}
	total := 0
	for name, n := range want {
		total += n
		if w.Files[name] != n {
			t.Errorf("%s: counted %d bytes, want %d", name, w.Files[name], n)
		}
	}
	if w.Bytes != total {
		t.Errorf("weight %d bytes, want %d", w.Bytes, total)
	}
}
