// Package build runs the generator's jobs from sources to output: load and
// check the KB and the articles, model the site, render it, and publish it.
// It is what the build and lint commands call; the work itself lives in the
// packages it calls.
package build

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/publish"
	"github.com/p2pkb/p2pkb/internal/render"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Source is one input folder and how messages name it.
type Source struct {
	FS   fs.FS
	Name string // kb, content, or the directory given on the command line
}

// Sources are the generator's inputs.
type Sources struct {
	KB, Content, Assets Source
	I18n                Source // its FS holds i18n.json, the interface's words
	Schema              []byte // used when the KB has no schema.json
	RepoURL             string // the project's repository (--repo-url), for edit and report links; "" leaves them out
	ReplaceOut          bool   // replace the output even when it is no earlier build (--force)
}

// Model loads and checks the sources and builds the site model. The
// warnings are problems that do not stop a build.
func Model(src Sources, baseURL string) (*site.Site, []kb.Problem, error) {
	return model(src, baseURL, nil)
}

func model(src Sources, baseURL string, cache *kb.Cache) (*site.Site, []kb.Problem, error) {
	k, err := kb.Load(src.KB.FS, kb.WithName(src.KB.Name), kb.WithDefaultSchema(src.Schema), kb.WithCache(cache))
	if err != nil {
		return nil, nil, err
	}
	articles, err := content.Load(src.Content.FS, src.Content.Name)
	if err != nil {
		return nil, k.Warnings, err
	}
	if err := site.CheckArticleEntries(k, articles); err != nil {
		return nil, k.Warnings, err
	}
	s := site.New(k, articles, baseURL)
	s.RepoURL = strings.TrimSuffix(src.RepoURL, "/")
	return s, k.Warnings, nil
}

// Catalog loads and checks the sources like Model, and returns the model
// without its pages.
func Catalog(src Sources) (*site.Site, error) {
	k, err := kb.Load(src.KB.FS, kb.WithName(src.KB.Name), kb.WithDefaultSchema(src.Schema), kb.WithPatternSyntax())
	if err != nil {
		return nil, err
	}
	articles, err := content.Load(src.Content.FS, src.Content.Name)
	if err != nil {
		return nil, err
	}
	if err := site.CheckArticleEntries(k, articles); err != nil {
		return nil, err
	}
	return site.Catalog(k, articles), nil
}

// Render renders the site into emit.
func Render(src Sources, s *site.Site, emit render.Emit) error {
	r, err := newRenderer(src)
	if err != nil {
		return err
	}
	return r.Site(s, emit)
}

