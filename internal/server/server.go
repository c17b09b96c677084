// Package server serves a built site over HTTP, read-only, with the search
// API beside the pages: GET /api/search?q=&lang=&limit=. It is hardened for
// a shared login node: no path leaves the site, queries and results are
// bounded, searches at once are limited, slow clients time out, and a panic
// in a handler becomes a 500. Text is gzipped for clients that accept it,
// and every file has a validator (ETag, Last-Modified) for conditional
// requests. Run is `p2pkb serve`: it builds the site when given none,
// rebuilds it on changes and makes its search index in the background.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"github.com/p2pkb/p2pkb/internal/errvocab"
	"github.com/p2pkb/p2pkb/internal/search"
)

// Handler serves the files of site and the search API of ix.
type Handler struct {
	mu       sync.RWMutex
	site     fs.FS
	ix       *search.Index
	notFound []byte
	reload   *broadcaster  // non-nil with --watch
	gzip     http.Handler  // serve behind gzip
	searches chan struct{} // one token per search running
}

// searchWait is how long a search waits for a free slot before the client
// is told to retry: a burst of searches must not starve the pages.
const searchWait = 2 * time.Second

// New returns the handler for a built site.
func New(site fs.FS, ix *search.Index) *Handler {
	h := &Handler{searches: make(chan struct{}, 2*runtime.GOMAXPROCS(0))}
	h.gzip = gzhttp.GzipHandler(http.HandlerFunc(h.serve))
	h.Swap(site, ix)
	return h
}

// Swap replaces the site and index being served, after a rebuild. It
// returns the index it replaced, for the caller to close.
func (h *Handler) Swap(site fs.FS, ix *search.Index) *search.Index {
	nf, _ := fs.ReadFile(site, "404.html")
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.ix
	h.site, h.ix, h.notFound = site, ix, nf
	return old
}

// SetIndex replaces the search index alone, and returns the one it
// replaced, for the caller to close. The 404 page is read again too: the
// site on disk may have been rebuilt.
func (h *Handler) SetIndex(ix *search.Index) *search.Index {
	site, _, _ := h.current()
	return h.Swap(site, ix)
}

func (h *Handler) current() (fs.FS, *search.Index, []byte) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.site, h.ix, h.notFound
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/events" {
		// An event stream must reach the page as it is written, not when a
		// compressor's buffer fills.
		h.serve(w, r)
		return
	}
	h.gzip.ServeHTTP(w, r)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("serve %s: panic: %v", r.URL.Path, p)
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "read-only", http.StatusMethodNotAllowed)
		return
	}
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	// base-uri 'self': the 404 page, served at any depth, makes the site's
	// root its base.
	hdr.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
	switch r.URL.Path {
	case "/api/search":
		h.search(w, r)
		return
	case "/api/events":
		if h.reload != nil {
			h.reload.serve(w, r)
			return
		}
	case "/api/reload.js":
		if h.reload != nil {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			io.WriteString(w, reloadJS)
			return
		}
	}
	h.file(w, r)
}

// file serves one file of the site; directories serve their index.html and
// are never listed.
func (h *Handler) file(w http.ResponseWriter, r *http.Request) {
	site, _, _ := h.current()
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) {
		h.missing(w)
		return
	}
	st, err := fs.Stat(site, name)
	if err == nil && st.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		st, err = fs.Stat(site, name)
	}
	if err != nil || !st.Mode().IsRegular() || strings.HasPrefix(name, "search/index.bleve") || strings.HasPrefix(name, "search/postings.") {
		h.missing(w)
		return
	}
	f, err := site.Open(name)
	if err != nil {
		h.missing(w)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if h.reload != nil && path.Ext(name) == ".html" {
		// Pages reload themselves after a rebuild; the files on disk stay as built.
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "read error", http.StatusInternalServerError)
			return
		}
		tag := fmt.Sprintf(`<script src="/api/reload.js?gen=%d"></script></body>`, h.reload.generation())
		page := strings.Replace(string(data), "</body>", tag, 1)
		rs, ok = strings.NewReader(page), true
	}
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "read error", http.StatusInternalServerError)
			return
		}
		rs = strings.NewReader(string(data))
	}
	w.Header().Set("ETag", h.etag(name, st))
	w.Header().Set("Cache-Control", cacheControl(r))
	http.ServeContent(w, r, name, st.ModTime(), rs)
}

// etag is a weak validator from the file's size and time: a build replaces
// files whole, so a new file has a new time. It is weak because gzip and the
// reload script of --watch change the bytes but not the meaning.
func (h *Handler) etag(name string, st fs.FileInfo) string {
	gen := 0
	if h.reload != nil && path.Ext(name) == ".html" {
		gen = h.reload.generation()
	}
	return fmt.Sprintf(`W/"%x-%x-%x"`, st.Size(), st.ModTime().UnixNano(), gen)
}

// cacheControl lets a browser keep a file whose URL carries its version
// (?v=<hash of its content>) for good, and makes it ask again, cheaply with
// the validator, for everything else.
func cacheControl(r *http.Request) string {
	if r.URL.Query().Get("v") != "" {
		return "public, max-age=31536000, immutable"
	}
	return "no-cache"
}

