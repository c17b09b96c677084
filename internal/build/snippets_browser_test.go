package build_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/issue"
	"github.com/p2pkb/p2pkb/internal/server"
)

const testRepo = "https://github.com/p2pkb/p2pkb"

// buildWithRepo builds the repository's site with --repo-url.
func buildWithRepo(t *testing.T) string {
	t.Helper()
	src := repoSources(t)
	src.RepoURL = testRepo
	out := filepath.Join(t.TempDir(), "public")
	if err := build.Build(src, out, "", os.Stderr); err != nil {
		t.Fatalf("build: %v", err)
	}
	return out
}

// snippet is what the first result shows under its title.
type snippet struct {
	ID, Gist, Best, Match string
	GistMarks, MatchMarks []string
}

const firstSnippet = `(() => {
  const li = document.querySelector("#search-results li"), text = s => (li.querySelector(s) || {}).textContent || "";
  const marks = s => [...li.querySelectorAll(s + " mark")].map(m => m.textContent);
  return {ID: li.dataset.resultId, Gist: text(".gist"), Best: text(".best"), Match: text(".match"), GistMarks: marks(".gist"), MatchMarks: marks(".match")};
})()`

// Search results show the root cause and the best workaround under each
// title with the query's words marked, and for a pasted log the line it
// matched; the static index and the API carry the same snippets. From
// file://, over plain HTTP (the client index) and from p2pkb serve (the API).
func TestBrowserSearchSnippets(t *testing.T) {
	b := browsertest.New(t)
	out := buildWithRepo(t)
	static := httptest.NewServer(http.StripPrefix("/kb-docs/", http.FileServer(http.Dir(out))))
	defer static.Close()
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	api := httptest.NewServer(server.New(os.DirFS(out), ix))
	defer api.Close()

	want := map[string]struct{ q, gist, best, mark, line string }{
		"en": {"peer access unsupported topology PCIe switches", "The two GPUs do not support direct peer-to-peer (P2P) memory access, typically due to hardware topology (e.g., different PCIe switches) or disabled…",
			"Fix: Disable peer-to-peer access in your code by setting the environment variable NCCL_P2P_DISABLE=1 before launching the…", "topology", "Line 3 "},
		"zh": {"硬件拓扑 不同的 交换机", "两个 GPU 不支持直接对等 (P2P) 内存访问，通常是由于硬件拓扑（例如不同的 PCIe 交换机）或驱动程序中禁用了 P2P。",
			"解决：在启动脚本之前设置环境变量 NCCL_P2P_DISABLE=1，在代码中禁用点对点访问。", "拓扑", "第 3 行 "},
	}
	log := "step 1 loss 2.31\nstep 2 loss 2.30\n[rank1]: RuntimeError: CUDA error: peer access is not supported between these two devices\nexiting\n"
	for _, root := range []string{(&url.URL{Scheme: "file", Path: out + "/"}).String(), static.URL + "/kb-docs/", api.URL + "/"} {
		for _, lang := range []string{"en", "zh"} {
			w := want[lang]
			t.Run(root[:4]+"/"+lang, func(t *testing.T) {
				b.Requests()
				if top := runQuery(t, b, root, lang, w.q); top != "cuda/peer-access-unsupported-by-hardware" {
					t.Fatalf("top result %q", top)
				}
				got := browsertest.Eval[snippet](b, firstSnippet)
				if got.Gist != w.gist || got.Best != w.best {
					t.Errorf("snippets\n%q\n%q\nwant\n%q\n%q", got.Gist, got.Best, w.gist, w.best)
				}
				if !contains(got.GistMarks, w.mark) {
					t.Errorf("root cause marks %q lack %q", got.GistMarks, w.mark)
				}
				usedAPI := false
				for _, u := range b.Requests() {
					usedAPI = usedAPI || strings.Contains(u, "/api/search")
				}
				if strings.HasPrefix(root, api.URL) && !usedAPI || strings.HasPrefix(root, "file:") && usedAPI {
					t.Errorf("API used: %v, from %s", usedAPI, root)
				}

				runQuery(t, b, root, lang, log)
				got = browsertest.Eval[snippet](b, firstSnippet)
				if !strings.HasPrefix(got.Match, w.line+"[rank1]: RuntimeError: CUDA error: peer access") ||
					!reflect.DeepEqual(got.MatchMarks, []string{"peer access is not supported between these two devices"}) {
					t.Errorf("matched line %q, marked %q", got.Match, got.MatchMarks)
				}
				b.Screenshot("search_snippets_" + lang + "_" + root[:4])
			})
		}
	}
}

