package diagnose

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/p2pkb/p2pkb/internal/bench"
	"github.com/p2pkb/p2pkb/internal/paste"
)

// BenchmarkExplain reads a real-shaped 100 MB log (see make bench for the
// binary's time and peak memory on 100 MB and 1 GB).
func BenchmarkExplain(b *testing.B) {
	s := repoSite(b)
	var log bytes.Buffer
	if err := bench.WriteLog(&log, "../..", 100e6); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(log.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// As the command runs it: the paste's facts are gathered too.
		sum, err := Explain(io.Discard, s, bytes.NewReader(log.Bytes()), nil, Options{Lang: "en", Paste: paste.New()})
		if err != nil || sum.Errors != 1 {
			b.Fatalf("%v %+v", err, sum)
		}
	}
}

// BenchmarkExplainUnknown reads 100 MB of prose no entry knows: the words of
// its first lines find the closest entries, and the rest is only counted, so
// it reads as fast as a known log (the index is made once per process, before
// the timer: BenchmarkWordsIndex measures that).
func BenchmarkExplainUnknown(b *testing.B) {
	s := repoSite(b)
	if _, err := wordsIndex(s, "en"); err != nil {
		b.Fatal(err)
	}
	var log bytes.Buffer
	for i := 0; log.Len() < 100e6; i++ {
		fmt.Fprintf(&log, "worker %d says the fabric manager and driver packages differ at step %d after the upgrade\n", i%512, i)
	}
	b.SetBytes(int64(log.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		sum, err := Explain(&out, s, bytes.NewReader(log.Bytes()), nil, Options{Lang: "en", JSON: true, Paste: paste.New()})
		if err != nil || sum.Errors+sum.Notes != 0 || !bytes.Contains(out.Bytes(), []byte(`"by_words": true`)) {
			b.Fatalf("%v %+v", err, sum)
		}
	}
}

// BenchmarkWordsIndex makes the search index the closest entries come from,
// as the first input that needs it does.
func BenchmarkWordsIndex(b *testing.B) {
	s := repoSite(b)
	for i := 0; i < b.N; i++ {
		wordsIndexes.Lock()
		wordsIndexes.site = nil
		wordsIndexes.Unlock()
		if _, err := wordsIndex(s, "en"); err != nil {
			b.Fatal(err)
		}
	}
}
