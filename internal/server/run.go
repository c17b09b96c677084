package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/search"
)

// Options say what Run serves.
type Options struct {
	Addr    string        // address to listen on
	Dir     string        // a site built earlier; "" builds Sources in a temporary folder, removed when Run returns
	Sources build.Sources // what is built without Dir
	// Watch rebuilds when the folders of Sources change and reloads open
	// pages; each source must be a folder on disk, named by its Name.
	Watch bool
	Ready chan<- string // receives the address once listening, for a caller that listens on port 0
}

// Run serves a site until ctx ends: the one built in o.Dir, whose bleve
// index is made in the background when the build left only its postings,
// or one built from o.Sources, kept up to date with o.Watch. It says on
// stderr what it built and where it serves.
func Run(ctx context.Context, o Options, stdout, stderr io.Writer) error {
	var watched []string
	if o.Watch {
		if o.Dir != "" {
			return errors.New("serve: --watch rebuilds from sources and cannot be used with --dir")
		}
		for _, s := range []struct {
			src  build.Source
			flag string
		}{{o.Sources.KB, "kb"}, {o.Sources.Content, "content"}, {o.Sources.I18n, "i18n"}, {o.Sources.Assets, "assets"}} {
			if st, err := os.Stat(s.src.Name); err != nil || !st.IsDir() {
				return fmt.Errorf("serve --watch: no folder %s to watch (run it in the repository, or give --%s)", s.src.Name, s.flag)
			}
			watched = append(watched, s.src.Name)
		}
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	root := o.Dir
	var sess *build.Session
	if root == "" {
		tmp, err := os.MkdirTemp("", "p2pkb-serve-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		root = filepath.Join(tmp, "public")
		sess = build.NewSession(o.Sources, root, "", stderr)
		if err := sess.Build(); err != nil {
			return err
		}
	}
	ix, err := build.OpenSearch(root)
	if err != nil {
		return fmt.Errorf("%w (build the site first: p2pkb build --out %s)", err, root)
	}
	defer ix.Close()
	h := New(os.DirFS(root), ix)
	if o.Dir != "" && ix.InMemory() {
		made := indexBleve(ctx, h, root, ix, stderr)
		defer func() { stop(); <-made }()
	}
	if o.Watch {
		sess.IndexReady = func(ix *search.Index) {
			if old := h.SetIndex(ix); old != nil {
				old.Close()
			}
		}
		rebuild := func(changed []string) (*search.Index, error) {
			if inPlace, err := sess.Update(entriesOnly(changed, o.Sources.KB.Name)); err != nil || inPlace {
				return nil, err
			}
			return build.OpenSearch(root)
		}
		watching, err := h.Watch(ctx, watched, rebuild, stderr)
		if err != nil {
			return err
		}
		// Nothing may write to the output once it is removed on return.
		defer func() {
			stop() // serving may have ended on its own
			<-watching
			sess.Close()
		}()
	}
	return Serve(ctx, o.Addr, h, stdout, o.Ready)
}

// indexBleve makes bleve's index of the site in root in the background,
// from the postings the build wrote, which answer searches meanwhile; it is
// kept beside them for the next start. The channel is closed when it is
// done or ctx ended.
func indexBleve(ctx context.Context, h *Handler, root string, postings *search.Index, stderr io.Writer) <-chan struct{} {
	made := make(chan struct{})
	go func() {
		defer close(made)
		start := time.Now()
		bix, err := build.IndexBleve(ctx, root, postings)
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(stderr, "search: bleve index not made (%v); searches are answered from the postings in memory\n", err)
			}
			return
		}
		h.SetIndex(bix) // the postings' index closes with nothing to release
		fmt.Fprintf(stderr, "search: bleve index made in %v and kept in %s\n", time.Since(start).Round(time.Millisecond), filepath.Join(root, filepath.FromSlash(build.SearchIndexDir)))
	}()
	return made
}

// entriesOnly tells whether every changed path is an entry of the KB in
// kbDir: not its schema, not a reproducer, nothing outside it. Files gone
// again that are not JSON are an editor's temporary files (sed -i, vim's
// 4913), and do not count.
func entriesOnly(changed []string, kbDir string) bool {
	kbAbs, err := filepath.Abs(kbDir)
	if err != nil {
		return false
	}
	n := 0
	for _, p := range changed {
		abs, err := filepath.Abs(p)
		if err != nil {
			return false
		}
		rel, err := filepath.Rel(kbAbs, abs)
		if err != nil || !filepath.IsLocal(rel) || rel == kb.SchemaFile || strings.HasPrefix(filepath.ToSlash(rel), kb.ReproDir+"/") {
			return false
		}
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) && filepath.Ext(p) != ".json" {
			continue
		}
		n++
		if filepath.Ext(rel) != ".json" {
			return false
		}
	}
	return n > 0
}
