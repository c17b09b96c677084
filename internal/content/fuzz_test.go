package content

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoad reads an arbitrary file as an article. It loads with a title, or
// fails with an error that names the file.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../../content/*.md")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("---\ntitle: [\n---\nx"))
	f.Add([]byte("---\ntitle: \"A\"\ndate: \"not a date\"\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := Load(fstest.MapFS{"a.md": {Data: data}}, "content")
		if err != nil {
			if !strings.Contains(err.Error(), "content/a.md") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, langs := range set.Articles {
			for _, a := range langs {
				if strings.TrimSpace(a.Title) == "" {
					t.Fatalf("an article loaded without a title from %q", data)
				}
			}
		}
	})
}
