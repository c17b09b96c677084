// Package server serves a built site over HTTP, read-only, with the search
// API beside the pages: GET /api/search?q=&lang=&limit=. It is hardened for
// a shared login node: no path leaves the site, queries and results are
// bounded, slow clients time out, and a panic in a handler becomes a 500.
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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/p2pkb/p2pkb/internal/search"
)

// Handler serves the files of site and the search API of ix.
type Handler struct {
	mu       sync.RWMutex
	site     fs.FS
	ix       *search.Index
	notFound []byte
	reload   *broadcaster // non-nil with --watch
}

// New returns the handler for a built site.
func New(site fs.FS, ix *search.Index) *Handler {
	h := &Handler{}
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
	hdr.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
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
	if err != nil || !st.Mode().IsRegular() || strings.HasPrefix(name, "search/index.bleve") {
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
	http.ServeContent(w, r, name, st.ModTime(), rs)
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
		if err != nil || n < 1 {
			apiError(w, http.StatusBadRequest, "limit must be a positive number")
			return
		}
		limit = min(n, search.MaxResults)
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
	json.NewEncoder(w).Encode(APIResponse{Query: text, Lang: lang, Results: res})
}

func apiError(w http.ResponseWriter, code int, msg string) {
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// Serve listens on addr until ctx ends, then shuts down gracefully. ready,
// when not nil, receives the address actually bound (for port 0).
func Serve(ctx context.Context, addr string, h http.Handler, logw io.Writer, ready chan<- string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{
		Handler:           http.MaxBytesHandler(h, 1<<20),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(logw, "serve: ", 0),
	}
	fmt.Fprintf(logw, "serving on http://%s/\n", ln.Addr())
	if ready != nil {
		ready <- ln.Addr().String()
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