func (h *Handler) missing(w http.ResponseWriter) {
	_, _, notFound := h.current()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write(notFound)
}

// APIResponse is what /api/search returns.
type APIResponse struct {
	Query   string          `json:"query"`
	Lang    string          `json:"lang"`
	Results []search.Result `json:"results"`
	Lines   []LineReading   `json:"lines"` // the lines of the query whose layer and inner error are known (errvocab)
}

// LineReading is one line of a query read for who printed it and the error
// inside it, as explain reads it.
type LineReading struct {
	Line  int             `json:"line"` // from 1
	Layer errvocab.Layer  `json:"layer"`
	Where string          `json:"where,omitempty"`
	Inner *errvocab.Error `json:"inner_error,omitempty"`
	// Composed: no result's pattern matched the line, so an answer to it is
	// made of its parts (the layer and the inner error), never a known entry.
	Composed bool `json:"composed"`
}

// maxReadings bounds the lines a query is read for, whatever it holds.
const maxReadings = 100

// readLines reads each line of q that a layer's shape knows, the first
// maxReadings of them.
func readLines(q, lang string, ix *search.Index) []LineReading {
	out := []LineReading{}
	for i, l := range strings.Split(q, "\n") {
		rd, ok := errvocab.Read(l)
		if !ok || rd.Error == nil {
			continue
		}
		// As explain: composed unless an entry names the line, not only the error inside it.
		matched, specific := ix.Names(l, lang)
		composed := !specific && !(matched && rd.Layer.Plain())
		out = append(out, LineReading{Line: i + 1, Layer: rd.Layer, Where: rd.Where, Inner: rd.Error, Composed: composed})
		if len(out) == maxReadings {
			break
		}
	}
	return out
}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	q := r.URL.Query()
	text := q.Get("q")
	if len(text) > search.MaxQueryBytes {
		apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("q is longer than %d bytes", search.MaxQueryBytes))
		return
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("q is not text: a NUL byte at byte %d", i+1))
		return
	}
	lang := q.Get("lang")
	if lang == "" {
		lang = "en"
	}
	if lang != "en" && lang != "zh" {
		apiError(w, http.StatusBadRequest, "lang must be en or zh")
		return
	}
	limit := 10
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > search.MaxResults {
			apiError(w, http.StatusBadRequest, fmt.Sprintf("limit must be a number from 1 to %d", search.MaxResults))
			return
		}
		limit = n
	}
	wait := time.NewTimer(searchWait)
	defer wait.Stop()
	select {
	case h.searches <- struct{}{}:
		defer func() { <-h.searches }()
	case <-wait.C:
		w.Header().Set("Retry-After", "1")
		apiError(w, http.StatusServiceUnavailable, "too many searches at once; retry in a second")
		return
	case <-r.Context().Done():
		return
	}
	_, ix, _ := h.current()
	res, err := ix.Search(text, lang, limit)
	if err != nil {
		apiError(w, http.StatusInternalServerError, "search failed")
		log.Printf("api/search: %v", err)
		return
	}
	if res == nil {
		res = []search.Result{}
	}
	json.NewEncoder(w).Encode(APIResponse{Query: text, Lang: lang, Results: res, Lines: readLines(text, lang, ix)})
}

func apiError(w http.ResponseWriter, code int, msg string) {
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// Timeouts bound how long one client may hold a connection.
type Timeouts struct {
	ReadHeader time.Duration // a request line and headers sent slowly are cut here
	Read       time.Duration // the whole request
	Write      time.Duration // the whole response
	Idle       time.Duration // a kept-alive connection with no request
}

// DefaultTimeouts are those of `p2pkb serve`.
var DefaultTimeouts = Timeouts{ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 30 * time.Second, Idle: 60 * time.Second}

// Serve listens on addr until ctx ends, then shuts down gracefully. ready,
// when not nil, receives the address actually bound (for port 0).
func Serve(ctx context.Context, addr string, h http.Handler, logw io.Writer, ready chan<- string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(logw, "serving on http://%s/\n", ln.Addr())
	if ready != nil {
		ready <- ln.Addr().String()
	}
	return ServeListener(ctx, ln, h, logw, DefaultTimeouts)
}

// maxHeaderBytes bounds the request line and headers. A search's query is
// in the request line, percent-encoded, 3 bytes for a byte at most: a
// query of any content up to search.MaxQueryBytes fits, and one somewhat
// over it reaches the handler, which answers 413 with a message rather
// than the server's bare 431.
const maxHeaderBytes = 3*search.MaxQueryBytes + 16<<10

// ServeListener serves on ln with the given timeouts until ctx ends.
func ServeListener(ctx context.Context, ln net.Listener, h http.Handler, logw io.Writer, t Timeouts) error {
	srv := &http.Server{
		Handler:           http.MaxBytesHandler(h, 1<<20),
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          log.New(logw, "serve: ", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(logw, "stopped")
	return nil
}
