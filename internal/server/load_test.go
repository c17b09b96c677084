package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/build/buildtest"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/server"
)

// shortTimeouts make a slow client's cut-off visible within a test.
var shortTimeouts = server.Timeouts{ReadHeader: 300 * time.Millisecond, Read: time.Second, Write: 2 * time.Second, Idle: time.Second}

// startServer serves the repository's site on a loopback port with short
// timeouts, as `p2pkb serve` does with its own.
func startServer(t *testing.T) string {
	t.Helper()
	out := buildtest.Site(t, "")
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.ServeListener(ctx, ln, server.New(os.DirFS(out), ix), &logs, shortTimeouts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		ix.Close()
		if strings.Contains(logs.String(), "panic") {
			t.Errorf("the server logged a panic:\n%s", logs.String())
		}
	})
	return ln.Addr().String()
}

// A bounded load on loopback: slow clients that send their headers a byte at
// a time, a burst of searches, very long queries and paths, path tricks and
// methods other than GET and HEAD, all at once. Every ordinary request is
// answered right and within the timeouts, the slow clients are cut, nothing
// outside the site is served, and the server still answers afterwards.
func TestLoadWithHostileClients(t *testing.T) {
	addr := startServer(t)
	base := "http://" + addr
	client := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	var wg sync.WaitGroup
	errs := make(chan string, 1000)

	// Slow clients: one header byte every 100 ms, never finishing.
	cut := make(chan time.Duration, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err.Error()
				return
			}
			defer c.Close()
			start := time.Now()
			req := "GET /en/ HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("a", 100)
			for j := 0; j < len(req); j++ {
				if _, err := c.Write([]byte{req[j]}); err != nil {
					cut <- time.Since(start)
					return
				}
				time.Sleep(100 * time.Millisecond)
				if j%5 == 0 {
					c.SetReadDeadline(time.Now().Add(time.Millisecond))
					if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
						cut <- time.Since(start)
						return
					}
				}
			}
			errs <- "a slow client was never cut off"
		}()
	}

	longQ := strings.Repeat("peer ", search.MaxQueryBytes/5+10)
	cases := []struct {
		method, path string
		status       int
	}{
		{"GET", "/en/", 200},
		{"HEAD", "/zh/", 200},
		{"GET", "/api/search?lang=en&q=" + url.QueryEscape("peer access is not supported"), 200},
		{"GET", "/api/search?lang=en&q=" + url.QueryEscape(longQ), 413},
		// Encoded three times as long: still the handler's 413, not 431.
		{"GET", "/api/search?lang=en&q=" + url.QueryEscape(strings.Repeat("é", search.MaxQueryBytes/2+10)), 413},
		{"GET", "/api/search?lang=xx&q=a", 400},
		{"GET", "/api/search?lang=en&limit=-1&q=a", 400},
		{"GET", "/../../etc/passwd", 404},
		{"GET", "/%2e%2e/%2e%2e/etc/passwd", 404},
		{"GET", "/en/..%2f..%2f..%2fetc/passwd", 404},
		{"GET", "/assets/%00style.css", 404},
		{"GET", "//etc/passwd", 404},
		{"GET", "/" + strings.Repeat("a/", 4000), 404},
		{"GET", "/search/index.bleve/index_meta.json", 404},
		{"POST", "/api/search?q=a", 405},
		{"PUT", "/en/", 405},
		{"DELETE", "/en/", 405},
		{"OPTIONS", "/en/", 405},
		{"TRACE", "/en/", 405},
		{"PATCH", "/assets/style.css", 405},
	}
	var slowest time.Duration
	var mu sync.Mutex
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 3*len(cases); i++ {
				c := cases[(i+g)%len(cases)]
				req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(""))
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					errs <- fmt.Sprintf("%s %.60s: %v", c.method, c.path, err)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				d := time.Since(start)
				mu.Lock()
				slowest = max(slowest, d)
				mu.Unlock()
				if resp.StatusCode != c.status {
					errs <- fmt.Sprintf("%s %.60s: %d, want %d", c.method, c.path, resp.StatusCode, c.status)
				}
				if bytes.Contains(body, []byte("root:")) {
					errs <- fmt.Sprintf("%s %.60s leaked a file outside the site", c.method, c.path)
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	close(cut)
	for e := range errs {
		t.Error(e)
	}
	n := 0
	for d := range cut {
		n++
		if d > shortTimeouts.ReadHeader+3*time.Second {
			t.Errorf("a slow client held its connection for %v", d)
		}
	}
	if n != 8 {
		t.Errorf("%d of 8 slow clients were cut off", n)
	}
	// Ordinary requests are bounded by the write timeout, whatever the load.
	if slowest > shortTimeouts.Write {
		t.Errorf("the slowest ordinary request took %v, over the write timeout %v", slowest, shortTimeouts.Write)
	}
	resp, err := client.Get(base + "/en/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the load: %v %v", resp, err)
	}
	resp.Body.Close()
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// Text is gzipped for a client that asks, to the same bytes; files carry a
// validator that turns a repeated request into 304; a versioned asset may be
// kept for good, anything else is checked again.
func TestCompressionAndConditionalRequests(t *testing.T) {
	base := "http://" + startServer(t)
	tr := &http.Transport{DisableCompression: true}
	client := &http.Client{Transport: tr}
	fetch := func(path string, hdr map[string]string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", base+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	for _, p := range []string{"/en/", "/assets/style.css", "/assets/search.js"} {
		plain, body := fetch(p, nil)
		if plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: encoded without being asked", p)
		}
		gz, zbody := fetch(p, map[string]string{"Accept-Encoding": "gzip"})
		if gz.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: not gzipped for a client that accepts gzip", p)
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(zbody))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		unz, _ := io.ReadAll(zr)
		if !bytes.Equal(unz, body) {
			t.Errorf("%s: gzipped body differs from the plain one", p)
		}
		if len(zbody) >= len(body) {
			t.Errorf("%s: gzip gave %d bytes for %d", p, len(zbody), len(body))
		}
		tag := plain.Header.Get("ETag")
		if tag == "" || plain.Header.Get("Last-Modified") == "" {
			t.Fatalf("%s: no validator: %v", p, plain.Header)
		}
		again, b := fetch(p, map[string]string{"If-None-Match": tag})
		if again.StatusCode != http.StatusNotModified || len(b) != 0 {
			t.Errorf("%s with If-None-Match: %d, %d bytes", p, again.StatusCode, len(b))
		}
		if cc := plain.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", p, cc)
		}
	}
	v, _ := fetch("/assets/style.css?v=0123abcd", nil)
	if cc := v.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("versioned asset: Cache-Control %q", cc)
	}
}
