// Package render turns the site model into files: each page through its
// component in templates/, the generated highlighting stylesheets, the
// static assets, the Your machine panel's words, sitemap.xml, the feeds and
// robots.txt. How a page looks is the components' job; which files a site
// has, and where, is this package's.
package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"runtime"

	"github.com/p2pkb/p2pkb/internal/highlight"
	"github.com/p2pkb/p2pkb/internal/markdown"
	"github.com/p2pkb/p2pkb/internal/parallel"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/templates"
)

// Emit receives one output file: its path from the site root and its bytes.
// It may be called from several goroutines at once.
type Emit func(name string, data []byte) error

// Renderer holds what rendering needs once per build: the UI of each
// language and the static assets.
type Renderer struct {
	strings   map[string]map[string]string // lang -> key -> text (i18n.json)
	ui        map[string]*templates.UI     // language code -> what its pages share
	highlight *highlight.Config
	assets    fs.FS
}

// New prepares rendering with the interface's words (i18n.json's bytes,
// named name in messages) and the static assets.
func New(i18n []byte, name string, assets fs.FS) (*Renderer, error) {
	r := &Renderer{
		ui:        map[string]*templates.UI{},
		highlight: highlight.Default(),
		assets:    assets,
	}
	if err := json.Unmarshal(i18n, &r.strings); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, l := range site.Langs {
		strs := r.strings[l.Code]
		if strs == nil {
			return nil, fmt.Errorf("%s: no strings for language %q", name, l.Code)
		}
		md := markdown.New(markdown.WithHighlight(r.highlight), markdown.WithLabels(strs["copy"], strs["section_link"]))
		r.ui[l.Code] = &templates.UI{Code: l.Code, Strings: strs, All: r.strings, Markdown: md}
	}
	return r, nil
}

// Site renders every page and support file of s.
func (r *Renderer) Site(s *site.Site, emit Emit) error {
	// Two workers per core, each taking the next page: a page's file is
	// written while another worker renders. One goroutine per page would
	// grow a fresh stack for every page, deep as template execution goes.
	// Four per core made a 10k build about a tenth slower on two cores:
	// more files made at once cost the kernel more, and the pages took
	// CPU from the search indexes, which then ended last.
	//
	// The workers at work at once take pages far apart in the site's
	// order, which is by folder: the file system makes one folder's entries
	// one at a time, and pages side by side have their folders in the same
	// parent (kb/cuda/, e/).
	workers := 2 * runtime.GOMAXPROCS(0)
	n := len(s.Pages)
	stride := (n + workers - 1) / workers
	// Emit does not keep the bytes it is given, so each worker renders
	// into a buffer of its own: a page's buffer grew by doubling, and its
	// garbage was a good part of a build's collections.
	bufs := make([][]byte, workers)
	err := parallel.For(context.Background(), workers*stride, workers, func(w, j int) error {
		i := j%workers*stride + j/workers
		if i >= n {
			return nil
		}
		p := s.Pages[i]
		b, err := r.page(bufs[w][:0], p)
		if err != nil {
			return err
		}
		if cap(b) <= maxPooledPage {
			bufs[w] = b
		}
		return emit(p.File(), b)
	})
	if err != nil {
		return err
	}
	if err := r.assetFiles(emit); err != nil {
		return err
	}
	if err := r.machineTextFiles(emit); err != nil {
		return err
	}
	if err := errorsFile(emit); err != nil {
		return err
	}
	if err := searchTableFile(emit); err != nil {
		return err
	}
	// The paste readers' patterns, for paste.js (written once, in Go).
	if err := emit(paste.TablePath, paste.Table()); err != nil {
		return err
	}
	// The facts' names and what shows them, for rules.js (written once, in Go).
	if err := emit(rules.TablePath, rules.Table()); err != nil {
		return err
	}
	// Reproducers are published as they are, for readers to run.
	for name, data := range s.KB.Repro {
		if err := emit(name, data); err != nil {
			return err
		}
	}
	if s.BaseURL != "" {
		if err := emit("sitemap.xml", sitemap(s)); err != nil {
			return err
		}
	}
	for _, l := range site.Langs {
		f, err := r.feed(s, l.Code)
		if err != nil {
			return fmt.Errorf("render %s: %w", FeedPath(l.Code), err)
		}
		if err := emit(FeedPath(l.Code), f); err != nil {
			return err
		}
		if s.BaseURL != "" {
			if err := emit(OpenSearchPath(l.Code), openSearch(s, l.Code, r.strings[l.Code]["site_name"])); err != nil {
				return err
			}
		}
	}
	return emit("robots.txt", robots(s))
}

// Page renders one page.
func (r *Renderer) Page(p *site.Page) ([]byte, error) { return r.page(nil, p) }

// page appends the page to b.
func (r *Renderer) page(b []byte, p *site.Page) ([]byte, error) {
	code := p.Lang.Code
	if code == "" {
		code = site.Langs[0].Code
	}
	c, err := templates.Page(templates.NewView(p, r.ui[code]))
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", p.File(), err)
	}
	buf := bytes.NewBuffer(b)
	if err := c.Render(context.Background(), buf); err != nil {
		return nil, fmt.Errorf("render %s: %w", p.File(), err)
	}
	return buf.Bytes(), nil
}

// maxPooledPage is the largest page buffer a worker keeps for its next page;
// a larger one is left to the collector.
const maxPooledPage = 1 << 20

// assetFiles copies the static assets and writes the highlighting styles.
func (r *Renderer) assetFiles(emit Emit) error {
	err := fs.WalkDir(r.assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(r.assets, p)
		if err != nil {
			return err
		}
		return emit(path.Join("assets", p), b)
	})
	if err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	for name, style := range map[string]string{"chroma-light.css": r.highlight.Light, "chroma-dark.css": r.highlight.Dark} {
		var buf bytes.Buffer
		if err := r.highlight.CSS(&buf, style); err != nil {
			return err
		}
		if err := emit("assets/"+name, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
