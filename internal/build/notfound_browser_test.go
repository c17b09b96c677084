package build_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/server"
)

// staticHost serves the site in dir under prefix as GitHub Pages and nginx's
// error_page do: a file where there is one, else the site's 404.html with
// status 404, whatever the depth of the address.
func staticHost(t *testing.T, prefix, dir string) http.Handler {
	notFound, err := os.ReadFile(filepath.Join(dir, "404.html"))
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	return http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			p = filepath.Join(p, "index.html")
		}
		if _, err := os.Stat(p); err != nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			w.Write(notFound)
			return
		}
		files.ServeHTTP(w, r)
	}))
}

// A mistyped address at any depth shows the styled 404 page, whose home and
// language links lead to the site's pages: from p2pkb serve, from a static
// host that serves /404.html for every missing path (at the host's root and
// under a sub-path, with and without a base URL), and opened as a file.
func TestBrowserNotFoundAtAnyDepth(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	served := httptest.NewServer(server.New(os.DirFS(out), ix))
	defer served.Close()
	atRoot := httptest.NewServer(staticHost(t, "/", out))
	defer atRoot.Close()
	mux := http.NewServeMux()
	mux.Handle("/p2pkb/", staticHost(t, "/p2pkb/", out))
	underPath := httptest.NewServer(mux)
	defer underPath.Close()

	// A site built for its address: the base URL's path is the root where
	// the address has no language folder to tell it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	baseURL := "http://" + l.Addr().String() + "/p2pkb/"
	withBase := buildSite(t, baseURL)
	mux2 := http.NewServeMux()
	mux2.Handle("/p2pkb/", staticHost(t, "/p2pkb/", withBase))
	based := &httptest.Server{Listener: l, Config: &http.Server{Handler: mux2}}
	based.Start()
	defer based.Close()

	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(out, "404.html"))}).String()
	for _, c := range []struct {
		address, root string // the mistyped address; the site's root it should find
	}{
		{served.URL + "/en/kb/nope/deeper/", served.URL + "/"},
		{served.URL + "/nope/deeper/still/x.html", served.URL + "/"},
		{atRoot.URL + "/zh/kb/cuda/nope/", atRoot.URL + "/"},
		{atRoot.URL + "/nope/deeper/", atRoot.URL + "/"},
		{underPath.URL + "/p2pkb/en/kb/nope/deeper/", underPath.URL + "/p2pkb/"},
		{underPath.URL + "/p2pkb/zh/nope", underPath.URL + "/p2pkb/"},
		{baseURL + "nope/deeper/", baseURL},
		{fileURL, strings.TrimSuffix(fileURL, "404.html")},
	} {
		t.Run(c.address, func(t *testing.T) {
			b.Do(chromedp.Navigate(c.address), chromedp.WaitReady(chromedp.CSS("main ul.choices")))
			if got := browsertest.Eval[string](b, `getComputedStyle(document.querySelector("header.top")).display`); got != "flex" {
				t.Errorf("the header's display is %q: the stylesheet did not load", got)
			}
			links := browsertest.Eval[[]string](b, `[document.querySelector("a.brand").href, ...[...document.querySelectorAll("main ul.choices a")].map(a => a.href)]`)
			// A folder's address or its index.html: the language links
			// are the pages' addresses where the site has a base URL.
			folders := strings.ReplaceAll(strings.Join(links, " "), "/index.html", "/")
			if want := strings.Join([]string{c.root + "en/", c.root + "en/", c.root + "zh/"}, " "); folders != want {
				t.Fatalf("home and language links %q, want %q", links, want)
			}
			if errs := b.Errors(); len(errs) > 0 {
				t.Errorf("errors on the 404 page: %q", errs)
			}
			for i, lang := range []string{"en", "zh-Hans"} {
				b.Do(chromedp.Navigate(links[i+1]), chromedp.WaitReady(chromedp.CSS("main")))
				if got := browsertest.Eval[string](b, `document.documentElement.lang + " " + getComputedStyle(document.querySelector("header.top")).display`); got != lang+" flex" {
					t.Errorf("%s: lang and header display %q, want %q", links[i+1], got, lang+" flex")
				}
			}
			b.Errors()
		})
	}
}
