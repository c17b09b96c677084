package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// siteFiles are the files of a site of n entries as a build writes them,
// in its order: a redirect page per entry (kb/<id>/) and per error code
// (e/<code>/), an entry page per language (<lang>/kb/<id>/), then search
// shards, a few hundred to a folder. Sizes are those of a 10k build's.
func siteFiles(n int) (names []string, sizes []int) {
	add := func(name string, size int) { names = append(names, name); sizes = append(sizes, size) }
	id := func(i int) string { return "d" + strconv.Itoa(i%8) + "/entry-" + strconv.Itoa(i) }
	for i := range n {
		add("kb/"+id(i)+"/index.html", 1800)
	}
	for i := range n {
		add("e/code-"+strconv.Itoa(i)+"/index.html", 1800)
	}
	for _, lang := range []string{"en", "zh"} {
		for i := range n {
			add(lang+"/kb/"+id(i)+"/index.html", 17000)
		}
	}
	for _, lang := range []string{"en", "zh"} {
		for i := range n / 4 {
			add("search/"+lang+"/"+strconv.Itoa(i%16)+"/s"+strconv.Itoa(i)+".js", 6000)
		}
	}
	return names, sizes
}

// BenchmarkTree writes a 10k site's tree (45,000 files in 40,000 folders)
// and commits it, with a build's writers, in the build's order and in an
// order where writers at work at once are in different folders. It is the
// floor under a build's wall time on this file system (P2PKB_BENCH_DIR
// picks where; default the system's temporary folder). Trees are removed
// only at the end: ext4 without a journal makes files slower just after a
// large deletion.
func BenchmarkTree(b *testing.B) {
	names, sizes := siteFiles(10000)
	data := make([]byte, 17000)
	for i := range data {
		data[i] = 'a' + byte(i%26)
	}
	base := os.Getenv("P2PKB_BENCH_DIR")
	if base == "" {
		base = b.TempDir()
	}
	for _, order := range []string{"build", "interleaved"} {
		idx := make([]int, len(names))
		for i := range idx {
			idx[i] = i
		}
		if order == "interleaved" {
			idx = interleave(len(names), 8)
		}
		b.Run(order, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				out := filepath.Join(base, fmt.Sprintf("%s-%d", order, i))
				t, err := Begin(out)
				if err != nil {
					b.Fatal(err)
				}
				var next atomic.Int64
				var wg sync.WaitGroup
				for range 8 {
					wg.Go(func() {
						for {
							j := int(next.Add(1)) - 1
							if j >= len(idx) {
								return
							}
							k := idx[j]
							if err := t.Write(names[k], data[:sizes[k]]); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				if err := t.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// interleave is the order render.Site writes pages in: k writers at work
// at once take pages len/k apart.
func interleave(n, k int) []int {
	out := make([]int, 0, n)
	stride := (n + k - 1) / k
	for j := range stride {
		for i := range k {
			if p := i*stride + j; p < n {
				out = append(out, p)
			}
		}
	}
	return out
}
