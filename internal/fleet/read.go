package fleet

import (
	"archive/tar"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// Report is one node's report as found, before it is parsed.
type Report struct {
	Node string // the node's name: the file's name without .json
	Path string // where it was read, for messages
	Data []byte // the report; nil for a file not read yet (see load)
	Err  error  // reading it failed
	file string // a file to read, on the core that parses it
}

// load reads a report found as a file.
func (r Report) load() Report {
	if r.file == "" || r.Data != nil || r.Err != nil {
		return r
	}
	return readFile(r.file)
}

// NodeName is the name of the node a report file belongs to: its base name
// without the extension, since reports do not name their host.
// "reports/gpu-a17.json" is gpu-a17.
func NodeName(file string) string {
	base := path.Base(filepath.ToSlash(file))
	for _, ext := range []string{".json", ".probe", ".out"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// walk sends every report found in the named files, folders (their *.json
// files, recursively) and tar archives (.tar, .tar.gz, .tgz: their *.json
// members) to fn, one at a time: a file by its name, to be read where it is
// parsed (Report.load), an archive's member read, as an archive is read in
// order. It stops at the first error fn returns; a path that cannot be
// walked is sent with Err set, and a path that does not exist is an error.
func walk(paths []string, fn func(Report) error) error {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		switch {
		case st.IsDir():
			err = filepath.WalkDir(p, func(file string, d fs.DirEntry, err error) error {
				if err != nil {
					return fn(Report{Node: NodeName(file), Path: file, Err: err})
				}
				if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") {
					return nil
				}
				return fn(Report{Node: NodeName(file), Path: file, file: file})
			})
		case isTar(p):
			err = walkTar(p, fn)
		default:
			err = fn(Report{Node: NodeName(p), Path: p, file: p})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func isTar(p string) bool {
	for _, ext := range []string{".tar", ".tar.gz", ".tgz"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

func readFile(file string) Report {
	r := Report{Node: NodeName(file), Path: file}
	f, err := os.Open(file)
	if err != nil {
		r.Err = err
		return r
	}
	defer f.Close()
	r.Data, r.Err = readLimited(f)
	return r
}

// readLimited reads a report, refusing one larger than a report can be
// rather than holding it in memory.
func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, facts.MaxSize+1))
	if err == nil && len(data) > facts.MaxSize {
		err = fmt.Errorf("larger than %d KB: not a p2p-probe report", facts.MaxSize>>10)
	}
	return data, err
}

func walkTar(p string, fn func(Report) error) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	var in io.Reader = f
	if !strings.HasSuffix(p, ".tar") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		defer z.Close()
		in = z
	}
	tr := tar.NewReader(in)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".json") {
			continue
		}
		r := Report{Node: NodeName(h.Name), Path: p + ":" + h.Name}
		r.Data, r.Err = readLimited(tr)
		if err := fn(r); err != nil {
			return err
		}
	}
}

// Read reads every report under paths (see walk) and returns the fleet's
// view. Reports are parsed on every core and kept only as the few figures
// the view needs.
func Read(paths []string, o Options) (View, error) {
	o = o.withDefaults()
	workers := runtime.GOMAXPROCS(0)
	in := make(chan Report, 2*workers)
	out := make(chan node, 2*workers)
	var wg sync.WaitGroup
	var judgeErr error
	var once sync.Once
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker keeps its own judge: its verdict cache needs no lock.
			j, err := newJudge(o.Entries)
			if err != nil {
				once.Do(func() { judgeErr = err })
			}
			for r := range in {
				out <- parse(r, j)
			}
		}()
	}
	var walkErr error
	go func() {
		walkErr = walk(paths, func(r Report) error {
			in <- r
			return nil
		})
		close(in)
		wg.Wait()
		close(out)
	}()
	var nodes []node
	for n := range out {
		nodes = append(nodes, n)
	}
	if walkErr != nil {
		return View{}, walkErr
	}
	if judgeErr != nil {
		return View{}, judgeErr
	}
	j, _ := newJudge(o.Entries)
	return fold(dedupe(nodes), j, o), nil
}

// dedupe marks every report after the first (by path) of a node's name as
// unreadable: the name comes from the file's name, and two files of one
// name are a mistake to show, not a node to count twice.
func dedupe(nodes []node) []node {
	slices.SortFunc(nodes, func(a, b node) int { return cmp.Compare(a.path, b.path) })
	first := map[string]string{}
	for i := range nodes {
		n := &nodes[i]
		if p, dup := first[n.name]; dup {
			*n = node{name: n.path, path: n.path, verdict: Unreadable,
				err: fmt.Sprintf("%s: a second report for node %s (the first is %s); a node's name comes from its file's name", n.path, n.name, p)}
			continue
		}
		first[n.name] = n.path
	}
	return nodes
}

func parse(r Report, j *judge) node {
	r = r.load()
	if r.Err != nil {
		return node{name: r.Node, path: r.Path, verdict: Unreadable, err: fmt.Sprintf("%s: %v", r.Path, r.Err)}
	}
	rep, err := facts.Read(bytes.NewReader(r.Data))
	if err != nil {
		return node{name: r.Node, path: r.Path, verdict: Unreadable, err: fmt.Sprintf("%s: %v", r.Path, err)}
	}
	n := summarize(r.Node, rep, j)
	n.path = r.Path
	return n
}
