package build_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/search/searchtest"
)

// TestBrowser opens entry and article pages in both languages, from file://
// and over HTTP under a sub-path, and checks what a reader sees and does.
func TestBrowser(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")

	mux := http.NewServeMux()
	mux.Handle("/docs/", http.StripPrefix("/docs/", http.FileServer(http.Dir(out))))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// Let the copy button use the real clipboard, as a person's click would.
	for _, perm := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(b.Context(), browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: perm, AllowWithoutSanitization: true},
			Setting:    browser.PermissionSettingGranted,
		}); err != nil {
			t.Fatalf("grant %s: %v", perm, err)
		}
	}

	fileRoot := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	httpRoot := srv.URL + "/docs/"
	for _, root := range []string{fileRoot, httpRoot} {
		for _, c := range []struct {
			lang, other, path string
			article           bool
		}{
			{"en", "zh", "kb/cuda/peer-access-unsupported-by-hardware/", false},
			{"zh", "en", "kb/cuda/peer-access-unsupported-by-hardware/", false},
			{"en", "zh", "articles/why-is-cuda-simplep2p-failing/", true},
			{"zh", "en", "articles/why-is-cuda-simplep2p-failing/", true},
		} {
			name := strings.SplitN(root, ":", 2)[0] + "/" + c.lang + "/" + c.path
			t.Run(name, func(t *testing.T) {
				page := root + c.lang + "/" + c.path + "index.html"
				b.Do(chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS("main")))
				b.Screenshot(strings.NewReplacer("/", "_", ":", "").Replace(name))

				if got := browsertest.Eval[string](b, `document.documentElement.lang`); !strings.HasPrefix(got, c.lang) {
					t.Errorf("lang = %q, want %s", got, c.lang)
				}
				if c.article {
					checkHighlighting(t, b)
				} else {
					checkCopy(t, b)
				}
				checkSwitch(t, b, root+c.other+"/"+c.path+"index.html", c.other)
				checkQuiet(t, b, root)
			})
		}
	}
}

func checkHighlighting(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	// The seed's fences say cpp; the code calls CUDA, so CUDA's names are built-ins.
	builtins := browsertest.Eval[[]string](b, `[...document.querySelectorAll("pre.chroma .nb")].map(e => e.textContent)`)
	for _, want := range []string{"cudaDeviceCanAccessPeer", "cudaMemcpyPeer", "cudaDeviceEnablePeerAccess"} {
		if !contains(builtins, want) {
			t.Errorf("%s is not highlighted as a built-in; built-ins: %v", want, builtins)
		}
	}
	types := browsertest.Eval[[]string](b, `[...document.querySelectorAll("pre.chroma .kt")].map(e => e.textContent)`)
	if !contains(types, "cudaError_t") {
		t.Errorf("cudaError_t is not highlighted as a type; types: %v", types)
	}
	styled := browsertest.Eval[bool](b, `getComputedStyle(document.querySelector("pre.chroma .nb")).color !== getComputedStyle(document.querySelector("pre.chroma .n")).color`)
	if !styled {
		t.Error("the highlighting stylesheet gives built-ins no colour of their own")
	}
	toc := browsertest.Eval[int](b, `document.querySelectorAll("nav.toc a[href^='#']").length`)
	if toc < 5 {
		t.Errorf("table of contents has %d links", toc)
	}
}