// newRenderer reads the interface's words and prepares the pages.
func newRenderer(src Sources) (*render.Renderer, error) {
	name := path.Join(src.I18n.Name, I18nFile)
	b, err := fs.ReadFile(src.I18n.FS, I18nFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return render.New(b, name, src.Assets.FS)
}

// I18nFile holds the interface's words in every language, in the folder
// of Sources.I18n.
const I18nFile = "i18n.json"

// Progress hears how far a build is: the stage (load, pages, search), and
// for pages how many of how many are written. A terminal shows it.
type Progress func(stage string, done, total int)

// Build generates the site into out, replacing it only when every step
// succeeded, and reports what it did on log. progress may be nil.
func Build(src Sources, out, baseURL string, log io.Writer, progress ...Progress) error {
	var p Progress
	if len(progress) > 0 {
		p = progress[0]
	}
	_, _, _, err := build(src, out, baseURL, log, nil, false, p)
	return err
}

// build makes the site; keep says whether the pages stay in the model
// returned, and the search analysis in the corpus returned, for updates, or
// go once written.
func build(src Sources, out, baseURL string, log io.Writer, cache *kb.Cache, keep bool, progress Progress) (*site.Site, *render.Renderer, *search.Corpus, error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	progress("load", 0, 0)
	start := time.Now()
	s, _, err := model(src, baseURL, cache)
	if err != nil {
		return nil, nil, nil, err
	}
	modelled := time.Now()
	r, err := newRenderer(src)
	if err != nil {
		return nil, nil, nil, err
	}
	var opts []publish.Option
	if src.ReplaceOut {
		opts = append(opts, publish.Replace())
	}
	tree, err := publish.Begin(out, opts...)
	if err != nil {
		return nil, nil, nil, err
	}
	var files atomic.Int64
	pages := len(s.Pages)
	progress("pages", 0, pages)
	// The search indexes need only the KB and the articles, so they are
	// built while the pages are written: writing tens of thousands of files
	// leaves the cores waiting on the file system, and the indexes fill
	// that time. Whichever fails first stops the other.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var indexed time.Time
	searchErr := make(chan error, 1)
	c := search.SiteCorpus(s).WithContext(ctx)
	if keep {
		c.Keep()
	}
	go func() {
		err := writeSearch(ctx, c, tree, !keep)
		indexed = time.Now()
		if err != nil {
			cancel()
		}
		searchErr <- err
	}()
	err = r.Site(s, func(name string, data []byte) error {
		if err := ctx.Err(); err != nil {
			return err // the index failed: its error is the one to report
		}
		if n := int(files.Add(1)); n <= pages {
			progress("pages", n, pages)
		}
		return tree.Write(name, data)
	})
	rendered := time.Now()
	if !keep {
		s.Pages = nil // written: they need not stay through indexing
	}
	if err != nil {
		cancel()
		if serr := <-searchErr; serr != nil && !errors.Is(serr, context.Canceled) {
			err = serr
		}
	} else {
		progress("search", 0, 0)
		err = <-searchErr
	}
	if err != nil {
		tree.Abort()
		return nil, nil, nil, err
	}
	if err := tree.Commit(); err != nil {
		return nil, nil, nil, err
	}
	end := time.Now()
	fmt.Fprintf(log, "built %s: %d entries, %d articles, %d files in %v (load %v, pages %v, search indexes %v alongside)\n",
		out, len(s.KB.Entries), len(s.Articles.Slugs), files.Load(), round(end.Sub(start)),
		round(modelled.Sub(start)), round(rendered.Sub(modelled)), round(indexed.Sub(modelled)))
	return s, r, c, nil
}

func round(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

// SearchIndexDir is where the bleve index lives inside the output, once
// serve has made it (IndexBleve).
const SearchIndexDir = "search/index.bleve"

// SearchDocsFile is the document table the bleve index needs beside it.
const SearchDocsFile = "search/" + search.DocsFile

// searchGCPercent is the GOGC setting while indexing.
const searchGCPercent = 50

// searchMemoryLimit is the soft memory limit while indexing: the collector
// works harder as the heap nears it. At 10,000 entries it kept a build's
// peak at 330 MB instead of 420-480 for about one CPU-second more; the
// runtime caps the collector's share of the CPU, so a larger KB that needs
// more is slowed, not stopped.
const searchMemoryLimit = 300 << 20

// indexing counts the builds indexing now, and gcBefore and limitBefore
// are the settings the last of them puts back.
var (
	indexingMu  sync.Mutex
	indexing    int
	gcBefore    int
	limitBefore int64
)

// lowerGC collects at one and a half times the live heap until the returned
// function is called, and with limit, a soft memory limit
// (searchMemoryLimit) unless the user's is lower: a one-off build's, not
// serve's, which keeps the pages and the analysis for its updates. Indexing holds the most live memory of a build (a
// language's analysis, the client postings and a bleve batch at once), and
// the heap grows to twice the live memory by default: this keeps a build's
// peak down for a few percent more of its CPU. A lower setting of the
// user's stays, and builds indexing at once put back the setting from
// before the first of them.
func lowerGC(limit bool) (restore func()) {
	indexingMu.Lock()
	defer indexingMu.Unlock()
	if indexing == 0 {
		gcBefore = debug.SetGCPercent(searchGCPercent)
		if gcBefore < searchGCPercent {
			debug.SetGCPercent(gcBefore)
		}
		limitBefore = debug.SetMemoryLimit(-1)
		if limit && limitBefore > searchMemoryLimit {
			debug.SetMemoryLimit(searchMemoryLimit)
		}
	}
	indexing++
	return func() {
		indexingMu.Lock()
		defer indexingMu.Unlock()
		if indexing--; indexing == 0 {
			debug.SetGCPercent(gcBefore)
			debug.SetMemoryLimit(limitBefore)
		}
	}
}

// writeSearch writes the client index, the postings and the document table
// into the tree; serve makes bleve's index from the postings.
func writeSearch(ctx context.Context, c *search.Corpus, tree *publish.Tree, limit bool) error {
	defer lowerGC(limit)()
	_, err := c.Write(tree.Write, SearchDocsFile)
	return err
}

// Lint runs every check of Build, rendering included, and writes nothing.
// It prints warnings and errors to w and fails when there is an error.
// Audit loads the KB as lint does and writes what each entry's signature,
// code and rates rest on (kb.Audit). It fails where the KB shows a rate
// without its basis or an invented code.
func Audit(src Sources, w io.Writer) error {
	k, err := kb.Load(src.KB.FS, kb.WithName(src.KB.Name), kb.WithDefaultSchema(src.Schema))
	if err != nil {
		return err
	}
	a := kb.Audit(k)
	if err := a.Write(w); err != nil {
		return err
	}
	if a.Total.Bare > 0 || a.Invented() > 0 {
		return fmt.Errorf("audit: %d rates without basis, %d invented codes", a.Total.Bare, a.Invented())
	}
	return nil
}

func Lint(src Sources, w io.Writer) error {
	s, warnings, err := Model(src, "")
	for _, p := range warnings {
		fmt.Fprintf(w, "warning: %s\n", p)
	}
	if err != nil {
		return err
	}
	if err := Render(src, s, func(string, []byte) error { return nil }); err != nil {
		return err
	}
	fmt.Fprintf(w, "ok: %d entries, %d articles, %d warnings\n", len(s.KB.Entries), len(s.Articles.Slugs), len(warnings))
	return nil
}

// SearchIndex loads the sources and indexes them in memory, for the
// terminal commands: the documents of lang only, or of every language when
// lang is "". It models no pages, which a search does not show.
func SearchIndex(src Sources, lang string) (*site.Site, *search.Index, error) {
	s, err := Catalog(src)
	if err != nil {
		return nil, nil, err
	}
	c := search.SiteCorpus(s)
	if lang != "" {
		c = c.Only(lang)
	}
	ix, err := c.Index("")
	if err != nil {
		return nil, nil, err
	}
	return s, ix, nil
}

// OpenSearch opens the search index of a built site in dir: bleve's index
// where serve has made it, else the postings the build wrote.
func OpenSearch(dir string) (*search.Index, error) {
	return search.Open(filepath.Join(dir, filepath.FromSlash(SearchIndexDir)), filepath.Join(dir, filepath.FromSlash(SearchDocsFile)))
}

// IndexBleve makes bleve's index of the built site in dir from the postings
// of ix, opened from dir, keeps it there for the next OpenSearch, and
// returns the site's index opened anew, answering from bleve.
func IndexBleve(ctx context.Context, dir string, ix *search.Index) (*search.Index, error) {
	if err := ix.BuildBleve(ctx, filepath.Join(dir, filepath.FromSlash(SearchIndexDir))); err != nil {
		return nil, err
	}
	return OpenSearch(dir)
}
