package report

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/p2pkb/p2pkb/internal/bench"
	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

// BenchmarkExplain reads a real-shaped 100 MB log (see make bench for the
// binary's time and peak memory on 100 MB and 1 GB).
func BenchmarkExplain(b *testing.B) {
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		b.Fatal(err)
	}
	a, err := content.Load(os.DirFS("../../content"), "content")
	if err != nil {
		b.Fatal(err)
	}
	s := site.New(k, a, "")
	var log bytes.Buffer
	if err := bench.WriteLog(&log, "../..", 100e6); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(log.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sum, err := Explain(io.Discard, s, bytes.NewReader(log.Bytes()), nil, Options{Lang: "en"})
		if err != nil || sum.Errors != 1 {
			b.Fatalf("%v %+v", err, sum)
		}
	}
}