func checkCopy(t *testing.T, b *browsertest.Browser) {
	t.Helper()
	sig := browsertest.Eval[string](b, `document.querySelector(".signature pre").textContent`)
	label := browsertest.Eval[string](b, `document.querySelector(".signature button.copy").textContent`)
	b.Do(chromedp.Click(chromedp.CSS(".signature button.copy")))
	var after string
	for i := 0; i < 20; i++ {
		after = browsertest.Eval[string](b, `document.querySelector(".signature button.copy").textContent`)
		if after != label {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	want := browsertest.Eval[string](b, `document.body.dataset.copied`)
	if after != want {
		t.Fatalf("after a click the copy button reads %q, want %q", after, want)
	}
	got := browsertest.Eval[string](b, `navigator.clipboard.readText()`)
	if got != sig {
		t.Errorf("clipboard holds %q, want the signature %q", got, sig)
	}
}

// checkSwitch follows the language switch and expects the counterpart page.
func checkSwitch(t *testing.T, b *browsertest.Browser, want, lang string) {
	t.Helper()
	b.Do(chromedp.Click(chromedp.CSS(`nav.langs a[data-lang="` + lang + `"]`)))
	var loc string
	for i := 0; i < 50; i++ {
		// A web server may answer .../index.html with a redirect to .../
		// The page may be between documents: try again rather than fail.
		loc, _ = browsertest.EvalErr[string](b, `location.href`)
		if loc == want || loc+"index.html" == want {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if loc != want && loc+"index.html" != want {
		t.Errorf("language switch led to %s, want %s", loc, want)
	}
	b.Do(chromedp.WaitReady(chromedp.CSS("main")))
	var got string
	for i := 0; i < 50; i++ {
		if got, _ = browsertest.EvalErr[string](b, `document.documentElement.lang`); strings.HasPrefix(got, lang) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.HasPrefix(got, lang) {
		t.Errorf("after the switch lang = %q, want %s", got, lang)
	}
}

// checkQuiet fails on console errors and on requests that leave the site.
func checkQuiet(t *testing.T, b *browsertest.Browser, root string) { b.CheckQuiet(t, root) }

// runQuery opens the search page for q and returns the first result's id.
func runQuery(t *testing.T, b *browsertest.Browser, root, lang, q string) string {
	return searchtest.Query(t, b, root, lang, q)
}

// entriesWithCode lists, as the code page links them, the entries of the
// repository's KB whose error_code is code, so the expectation follows the
// KB as entries are added.
func entriesWithCode(t *testing.T, code string) []string {
	t.Helper()
	files, err := filepath.Glob("../../kb/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			ID        string `json:"id"`
			ErrorCode string `json:"error_code"`
		}
		if json.Unmarshal(data, &e) == nil && e.ErrorCode == code {
			ids = append(ids, e.ID)
		}
	}
	sort.Strings(ids)
	links := make([]string, len(ids))
	for i, id := range ids {
		links[i] = "../../en/kb/" + id + "/index.html"
	}
	return links
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestBrowserStableLinks follows the links tools print (/e/<code>/, /kb/<id>/)
// and the site root: each must land on the entry or home page in the
// reader's language, from file:// too.
func TestBrowserStableLinks(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	cases := []struct {
		from, to string
		chosen   string // language chosen earlier on the site, if any
	}{
		{"index.html", "en/index.html", ""},
		{"e/GPA/index.html", "en/kb/tensorflow/gpu-peer-access-error/index.html", ""},
		{"kb/cuda/peer-access-unsupported-by-hardware/index.html", "en/kb/cuda/peer-access-unsupported-by-hardware/index.html", ""},
		{"e/cudaErrorPeerAccessAlreadyEnabled/index.html", "zh/kb/cuda/peer-access-already-enabled/index.html", "zh"},
		// Two entries share this code: the page lists both and stays.
		{"e/cudaErrorPeerAccessUnsupported/index.html", "e/cudaErrorPeerAccessUnsupported/index.html", ""},
	}
	for _, c := range cases {
		b.Do(chromedp.Navigate(root + "en/index.html"))
		browsertest.Eval[any](b, `localStorage.setItem("p2pkb.lang", `+jsString(c.chosen)+`), null`)
		var loc string
		// A page in another renderer sees the language stored a moment
		// later (Chromium hands local storage to other processes
		// asynchronously; a loaded machine showed the old value): the
		// link is followed again, as a reader who chose it earlier would,
		// for as long as a loaded machine may take (CI's took more than
		// three tries of 2.5 s).
		deadline := time.Now().Add(30 * time.Second)
		for loc != root+c.to && time.Now().Before(deadline) {
			b.Do(chromedp.Navigate(root + c.from))
			for i := 0; i < 50; i++ {
				// The page may be between documents: try again rather than fail.
				loc, _ = browsertest.EvalErr[string](b, `location.href`)
				if loc == root+c.to {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		if loc != root+c.to {
			t.Errorf("%s led to %s, want %s", c.from, loc, c.to)
		}
	}
	links := browsertest.Eval[[]string](b, `[...document.querySelectorAll("ul.entries a[lang=en]")].map(a => a.getAttribute("href"))`)
	want := entriesWithCode(t, "cudaErrorPeerAccessUnsupported")
	if len(want) < 2 {
		t.Fatalf("the KB has %d entries with cudaErrorPeerAccessUnsupported; this case needs two or more", len(want))
	}
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("the list of a shared code links %v, want %v", links, want)
	}
	checkQuiet(t, b, root)

	// Without JavaScript, the refresh in <noscript> leads to English.
	if _, err := chromedp.Call(b.Context(), emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	b.Do(chromedp.Navigate(root + "e/GPA/index.html"))
	en := root + "en/kb/tensorflow/gpu-peer-access-error/index.html"
	var loc string
	for i := 0; i < 50 && loc != en; i++ {
		loc, _ = browsertest.EvalErr[string](b, `location.href`)
		time.Sleep(50 * time.Millisecond)
	}
	if loc != en {
		t.Errorf("without JavaScript, e/GPA/ led to %s, want %s", loc, en)
	}
}

func jsString(s string) string {
	if s == "" {
		return `""`
	}
	return `"` + s + `"`
}
