package server

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/p2pkb/p2pkb/internal/search"
)

// reloadJS listens to the event stream and reloads the page on "reload". It
// names the build the page came from, so a page that connects only after a
// rebuild still learns of it.
const reloadJS = `(function () {
  var gen = document.currentScript.src.split("gen=")[1] || "0";
  var es = new EventSource("/api/events?gen=" + gen);
  es.addEventListener("reload", function () { location.reload(); });
})();
`

// broadcaster tells every open page that the site was rebuilt.
type broadcaster struct {
	mu      sync.Mutex
	clients map[chan struct{}]bool
	gen     int // builds so far; pages carry the one they were served from
	// stop ends the event streams when watching stops, since a server's
	// shutdown waits for open requests and pages keep their stream open.
	stop <-chan struct{}
}

func (b *broadcaster) generation() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.gen
}

func (b *broadcaster) serve(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	// Event streams outlive the server's write timeout.
	if rc := http.NewResponseController(w); rc != nil {
		rc.SetWriteDeadline(time.Time{})
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	b.clients[ch] = true
	if r.URL.Query().Get("gen") != fmt.Sprint(b.gen) {
		ch <- struct{}{} // the page is older than the site
	}
	b.mu.Unlock()
	defer func() { b.mu.Lock(); delete(b.clients, ch); b.mu.Unlock() }()
	io.WriteString(w, ": connected\n\n")
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-b.stop:
			return
		case <-ch:
			io.WriteString(w, "event: reload\ndata: 1\n\n")
			fl.Flush()
		}
	}
}

func (b *broadcaster) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.gen++
	for ch := range b.clients {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Watch calls rebuild whenever files under dirs change, with their paths,
// then reloads open pages. rebuild updates the site being served (on disk)
// and returns its new search index, or nil when the index follows later
// (through SetIndex); a failed rebuild is logged and the old site keeps
// being served. Watching stops when ctx is done; the channel returned is
// closed then, after the rebuild in progress, if any.
func (h *Handler) Watch(ctx context.Context, dirs []string, rebuild func(changed []string) (*search.Index, error), logw io.Writer) (<-chan struct{}, error) {
	h.reload = &broadcaster{clients: map[chan struct{}]bool{}, stop: ctx.Done()}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.IsDir() {
				err = w.Add(p)
			}
			return err
		})
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("watch %s: %w", d, err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Close()
		var timer <-chan time.Time
		changed := map[string]bool{}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) {
					if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
						w.Add(ev.Name)
					}
				}
				changed[ev.Name] = true
				// Editors write a file in several steps: wait for them to settle.
				timer = time.After(50 * time.Millisecond)
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				fmt.Fprintf(logw, "watch: %v\n", err)
			case <-timer:
				timer = nil
				if ctx.Err() != nil {
					return // stopping: no rebuild to wait for
				}
				start := time.Now()
				paths := make([]string, 0, len(changed))
				for p := range changed {
					paths = append(paths, p)
				}
				clear(changed)
				ix, err := rebuild(paths)
				if err != nil {
					fmt.Fprintf(logw, "rebuild failed, still serving the previous site:\n%v\n", err)
					continue
				}
				if ix != nil {
					if old := h.SetIndex(ix); old != nil {
						old.Close()
					}
				}
				fmt.Fprintf(logw, "rebuilt in %v\n", time.Since(start).Round(time.Millisecond))
				h.reload.notify()
			}
		}
	}()
	return done, nil
}