// reportLink is the "Report this error" link's target, taken apart.
func reportLink(t *testing.T, b *browsertest.Browser) (title, body string) {
	t.Helper()
	href := browsertest.Eval[string](b, `(() => { const s = document.getElementById("search-report"); return s && !s.hidden ? s.querySelector("a").href : ""; })()`)
	if href == "" {
		t.Fatal("no Report this error link shown")
	}
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(href, testRepo+"/issues/new?") || len(href) > 8000 {
		t.Errorf("link %q is not a new issue in %s within 8000 characters", href[:min(len(href), 80)], testRepo)
	}
	return u.Query().Get("title"), u.Query().Get("body")
}

// A search that finds nothing offers to report the error: a new issue in the
// tracker with the lines of the text that look like errors, and the facts of
// the machine's report only once the visitor ticks the box. Nothing is
// requested from the tracker. Both languages, from file:// and over HTTP.
func TestBrowserReportThisError(t *testing.T) {
	b := browsertest.New(t)
	out := buildWithRepo(t)
	srv := httptest.NewServer(http.StripPrefix("/kb-docs/", http.FileServer(http.Dir(out))))
	defer srv.Close()
	h200, err := os.ReadFile("../../probe/testdata/real/h200x2.json")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../issue/testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases struct {
		Lines []struct {
			Text  string   `json:"text"`
			Lines []string `json:"lines"`
			More  int      `json:"more"`
		} `json:"lines"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	q := "stage 3 of 10\nloading shards\nFrobnicatorError: the zylophone refused to resonate on GPU 3\nsaving checkpoint\n"
	for _, root := range []string{(&url.URL{Scheme: "file", Path: out + "/"}).String(), srv.URL + "/kb-docs/"} {
		for _, lang := range []string{"en", "zh"} {
			t.Run(root[:4]+"/"+lang, func(t *testing.T) {
				b.Requests()
				// A search that finds nothing at all.
				if top := runQuery(t, b, root, lang, "zzzqqq xylophone"); top != "" {
					t.Fatalf("nonsense found %q", top)
				}
				if title, _ := reportLink(t, b); title != "Unknown error: zzzqqq xylophone" {
					t.Errorf("title %q", title)
				}
				b.Screenshot("search_nothing_" + lang + "_" + root[:4])

				// A pasted log whose message no entry's signature matches and
				// whose lines show no fact (not even a training run): the
				// words find pages, the message is still unknown.
				runQuery(t, b, root, lang, q)
				title, body := reportLink(t, b)
				if title != "Unknown error: FrobnicatorError: the zylophone refused to resonate on GPU 3" {
					t.Errorf("title %q", title)
				}
				if !strings.Contains(body, "FrobnicatorError: the zylophone") || strings.Contains(body, "loading shards") || strings.Contains(body, "Facts") {
					t.Errorf("body is not the error line alone:\n%s", body)
				}
				if lines, more := issue.Lines(q); body != issue.Body(lines, more, nil) {
					t.Errorf("body is not the one internal/issue writes:\n%s\nwant\n%s", body, issue.Body(lines, more, nil))
				}
				if visible := browsertest.Eval[bool](b, `!document.querySelector("#search-report .report-facts").hidden`); visible {
					t.Error("consent box shown without a probe report")
				}

				if msg := paste(t, b, string(h200)); msg == "" {
					t.Fatal("report not taken")
				}
				waitFor(t, b, `!document.querySelector("#search-report .report-facts").hidden`)
				if _, body := reportLink(t, b); strings.Contains(body, "Facts") {
					t.Errorf("facts in the link before consent:\n%s", body)
				}
				b.Do(chromedp.Click(chromedp.CSS("#search-report .report-facts input")))
				b.Screenshot("search_report_consent_" + lang + "_" + root[:4])
				_, body = reportLink(t, b)
				if !strings.Contains(body, "Facts of my p2p-probe report:") || !strings.Contains(body, "- gpu.count: 2") || !strings.Contains(body, "FrobnicatorError") {
					t.Errorf("facts missing after consent:\n%s", body)
				}
				for _, u := range b.Requests() {
					if strings.Contains(u, "github.com") {
						t.Errorf("the page requested %s before any click", u)
					}
				}
				b.Do(chromedp.Click(chromedp.CSS(".machine-forget")))
				for _, c := range cases.Lines {
					raw, _ := json.Marshal(c.Text)
					got := browsertest.Eval[struct {
						Lines []string
						More  int
					}](b, `(r => ({Lines: r.lines, More: r.more}))(p2pkbSearch.issueLines(`+string(raw)+`))`)
					if !reflect.DeepEqual(got.Lines, c.Lines) || got.More != c.More {
						t.Errorf("issueLines(%q) = %q, %d in the browser; want %q, %d", c.Text, got.Lines, got.More, c.Lines, c.More)
					}
				}
			})
		}
	}
}
