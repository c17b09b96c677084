package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/build/buildtest"
	"github.com/p2pkb/p2pkb/internal/server"
)

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	out := buildtest.Site(t, "")
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	srv := httptest.NewServer(server.New(os.DirFS(out), ix))
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestAPI(t *testing.T) {
	srv := newServer(t)
	cases := []struct {
		query  string
		status int
		top    string
	}{
		{"q=" + url.QueryEscape("peer access is not supported between these two devices") + "&lang=en", 200, "cuda/peer-access-unsupported-by-hardware"},
		{"q=" + url.QueryEscape("不可纠正") + "&lang=zh&limit=3", 200, "cuda/nvlink-uncorrectable"},
		{"q=" + url.QueryEscape("xyzzy"), 200, ""},
		{"q=x&lang=fr", 400, ""},
		{"q=x&limit=-1", 400, ""},
		{"q=" + strings.Repeat("a", 70000), 413, ""},
	}
	for _, c := range cases {
		resp, body := get(t, srv.URL+"/api/search?"+c.query)
		if resp.StatusCode != c.status {
			t.Errorf("%.60s: status %d, want %d: %s", c.query, resp.StatusCode, c.status, body)
			continue
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("content type %q", resp.Header.Get("Content-Type"))
		}
		if c.status != 200 {
			continue
		}
		var r server.APIResponse
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatal(err)
		}
		top := ""
		if len(r.Results) > 0 {
			top = r.Results[0].ID
		}
		if top != c.top {
			t.Errorf("%.60s: top %q, want %q", c.query, top, c.top)
		}
	}
	// A limit over the most results is refused, not cut to it.
	resp, body := get(t, srv.URL+"/api/search?q=peer&limit=101")
	if resp.StatusCode != 400 || !strings.Contains(body, "limit must be a number from 1 to 100") {
		t.Errorf("limit=101: %d %s", resp.StatusCode, body)
	}
	resp, body = get(t, srv.URL+"/api/search?q=peer&limit=100")
	var r server.APIResponse
	if err := json.Unmarshal([]byte(body), &r); resp.StatusCode != 200 || err != nil || len(r.Results) == 0 || len(r.Results) > 100 {
		t.Errorf("limit=100: %d, %d results, %v", resp.StatusCode, len(r.Results), err)
	}
}

func TestFilesAreReadOnlyAndStayInside(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/", 200, "p2pkb"},
		{"/en/kb/cuda/peer-access-unsupported-by-hardware/", 200, "cudaErrorPeerAccessUnsupported"},
		{"/en/kb/cuda/peer-access-unsupported-by-hardware", 301, ""},
		{"/assets/style.css", 200, "--fg"},
		{"/../../etc/passwd", 404, "Page not found"},
		{"/%2e%2e/%2e%2e/etc/passwd", 404, ""},
		{"/search/index.bleve/index_meta.json", 404, ""},
		{"/no/such/page/", 404, "Page not found"},
	} {
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d, want %d with %q", c.path, resp.StatusCode, c.status, c.want)
		}
		if strings.Contains(string(body), "root:") {
			t.Errorf("GET %s leaked a file outside the site", c.path)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/en/", strings.NewReader("x"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}

// A bounded burst of concurrent requests on loopback: every one answered right.
func TestConcurrentLoad(t *testing.T) {
	srv := newServer(t)
	var wg sync.WaitGroup
	errs := make(chan string, 400)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				u := srv.URL + "/api/search?q=" + url.QueryEscape("peer access unsupported") + "&lang=en"
				if i%2 == 1 {
					u = srv.URL + "/zh/"
				}
				resp, err := http.Get(u)
				if err != nil {
					errs <- err.Error()
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs <- resp.Status
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestServeShutsDownGracefully(t *testing.T) {
	out := buildtest.Site(t, "")
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- server.Serve(ctx, "127.0.0.1:0", server.New(os.DirFS(out), ix), io.Discard, ready) }()
	addr := <-ready
	if resp, _ := get(t, "http://"+addr+"/en/"); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
}

// The static search page asks the API when p2pkb serve is there.
func TestSearchPageUsesAPI(t *testing.T) {
	srv := newServer(t)
	b := browsertest.New(t)
	b.Do(chromedp.Navigate(srv.URL + "/en/search/?q=" + url.QueryEscape("peer access is not supported between these two devices")))
	for i := 0; i < 100 && browsertest.Eval[string](b, `document.body.dataset.searchDone || ""`) == ""; i++ {
		time.Sleep(30 * time.Millisecond)
	}
	top := browsertest.Eval[string](b, `(document.querySelector("#search-results li") || {dataset: {}}).dataset.resultId || ""`)
	// The causes of one message without a machine: the entry with the most reports first.
	if top != "cuda/peer-access-unsupported-by-hardware" {
		t.Errorf("top = %q", top)
	}
	api, shards := false, false
	for _, u := range b.Requests() {
		api = api || strings.Contains(u, "/api/search?")
		shards = shards || strings.Contains(u, "/search/en/t")
	}
	if !api || shards {
		t.Errorf("want the API and no client index shards (api %v, shards %v)", api, shards)
	}
	for _, e := range b.Errors() {
		t.Error(e)
	}
}

// The API says of each line of a pasted log which layer printed it and the
// error inside it, and whether an entry names the line; a query that is not
// text is refused.
func TestAPILines(t *testing.T) {
	srv := newServer(t)
	q := "transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices\n" + // https://github.com/ray-project/ray_lightning/issues/24
		"training step 12\n" +
		"A03-R28-I49-2-6000166:104934:104934 [1] init.cc:204 NCCL WARN Cuda failure 'an illegal memory access was encountered'\n" // https://github.com/NVIDIA/nccl/issues/629
	resp, body := get(t, srv.URL+"/api/search?q="+url.QueryEscape(q))
	if resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode, body)
	}
	var r server.APIResponse
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != 2 || r.Lines[0].Line != 1 || r.Lines[0].Composed || r.Lines[0].Inner.Name != "cudaErrorPeerAccessUnsupported" ||
		r.Lines[1].Line != 3 || !r.Lines[1].Composed || r.Lines[1].Layer.ID != "nccl" || r.Lines[1].Inner.Name != "cudaErrorIllegalAddress" {
		t.Errorf("lines %+v", r.Lines)
	}
	if resp, body := get(t, srv.URL+"/api/search?q="+url.QueryEscape("ELF\x00\x00")); resp.StatusCode != 400 || !strings.Contains(body, "not text") {
		t.Errorf("a NUL byte: %d %s", resp.StatusCode, body)
	}
}
