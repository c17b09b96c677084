package build

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/render"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// Session is a build kept in memory between builds, for serve --watch. When
// only entries changed, Update re-renders just the pages that show them,
// writes them in place and brings the search index up to date afterwards;
// any other change is a full build.
type Session struct {
	src     Sources
	out     string
	baseURL string
	log     io.Writer

	cache kb.Cache
	site  *site.Site
	r     *render.Renderer

	// IndexReady receives the search index of an update once it is built;
	// pages are visible before that.
	IndexReady func(*search.Index)

	mu       sync.Mutex
	gen      int                // updates so far: an index built for an older one is dropped
	written  map[string]uint64  // hash of each client index file as last written in place
	corpus   *search.Corpus     // the search corpus of the last update, whose analysis the next reuses
	cancel   context.CancelFunc // stops the index being built, which the next update makes stale
	indexing sync.WaitGroup     // the indexes being built in the background
}

// Close stops the search index being built and returns once nothing of the
// session writes to the output any more: the output can be removed then.
func (b *Session) Close() {
	b.next() // makes the index in progress stale, and stops it
	b.indexing.Wait()
}

// next starts update or build number gen+1, stopping the index of the last.
func (b *Session) next() (int, context.Context) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cancel != nil {
		b.cancel()
	}
	var ctx context.Context
	ctx, b.cancel = context.WithCancel(context.Background())
	b.gen++
	return b.gen, ctx
}

// NewSession prepares builds of src into out.
func NewSession(src Sources, out, baseURL string, log io.Writer) *Session {
	return &Session{src: src, out: out, baseURL: baseURL, log: log}
}

// Build is a full build, as Build; the session keeps its model.
func (b *Session) Build() error {
	b.next()
	s, r, c, err := build(b.src, b.out, b.baseURL, b.log, &b.cache, true, nil)
	if err != nil {
		return err
	}
	b.site, b.r = s, r
	b.mu.Lock()
	b.written = nil // the build wrote every file anew
	b.corpus = c    // its analysis, for the next update to reuse
	b.mu.Unlock()
	return nil
}

// Update brings the output up to date after a change in the KB's entries
// (entriesOnly) or anywhere else. It reports whether it updated pages in
// place, in which case the search index follows through IndexReady; else it
// made a full build.
func (b *Session) Update(entriesOnly bool) (bool, error) {
	if !entriesOnly || b.site == nil {
		return false, b.Build()
	}
	start := time.Now()
	k, err := kb.Load(b.src.KB.FS, kb.WithName(b.src.KB.Name), kb.WithDefaultSchema(b.src.Schema), kb.WithCache(&b.cache))
	if err != nil {
		return false, err
	}
	changed, lists, ok := changedEntries(b.site.KB, k)
	if !ok {
		return false, b.Build()
	}
	// The index in progress is stale now: stop it, its cores are wanted here.
	// (Not before: after a broken edit, it is the index of the pages served.)
	gen, ctx := b.next()
	s, pages := b.site.Update(k, changed, lists)
	var wg sync.WaitGroup
	errs := make(chan error, len(pages))
	for _, p := range pages {
		wg.Go(func() {
			data, err := b.r.Page(p)
			if err == nil {
				err = writeInPlace(b.out, p.File(), data)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return false, err
	}
	b.site = s
	fmt.Fprintf(b.log, "updated %d pages for %d changed entries in %v; search index follows\n", len(pages), len(changed), round(time.Since(start)))
	b.indexing.Go(func() { b.reindex(ctx, s, gen) })
	return true, nil
}

// reindex builds the client index and the server's index (in memory) of
// the update gen, and writes the client index in place unless a later
// update or build came first.
func (b *Session) reindex(ctx context.Context, s *site.Site, gen int) {
	start := time.Now()
	c := search.SiteCorpus(s).WithContext(ctx).Keep()
	b.mu.Lock()
	if b.corpus != nil {
		c.Since(b.corpus) // only the edited entries are analyzed again
	}
	b.mu.Unlock()
	ix, err := c.Index("")
	if errors.Is(err, context.Canceled) {
		return // a newer edit's index is on its way
	}
	if err != nil {
		fmt.Fprintf(b.log, "search index: %v\n", err)
		return
	}
	// The server's index first: the edit is found through the API at once,
	// and by the static search page once its files follow.
	b.mu.Lock()
	if gen != b.gen {
		b.mu.Unlock()
		ix.Close()
		return
	}
	b.corpus = c
	if b.IndexReady != nil {
		b.IndexReady(ix)
	} else {
		ix.Close()
	}
	b.mu.Unlock()
	found := time.Since(start)

	files := map[string][]byte{}
	var mu sync.Mutex
	_, err = c.WriteClient(func(name string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		files[name] = data
		return nil
	})
	if errors.Is(err, context.Canceled) {
		return
	}
	if err != nil {
		fmt.Fprintf(b.log, "search index: %v\n", err)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if gen != b.gen {
		return
	}
	// Only the files that changed are written: an edit changes a few of
	// the thousands a large KB's client index has, and writing them all in
	// place took most of a minute.
	if b.written == nil {
		b.written = map[string]uint64{}
		for name := range files {
			if old, err := os.ReadFile(filepath.Join(b.out, filepath.FromSlash(name))); err == nil {
				b.written[name] = hash(old)
			}
		}
	}
	n := 0
	for name, data := range files {
		h := hash(data)
		if old, ok := b.written[name]; ok && old == h {
			continue
		}
		if err := writeInPlace(b.out, name, data); err != nil {
			fmt.Fprintf(b.log, "search index: %v\n", err)
			delete(b.written, name)
			return
		}
		b.written[name] = h
		n++
	}
	fmt.Fprintf(b.log, "search index updated in %v, its %d changed files of %d in %v\n", round(found), n, len(files), round(time.Since(start)))
}

// hash identifies a file's content.
func hash(data []byte) uint64 {
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64()
}

// changedEntries lists the ids of entries that are new objects in k;
// lists says whether what the home and catalogue pages list of them
// changed; ok is false when pages other than theirs change too: entries
// added or removed, an error code or signature changed (which code pages
// and links show), or a domain or category (the catalogue's pages).
func changedEntries(old, k *kb.KB) (changed map[string]bool, lists, ok bool) {
	if len(old.Entries) != len(k.Entries) {
		return nil, false, false
	}
	changed = map[string]bool{}
	for _, e := range k.Entries {
		o := old.ByID[e.ID]
		if o == nil {
			return nil, false, false
		}
		if o == e {
			continue
		}
		if o.ErrorCode != e.ErrorCode || o.Signature != e.Signature || o.SignatureZH != e.SignatureZH || o.Domain != e.Domain || o.Category != e.Category ||
			!slices.Equal(o.FormerCodes, e.FormerCodes) { // the code pages list them
			return nil, false, false
		}
		changed[e.ID] = true
		lists = lists || o.LastUpdated != e.LastUpdated || o.VerificationTier != e.VerificationTier ||
			o.Confidence != e.Confidence || o.AppliesWhen != e.AppliesWhen || fmt.Sprint(o.Versions) != fmt.Sprint(e.Versions)
	}
	return changed, lists, true
}

// writeInPlace replaces one file of a published site; readers see the old
// file or the new one, never a part.
func writeInPlace(root, name string, data []byte) error {
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".update-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), p)
}
