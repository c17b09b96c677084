// Package bench measures the generator on the repository's KB and on a
// synthetic one of N entries, and prints one table whose format stays the
// same from run to run so that runs compare. Figures come from here, never
// from timed tests.
package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/synth"
)

// Options say what to measure.
type Options struct {
	N      []int  // synthetic KB sizes, one column each
	Repo   string // repository root (kb/, content/, templates/, assets/)
	Binary string // a built p2pkb, run as a child so its peak memory is its own
	// Hugo and Pagefind, when installed: the same KB is built with them too.
	Hugo, Pagefind string
	Browser        func(public, lang string, queries []string) (p50, p99 time.Duration, loaded int, err error)
}

// Figures are one column of the table.
type Figures struct {
	Name                   string
	Entries, Pages         int
	Wall, WallMin, WallMax time.Duration // median of buildRounds, and their range
	CPU                    time.Duration // user and system time of the build
	PeakRSS                int64         // bytes
	PublicBytes            int64
	BleveTime              time.Duration
	BleveBytes             int64
	ClientBytes            int64
	QueryBytes             int // client index bytes one query loads (browser)
	GoP50, GoP99           time.Duration
	BrowserP50, BrowserP99 time.Duration
	BuildLog               string

	// The heaviest page of a kind with what it loads when opened (Heaviest), and
	// the Your machine panel's scripts, loaded when it opens.
	Entry, Home, Catalog, Search Weight
	OnDemandBytes                int

	WatchP50, WatchMax time.Duration // serve --watch: an entry's edit to the page served with it
	FoundP50, FoundMax time.Duration // serve --watch: an entry's edit to the search API finding it by the edit

	SearchKBWall, ExplainKBWall time.Duration // search --kb and explain --kb, from start to answer: medians of buildRounds
	SearchKBMin, SearchKBMax    time.Duration
	ExplainKBMin, ExplainKBMax  time.Duration
	SearchKBRSS, ExplainKBRSS   int64

	HugoWall, PagefindWall   time.Duration // zero when not installed; Hugo's the median of buildRounds
	HugoWallMin, HugoWallMax time.Duration
	HugoCPU                  time.Duration // user and system time of Hugo's build
	HugoRSS, PagefindRSS     int64
	HugoPages                int
	PagefindBytes            int64
}

