package server_test

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/server"
)

// copyDir copies a source folder so the test can edit it.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// syncBuilder is a log written by the watcher and read by the test.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// An open page reloads itself with the new text after an entry changes.
func TestWatchRebuildsAndReloads(t *testing.T) {
	b := browsertest.New(t)
	work := t.TempDir()
	var dirs []string
	for _, d := range []string{"kb", "content", "templates", "assets"} {
		copyDir(t, filepath.Join("../..", d), filepath.Join(work, d))
		dirs = append(dirs, filepath.Join(work, d))
	}
	schema, _ := os.ReadFile(filepath.Join(work, "kb/schema.json"))
	src := func() build.Sources {
		s := func(d string) build.Source { return build.Source{FS: os.DirFS(filepath.Join(work, d)), Name: d} }
		return build.Sources{KB: s("kb"), Content: s("content"), I18n: s("templates"), Assets: s("assets"), Schema: schema}
	}
	root := filepath.Join(work, "public")
	var log syncBuilder
	sess := build.NewSession(src(), root, "", &log)
	if err := sess.Build(); err != nil {
		t.Fatal(err)
	}
	ix, err := build.OpenSearch(root)
	if err != nil {
		t.Fatal(err)
	}
	h := server.New(os.DirFS(root), ix)
	sess.IndexReady = func(ix *search.Index) { h.SetIndex(ix) }
	ctx, cancel := context.WithCancel(context.Background())
	watching, err := h.Watch(ctx, dirs, func(changed []string) (*search.Index, error) {
		entries := true
		for _, p := range changed {
			entries = entries && strings.HasPrefix(p, filepath.Join(work, "kb")) && strings.HasSuffix(p, ".json")
		}
		if inPlace, err := sess.Update(entries); err != nil || inPlace {
			return nil, err
		}
		return build.OpenSearch(root)
	}, &log)
	if err != nil {
		t.Fatal(err)
	}
	// The temporary folder goes once nothing writes to it any more.
	defer func() {
		cancel()
		<-watching
		sess.Close()
	}()
	ready := make(chan string, 1)
	go server.Serve(ctx, "127.0.0.1:0", h, io.Discard, ready)
	addr := <-ready

	page := "http://" + addr + "/en/kb/cuda/peer-access-unsupported-by-hardware/"
	b.Do(chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS("main")))
	time.Sleep(200 * time.Millisecond) // let the page's event stream connect

	file := filepath.Join(work, "kb/cuda/peer-access-unsupported-by-hardware.json")
	data, _ := os.ReadFile(file)
	edited := strings.Replace(string(data), `"root_cause": "The two GPUs`, `"root_cause": "EDITED: The two GPUs`, 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	var text string
	for i := 0; i < 100; i++ {
		text = browsertest.Eval[string](b, `document.querySelector(".cause p") ? document.querySelector(".cause p").textContent : ""`)
		if strings.HasPrefix(text, "EDITED") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.HasPrefix(text, "EDITED") {
		t.Errorf("the open page did not reload with the edit; root cause reads %q; log:\n%s", text, log.String())
	}

	// A broken edit keeps the old site up and says why.
	os.WriteFile(file, []byte(strings.Replace(edited, `"confidence": 0.84`, `"confidence": 7`, 1)), 0o644)
	for i := 0; i < 100 && !strings.Contains(log.String(), "rebuild failed"); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "confidence") {
		t.Errorf("a failed rebuild must say what is wrong; log:\n%s", log.String())
	}
	if resp, body := get(t, page); resp.StatusCode != 200 || !strings.Contains(body, "EDITED") {
		t.Error("after a failed rebuild the previous site must still be served")
	}
}
