package search

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// writeDigestFile holds the digest of every file Write makes for a
// synthetic site: the client index, the postings and the document table
// must come out byte for byte the same when the way they are made changes.
// After an intended change of the files, write the new digest with
// go test ./internal/search -run WriteIsByteIdentical -update-digest
const writeDigestFile = "testdata/write.sha256"

var updateDigest = flag.Bool("update-digest", false, "rewrite "+writeDigestFile)

func TestWriteIsByteIdentical(t *testing.T) {
	files := map[string][]byte{}
	var mu sync.Mutex // Write emits from more than one goroutine
	emit := func(name string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		if _, dup := files[name]; dup {
			return fmt.Errorf("%s written twice", name)
		}
		files[name] = data
		return nil
	}
	if _, err := SiteCorpus(synthSite(t, 600)).Write(emit, "search/"+DocsFile); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&b, "%x  %s\n", sum[:12], name)
	}
	if *updateDigest {
		if err := os.WriteFile(writeDigestFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(writeDigestFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for _, l := range gl {
			if !slices.Contains(wl, l) {
				t.Errorf("differs from %s: %s", writeDigestFile, l)
			}
		}
		for _, l := range wl {
			if !slices.Contains(gl, l) {
				t.Errorf("missing or changed: %s", l)
			}
		}
	}
}

// BenchmarkWrite measures what a build spends on search, files aside: the
// analysis, the client index and the postings of a synthetic site.
func BenchmarkWrite(b *testing.B) {
	s := synthSite(b, 10000)
	for b.Loop() {
		if _, err := SiteCorpus(s).Write(func(string, []byte) error { return nil }, "search/"+DocsFile); err != nil {
			b.Fatal(err)
		}
	}
}