// Run measures and writes the table to w.
func Run(w io.Writer, o Options) error {
	tmp, err := os.MkdirTemp("", "p2pkb-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	schema, err := os.ReadFile(filepath.Join(o.Repo, "kb", "schema.json"))
	if err != nil {
		return err
	}
	type column struct{ name, kb, content string }
	// A copy of the repository's KB: the serve --watch figure edits entries.
	repoKB := filepath.Join(tmp, "repository-kb")
	if err := os.CopyFS(repoKB, os.DirFS(filepath.Join(o.Repo, "kb"))); err != nil {
		return err
	}
	cols := []column{{"repository KB", repoKB, filepath.Join(o.Repo, "content")}}
	for _, n := range o.N {
		syn := filepath.Join(tmp, fmt.Sprintf("synthetic-%d", n))
		if err := synth.Write(syn, n, 1, schema); err != nil {
			return err
		}
		cols = append(cols, column{fmt.Sprintf("synthetic N=%d", n), filepath.Join(syn, "kb"), filepath.Join(syn, "content")})
	}
	// Nothing is deleted until every build has run, and serve --watch, which
	// deletes its output on exit, runs after them all. Where ext4 runs
	// without a journal, it skips inodes freed in the last minutes when it
	// makes a file: a build just after a large deletion took 2-3 times as
	// long on this machine class.
	figures := make([]Figures, len(cols))
	entries := make([][]*kb.Entry, len(cols))
	for i, c := range cols {
		if figures[i], entries[i], err = measure(o, c.name, c.kb, c.content, filepath.Join(tmp, fmt.Sprintf("out-%d", i))); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	for i, c := range cols {
		// Last, as it edits the KB's files.
		w, err := measureWatch(o, c.kb, c.content, entries[i])
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		figures[i].WatchP50, figures[i].WatchMax, figures[i].FoundP50, figures[i].FoundMax = w.p50, w.worst, w.foundP50, w.foundWorst
	}
	var hugo, pagefind string
	if o.Hugo != "" {
		hugo = version(o.Hugo, "version")
	}
	if o.Pagefind != "" {
		pagefind = version(o.Pagefind, "--version")
	}
	print(w, figures, hugo, pagefind)
	return nil
}

// measure builds one column with p2pkb (and Hugo and Pagefind where
// installed) and takes every figure but serve --watch's. It returns the
// KB's entries for that one.
func measure(o Options, name, kbDir, contentDir, out string) (Figures, []*kb.Entry, error) {
	f := Figures{Name: name}
	schema, _ := os.ReadFile(filepath.Join(kbDir, "schema.json"))
	src := build.Sources{
		KB: build.Source{FS: os.DirFS(kbDir), Name: "kb"}, Content: build.Source{FS: os.DirFS(contentDir), Name: "content"},
		I18n:   build.Source{FS: os.DirFS(filepath.Join(o.Repo, "templates")), Name: "templates"},
		Assets: build.Source{FS: os.DirFS(filepath.Join(o.Repo, "assets")), Name: "assets"}, Schema: schema,
	}
	s, _, err := build.Model(src, "")
	if err != nil {
		return f, nil, err
	}
	f.Entries = len(s.KB.Entries)
	hugoDir := out + ".hugo"
	if o.Hugo != "" {
		if err := writeHugo(hugoDir, s); err != nil {
			return f, nil, fmt.Errorf("hugo site: %w", err)
		}
	}

	// Our build and Hugo's take turns, each into a directory of its own
	// after the writes before it reached the disk: the file system's state
	// (dirty pages being written back, recently freed inodes) moved one
	// build by a factor of two from run to run on this machine class, and
	// a single run of each set side by side compared the noise more than
	// the builds. The medians are compared.
	var ours, theirs []timing
	for r := range buildRounds {
		dir := out
		if r > 0 {
			dir = fmt.Sprintf("%s.%d", out, r)
		}
		syscall.Sync()
		b, err := buildOnce(o, kbDir, contentDir, dir)
		if err != nil {
			return f, nil, err
		}
		ours = append(ours, b)
		if o.Hugo != "" {
			syscall.Sync()
			h, err := hugoOnce(o, hugoDir, fmt.Sprintf("public-%d", r))
			if err != nil {
				return f, nil, err
			}
			theirs = append(theirs, h)
		}
	}
	b := median(ours)
	f.Wall, f.WallMin, f.WallMax, f.CPU, f.PeakRSS, f.BuildLog = b.wall, b.min, b.max, b.cpu, b.rss, b.log
	if o.Hugo != "" {
		h := median(theirs)
		f.HugoWall, f.HugoWallMin, f.HugoWallMax, f.HugoCPU, f.HugoRSS = h.wall, h.min, h.max, h.cpu, h.rss
		if err := measurePagefind(o, hugoDir, "public-0", &f); err != nil {
			return f, nil, err
		}
	}
	f.PublicBytes = dirSize(out)
	f.ClientBytes = dirSize(filepath.Join(out, "search", "en")) + dirSize(filepath.Join(out, "search", "zh"))
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "index.html" {
			f.Pages++
		}
		return nil
	})

	// bleve's index, as serve makes it from the postings the build wrote,
	// in the background while it answers from them.
	t := time.Now()
	ix, err := build.OpenSearch(out)
	if err != nil {
		return f, nil, err
	}
	bix, err := build.IndexBleve(context.Background(), out, ix)
	if err != nil {
		return f, nil, err
	}
	f.BleveTime = time.Since(t)
	f.BleveBytes = dirSize(filepath.Join(out, filepath.FromSlash(build.SearchIndexDir)))
	bix.Close()

	queries := sampleQueries(s.KB.Entries)
	ix, err = build.OpenSearch(out)
	if err != nil {
		return f, nil, err
	}
	var lat []time.Duration
	for _, q := range queries {
		t := time.Now()
		if _, err := ix.Search(q, "en", 10); err != nil {
			return f, nil, err
		}
		lat = append(lat, time.Since(t))
	}
	ix.Close()
	f.GoP50, f.GoP99 = percentile(lat, 50), percentile(lat, 99)
	var searchRuns, explainRuns []timing

	// The terminal commands on the KB's sources, which index it as they
	// start: the median of a few runs, with a different query each, as the
	// build's.
	for r := range buildRounds {
		e := s.KB.Entries[(len(s.KB.Entries)/2+r*7919)%len(s.KB.Entries)]
		sr, err := timed("", false, o.Binary, "search", "--kb", kbDir, "--content", contentDir, queries[r])
		if err != nil {
			return f, nil, err
		}
		er, err := timed("", true, o.Binary, "explain", "--kb", kbDir, "--content", contentDir, "--", "error: "+e.Signature)
		if err != nil {
			return f, nil, err
		}
		searchRuns, explainRuns = append(searchRuns, sr), append(explainRuns, er)
	}
	sm, em := median(searchRuns), median(explainRuns)
	f.SearchKBWall, f.SearchKBMin, f.SearchKBMax, f.SearchKBRSS = sm.wall, sm.min, sm.max, sm.rss
	f.ExplainKBWall, f.ExplainKBMin, f.ExplainKBMax, f.ExplainKBRSS = em.wall, em.min, em.max, em.rss

	if o.Browser != nil {
		f.BrowserP50, f.BrowserP99, f.QueryBytes, err = o.Browser(out, "en", queries[:min(len(queries), 40)])
		if err != nil {
			return f, nil, err
		}
	}

	// The heaviest page of each kind, of either language, with what it loads when opened.
	for _, lang := range []string{"en", "zh"} {
		for kind, into := range map[string]*Weight{"entry": &f.Entry, "home": &f.Home, "catalog": &f.Catalog, "search": &f.Search} {
			w, err := Heaviest(out, lang, kind)
			if err != nil {
				return f, nil, err
			}
			if w.Bytes > into.Bytes {
				*into = w
			}
		}
		n, err := OnDemand(out, lang)
		if err != nil {
			return f, nil, err
		}
		f.OnDemandBytes = max(f.OnDemandBytes, n)
	}

	return f, s.KB.Entries, nil
}

