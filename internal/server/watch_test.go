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

// An open page of `p2pkb serve --watch` reloads itself with the new text
// after an entry changes.
func TestWatchRebuildsAndReloads(t *testing.T) {
	b := browsertest.New(t)
	work := t.TempDir()
	for _, d := range []string{"kb", "content", "templates", "assets"} {
		copyDir(t, filepath.Join("../..", d), filepath.Join(work, d))
	}
	schema, _ := os.ReadFile(filepath.Join(work, "kb/schema.json"))
	s := func(d string) build.Source {
		return build.Source{FS: os.DirFS(filepath.Join(work, d)), Name: filepath.Join(work, d)}
	}
	src := build.Sources{KB: s("kb"), Content: s("content"), I18n: s("templates"), Assets: s("assets"), Schema: schema}
	var log syncBuilder
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- server.Run(ctx, server.Options{Addr: "127.0.0.1:0", Sources: src, Watch: true, Ready: ready}, io.Discard, &log)
	}()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-served:
		t.Fatalf("serve: %v", err)
	}

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
