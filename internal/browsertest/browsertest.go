// Package browsertest starts headless Chromium for tests and records what a
// page did: console errors, uncaught exceptions and every request it made, so
// tests can assert that nothing failed and nothing left the site.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Browser is one headless Chromium with a fresh profile.
type Browser struct {
	ctx context.Context
	t   testing.TB

	mu       sync.Mutex
	errors   []string // console errors and exceptions
	requests []string // every URL requested
}

// Path finds Chromium, or "" when it is not installed.
func Path() string {
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts Chromium for the test, or skips the test when Chromium is
// missing (fails instead on CI, where make test installs it).
func New(t testing.TB) *Browser {
	t.Helper()
	if Path() == "" {
		msg := "browser tests need Chromium: sudo apt-get install chromium chromium-driver"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	b, stop, err := Launch(t.TempDir())
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	b.t = t
	t.Cleanup(stop)
	return b
}

// Launch starts headless Chromium with a fresh profile in userDataDir, for
// programs (benchmarks) as well as tests. stop ends it.
func Launch(userDataDir string) (b *Browser, stop func(), err error) {
	path := Path()
	if path == "" {
		return nil, nil, errors.New("chromium is not installed")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(userDataDir),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1200, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b = &Browser{}
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithListener(b.record))
	stop = func() { cancelCtx(); cancelAlloc() }
	b.ctx = ctx
	// The first call starts the browser; it must not carry a timeout.
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		stop()
		return nil, nil, err
	}
	return b, stop, nil
}

// record keeps what a person would call a failure, and every request. It
// runs in the tab's event loop, so it only appends.
func (b *Browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			b.errors = append(b.errors, "console.error: "+strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		b.errors = append(b.errors, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			b.errors = append(b.errors, "load failed: "+ev.ErrorText)
		}
	}
}

// stepLimit bounds one browser step. Generous: a 10 MB paste or a page
// of 200 causes takes seconds on an idle machine and several times that on
// a loaded one, and a step that hangs still fails the test.
const stepLimit = 2 * time.Minute

// Do runs chromedp actions in order with a time limit, failing the test on error.
func (b *Browser) Do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := b.Try(steps...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// EvalErr evaluates a JavaScript expression (awaiting a promise) into T.
func EvalErr[T any](b *Browser, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, stepLimit)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// Try runs actions in order with a time limit and returns their error.
func (b *Browser) Try(steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, stepLimit)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// Eval evaluates a JavaScript expression (awaiting a promise) into T.
func Eval[T any](b *Browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("browser: %s: %v", expr, err)
	}
	return v
}

// Context is the browser tab's context, for chromedp calls of one's own.
func (b *Browser) Context() context.Context { return b.ctx }

// Errors returns and clears the console errors, exceptions and failed loads seen so far.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.errors
	b.errors = nil
	return e
}

// Requests returns and clears the URLs requested so far.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.requests
	b.requests = nil
	return r
}

// Screenshot saves a full-page PNG when P2PKB_SCREENSHOTS names a directory,
// so a person can look at the pages the tests opened.
func (b *Browser) Screenshot(name string) {
	dir := os.Getenv("P2PKB_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(dir+"/"+name+".png", png, 0o644); err != nil {
		b.t.Error(err)
	}
}

// OpenScripts opens, from file://, an empty page that loads the given
// script files in order (paths as the test names them, relative to its
// package): the least a test of a package's JavaScript needs.
func (b *Browser) OpenScripts(scripts ...string) {
	b.t.Helper()
	html := `<!doctype html><meta charset="utf-8"><body>`
	for _, js := range scripts {
		abs, err := filepath.Abs(js)
		if err != nil {
			b.t.Fatal(err)
		}
		html += `<script src="` + (&url.URL{Scheme: "file", Path: abs}).String() + `"></script>`
	}
	page := filepath.Join(b.t.TempDir(), "index.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.Do(chromedp.Navigate((&url.URL{Scheme: "file", Path: page}).String()), chromedp.WaitReady(chromedp.CSS("body")))
}

// CheckQuiet fails t for every console error or exception seen so far, and
// every request that left the site at root.
func (b *Browser) CheckQuiet(t testing.TB, root string) {
	t.Helper()
	for _, e := range b.Errors() {
		t.Errorf("browser: %s", e)
	}
	for _, u := range b.Requests() {
		if !strings.HasPrefix(u, root) {
			t.Errorf("request left the site: %s", u)
		}
	}
}

// TempScript writes a script the build would generate (a table written
// from Go) into a temporary folder, for OpenScripts, and returns its path.
func TempScript(t testing.TB, name string, js []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, js, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