// buildRounds is how many times each of our build and Hugo's runs.
const buildRounds = 3

// timing is one timed build; median's is the median of several, with their
// least and greatest wall time.
type timing struct {
	wall, min, max, cpu time.Duration
	rss                 int64
	log                 string
}

// median returns the run of median wall time, with the range of them all
// and the highest peak RSS of any.
func median(runs []timing) timing {
	s := append([]timing(nil), runs...)
	sort.Slice(s, func(i, j int) bool { return s[i].wall < s[j].wall })
	m := s[len(s)/2]
	m.min, m.max = s[0].wall, s[len(s)-1].wall
	for _, r := range s {
		m.rss = max(m.rss, r.rss)
	}
	return m
}

// buildOnce builds the KB into out with our binary.
func buildOnce(o Options, kbDir, contentDir, out string) (timing, error) {
	return timed("", false, o.Binary, "build", "--kb", kbDir, "--content", contentDir,
		"--i18n", filepath.Join(o.Repo, "templates"), "--assets", filepath.Join(o.Repo, "assets"), "--out", out)
}

// timed runs bin with args in dir ("" for here) and returns its wall and
// CPU (user and system) time, peak RSS and what it printed. found1 says
// exit status 1 is an answer (explain: no error among the messages found).
func timed(dir string, found1 bool, bin string, args ...string) (timing, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	rss := peakRSS(cmd)
	start := time.Now()
	if err := cmd.Run(); err != nil && !(found1 && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == 1) {
		return timing{}, fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args[:min(1, len(args))], ""), err, log.String())
	}
	return timing{
		wall: time.Since(start),
		cpu:  cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		rss:  rss(),
		log:  strings.TrimSpace(log.String()),
	}, nil
}

// sampleQueries mixes what people search with: pasted signatures with noise
// around them, a few words, an error code.
func sampleQueries(entries []*kb.Entry) []string {
	r := rand.New(rand.NewPCG(1, 2))
	var qs []string
	for i := 0; i < 200; i++ {
		e := entries[r.IntN(len(entries))]
		switch i % 3 {
		case 0:
			qs = append(qs, "2025-01-01 12:00:00 worker-1 "+e.Signature+"\n  at train.py:12")
		case 1:
			w := strings.Fields(e.Signature)
			k := r.IntN(max(1, len(w)-3))
			qs = append(qs, strings.Join(w[k:min(len(w), k+3)], " "))
		default:
			qs = append(qs, e.ErrorCode)
		}
	}
	return qs
}

func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func ratio(ours, theirs time.Duration) string {
	if theirs <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", ours.Seconds()/theirs.Seconds())
}

