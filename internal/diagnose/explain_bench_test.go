package diagnose

import (
	"bytes"
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
