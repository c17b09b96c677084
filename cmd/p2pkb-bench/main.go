// Command p2pkb-bench prints the benchmark table of make bench: the build,
// the indexes and search on the repository's KB and on a synthetic one.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/bench"
	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/synth"
)

func main() {
	n := flag.String("n", "10000", "synthetic KB sizes, comma-separated (1000,10000,50000)")
	write := flag.String("write", "", "only write the synthetic KB of the first size into `DIR` (kb/ and content/), for profiling a build")
	explainMB := flag.String("explain-mb", "100,1000", "sizes in MB of the generated logs that explain reads, comma-separated; empty for none")
	explainOnly := flag.Bool("explain-only", false, "only the explain table")
	flag.Parse()
	var sizes []int
	for _, s := range strings.Split(*n, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "p2pkb-bench: -n %q: want sizes like 1000,10000\n", *n)
			os.Exit(2)
		}
		sizes = append(sizes, v)
	}
	if *write != "" {
		if err := writeSynthetic(*write, sizes[0]); err != nil {
			fmt.Fprintln(os.Stderr, "p2pkb-bench:", err)
			os.Exit(1)
		}
		return
	}
	var logSizes []int
	for _, s := range strings.Split(*explainMB, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 1 {
			fmt.Fprintf(os.Stderr, "p2pkb-bench: -explain-mb %q: want sizes like 100,1000\n", *explainMB)
			os.Exit(2)
		}
		logSizes = append(logSizes, v)
	}
	if err := run(sizes, logSizes, *explainOnly); err != nil {
		fmt.Fprintln(os.Stderr, "p2pkb-bench:", err)
		os.Exit(1)
	}
}

func writeSynthetic(dir string, n int) error {
	schema, err := os.ReadFile(filepath.Join("kb", "schema.json"))
	if err != nil {
		return err
	}
	return synth.Write(dir, n, 1, schema)
}

func run(n, logSizes []int, explainOnly bool) error {
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "p2pkb-bench-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "p2pkb")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/p2pkb").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	if len(logSizes) > 0 {
		if _, err := bench.Explain(os.Stdout, repo, bin, logSizes); err != nil {
			return err
		}
		fmt.Println()
	}
	if explainOnly {
		return nil
	}
	if _, err := bench.Fleet(os.Stdout, repo, bin, 10000, 3); err != nil {
		return err
	}
	fmt.Println()
	o := bench.Options{N: n, Repo: repo, Binary: bin, Hugo: bench.FindHugo()}
	if o.Hugo != "" {
		o.Pagefind = bench.FindPagefind(repo)
	}
	if browsertest.Path() != "" {
		o.Browser = func(public, lang string, queries []string) (time.Duration, time.Duration, int, error) {
			return browserSearch(filepath.Join(tmp, "chromium"), public, lang, queries)
		}
	}
	return bench.Run(os.Stdout, o)
}

// browserSearch times the static search page's own search function, and
// counts the index bytes the first (typical, cold) query loaded.
func browserSearch(profile, public, lang string, queries []string) (p50, p99 time.Duration, loaded int, err error) {
	b, stop, err := browsertest.Launch(profile)
	if err != nil {
		return 0, 0, 0, err
	}
	defer stop()
	page := (&url.URL{Scheme: "file", Path: filepath.Join(public, lang, "search") + "/"}).String() + "index.html"
	if err := b.Try(chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS("#search-results"))); err != nil {
		return 0, 0, 0, err
	}
	b.Requests()
	var lat []time.Duration
	for i, q := range queries {
		js, _ := json.Marshal(q)
		ms, err := browsertest.EvalErr[float64](b, `(async () => { const t = performance.now(); await p2pkbSearch.searchIndex(`+string(js)+`, "`+lang+`", 10); return performance.now() - t; })()`)
		if err != nil {
			return 0, 0, 0, err
		}
		lat = append(lat, time.Duration(ms*float64(time.Millisecond)))
		if i == 0 {
			for _, u := range b.Requests() {
				if p, err := url.Parse(u); err == nil && strings.Contains(p.Path, "/search/"+lang+"/") {
					if st, err := os.Stat(p.Path); err == nil {
						loaded += int(st.Size())
					}
				}
			}
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)], loaded, nil
}