func print(w io.Writer, cols []Figures, hugo, pagefind string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	row := func(name string, f func(Figures) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", f(c))
		}
		fmt.Fprintln(tw)
	}
	row("", func(c Figures) string { return c.Name })
	row("entries", func(c Figures) string { return fmt.Sprint(c.Entries) })
	row(fmt.Sprintf("build wall time, median of %d (range)", buildRounds), func(c Figures) string { return durRange(c.Wall, c.WallMin, c.WallMax) })
	row("build CPU time (user+sys), that run", func(c Figures) string { return dur(c.CPU) })
	row("build peak RSS, highest", func(c Figures) string { return size(c.PeakRSS) })
	row("pages", func(c Figures) string { return fmt.Sprint(c.Pages) })
	row("pages per second", func(c Figures) string { return fmt.Sprintf("%.0f", float64(c.Pages)/c.Wall.Seconds()) })
	row("public/ size", func(c Figures) string { return size(c.PublicBytes) })
	row("bleve index, made by serve in the background", func(c Figures) string { return dur(c.BleveTime) })
	row("bleve index size", func(c Figures) string { return size(c.BleveBytes) })
	row("client index size", func(c Figures) string { return size(c.ClientBytes) })
	row("client index per query", func(c Figures) string { return opt(c.QueryBytes > 0, size(int64(c.QueryBytes))) })
	row("search p50 / p99 (Go)", func(c Figures) string { return dur(c.GoP50) + " / " + dur(c.GoP99) })
	row("search p50 / p99 (browser)", func(c Figures) string {
		return opt(c.BrowserP50 > 0, dur(c.BrowserP50)+" / "+dur(c.BrowserP99))
	})
	for _, k := range []struct {
		name string
		w    func(Figures) Weight
	}{
		{"entry page HTML+CSS+JS (heaviest)", func(c Figures) Weight { return c.Entry }},
		{"home page HTML+CSS+JS", func(c Figures) Weight { return c.Home }},
		{"catalogue page HTML+CSS+JS (heaviest)", func(c Figures) Weight { return c.Catalog }},
		{"search page HTML+CSS+JS", func(c Figures) Weight { return c.Search }},
	} {
		row(k.name, func(c Figures) string {
			return size(int64(k.w(c).Bytes)) + " (" + size(int64(k.w(c).Gzip)) + " gzipped)"
		})
	}
	row("Your machine scripts (when opened)", func(c Figures) string { return size(int64(c.OnDemandBytes)) })
	row(fmt.Sprintf("search --kb wall, median of %d (range) / peak RSS", buildRounds), func(c Figures) string {
		return durRange(c.SearchKBWall, c.SearchKBMin, c.SearchKBMax) + " / " + size(c.SearchKBRSS)
	})
	row(fmt.Sprintf("explain --kb wall, median of %d (range) / peak RSS", buildRounds), func(c Figures) string {
		return durRange(c.ExplainKBWall, c.ExplainKBMin, c.ExplainKBMax) + " / " + size(c.ExplainKBRSS)
	})
	row("serve --watch edit visible p50 / max", func(c Figures) string { return dur(c.WatchP50) + " / " + dur(c.WatchMax) })
	row("serve --watch edit findable in search p50 / max", func(c Figures) string { return dur(c.FoundP50) + " / " + dur(c.FoundMax) })
	if hugo != "" {
		row(fmt.Sprintf("Hugo build wall time, median of %d (range)", buildRounds), func(c Figures) string {
			return durRange(c.HugoWall, c.HugoWallMin, c.HugoWallMax)
		})
		row("Hugo build CPU time (user+sys), that run", func(c Figures) string { return dur(c.HugoCPU) })
		row("Hugo build peak RSS, highest", func(c Figures) string { return size(c.HugoRSS) })
		row("Hugo pages", func(c Figures) string { return fmt.Sprint(c.HugoPages) })
		if pagefind != "" {
			row("Pagefind wall time", func(c Figures) string { return dur(c.PagefindWall) })
			row("Pagefind peak RSS", func(c Figures) string { return size(c.PagefindRSS) })
			row("Pagefind index size", func(c Figures) string { return size(c.PagefindBytes) })
		}
		row("our build / Hugo (median time)", func(c Figures) string { return ratio(c.Wall, c.HugoWall) })
		row("our build / Hugo (CPU time)", func(c Figures) string { return ratio(c.CPU, c.HugoCPU) })
		if pagefind != "" {
			row("our build / Hugo+Pagefind (time)", func(c Figures) string { return ratio(c.Wall, c.HugoWall+c.PagefindWall) })
			row("our build / Hugo+Pagefind (peak RSS)", func(c Figures) string {
				return fmt.Sprintf("%.2f", float64(c.PeakRSS)/float64(max(c.HugoRSS, c.PagefindRSS)))
			})
		}
	}
	tw.Flush()
	if hugo != "" {
		if pagefind == "" {
			pagefind = "no pagefind (npm install pagefind)"
		}
		fmt.Fprintf(w, "compared with: %s; %s\n", hugo, pagefind)
		fmt.Fprintln(w, "the Hugo site: the same entries and articles, an entry page per language with the facts ours shows "+
			"(inline Markdown, workarounds, dead ends, versions, related entries), highlighted articles, a home page listing "+
			"every entry, a language switch, a sitemap; no search index (internal/bench/hugo.go); Hugo runs take turns with ours")
	} else {
		fmt.Fprintln(w, "Hugo and Pagefind columns: install hugo (Debian) and pagefind (npm) to compare")
	}
	for _, c := range cols {
		fmt.Fprintf(w, "%s: %s\n", c.Name, c.BuildLog)
	}
}

func opt(ok bool, s string) string {
	if !ok {
		return "n/a (no Chromium)"
	}
	return s
}

// durRange is a median with the range of the runs it is the median of.
func durRange(m, lo, hi time.Duration) string {
	return fmt.Sprintf("%s (%s-%s)", dur(m), dur(lo), dur(hi))
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%d µs", d.Microseconds())
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
