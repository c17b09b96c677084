package build_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// scanText is the Chinese text a reader of a page sees or can open (closed
// details included): text whose nearest lang attribute is Chinese, without
// what is literal software text: code, preformatted output, keys, samples,
// the message as printed, and what is marked not to be translated
// (addresses, machine names). Text marked English (a message shown as a
// title, a citation) is not Chinese text.
const scanText = `(() => {
  const skip = "code, pre, kbd, samp, script, style, template, [translate=no], .sig";
  const chinese = e => !e.closest(skip) && (e.closest("[lang]") || {lang: ""}).lang.startsWith("zh");
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    if (n.parentElement && chinese(n.parentElement)) { out.push(n.data); }
  }
  document.querySelectorAll("[placeholder], [title], [aria-label]").forEach(e => {
    if (!chinese(e)) { return; }
    for (const a of ["placeholder", "title", "aria-label"]) { if (e.hasAttribute(a)) { out.push(e.getAttribute(a)); } }
  });
  return out.join("\n");
})()`

// Every Chinese page speaks Chinese: no internal identifier (a snake_case
// word), no enum value shown as stored, no English string of the interface
// in its visible text. The failure lists each page with what it showed.
func TestBrowserZhPagesHaveNoIdentifiers(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	raw, err := os.ReadFile("../../templates/i18n.json")
	if err != nil {
		t.Fatal(err)
	}
	var words map[string]map[string]string
	if err := json.Unmarshal(raw, &words); err != nil {
		t.Fatal(err)
	}
	find := identifierFinder(words)

	var pages []string
	err = fs.WalkDir(os.DirFS(out), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") && (strings.HasPrefix(p, "zh/") || p == "404.html") {
			pages = append(pages, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 150 {
		t.Fatalf("%d zh pages: the site should have more", len(pages))
	}
	bad := 0
	for _, p := range pages {
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(out, p))}).String()
		b.Do(chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("main")))
		if found := find(browsertest.Eval[string](b, scanText)); len(found) > 0 {
			bad++
			t.Errorf("%s:\n\t%s", p, strings.Join(found, "\n\t"))
		}
	}
	t.Logf("%d zh pages scanned, %d show identifiers or English", len(pages), bad)
}

// identifierFinder returns what of a text a Chinese reader should not see:
// snake_case words, the enum values that have labels in i18n.json, and the
// English strings of the interface that differ from their Chinese ones.
func identifierFinder(words map[string]map[string]string) func(string) []string {
	snake := regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
	var alts []string
	for key := range words["en"] {
		for _, prefix := range []string{"category_", "root_cause_type_", "status_", "tier_", "resolvable_"} {
			if v, ok := strings.CutPrefix(key, prefix); ok && !strings.Contains(v, "_") {
				alts = append(alts, regexp.QuoteMeta(v))
			}
		}
	}
	for key, en := range words["en"] {
		zh := words["zh"][key]
		// Phrases of two words or more, without printf verbs, that the
		// Chinese side does not share.
		if en == zh || strings.Contains(en, "%") || len(strings.Fields(en)) < 2 || strings.Contains(zh, en) {
			continue
		}
		alts = append(alts, regexp.QuoteMeta(en))
	}
	sort.Slice(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	enum := regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])(` + strings.Join(alts, "|") + `)(?:$|[^A-Za-z0-9_/-])`)
	return func(text string) []string {
		seen := map[string]bool{}
		var found []string
		// Each word once, with where it first stood, to find it by.
		add := func(w string, at int) {
			if seen[w] {
				return
			}
			seen[w] = true
			ctx := strings.ToValidUTF8(text[max(0, at-30):min(len(text), at+len(w)+30)], "")
			found = append(found, fmt.Sprintf("%q in %q", w, strings.ReplaceAll(ctx, "\n", " ")))
		}
		for _, m := range snake.FindAllStringIndex(text, -1) {
			add(text[m[0]:m[1]], m[0])
		}
		for _, m := range enum.FindAllStringSubmatchIndex(text, -1) {
			add(text[m[2]:m[3]], m[2])
		}
		return found
	}
}

// The Chinese search page labels each result's kind in Chinese: the labels
// sit on the results list, where search.js reads them.
func TestBrowserZhSearchResultKinds(t *testing.T) {
	b := browsertest.New(t)
	out := buildSite(t, "")
	root := (&url.URL{Scheme: "file", Path: out + "/"}).String()
	for _, c := range []struct{ lang, q, entry, article string }{
		{"zh", "simpleP2P peer access", "错误", "文章"},
		{"en", "simpleP2P peer access", "error", "article"},
	} {
		if top := runQuery(t, b, root, c.lang, c.q); top == "" {
			t.Fatalf("%s: %q found nothing", c.lang, c.q)
		}
		kinds := browsertest.Eval[[]string](b, `[...document.querySelectorAll("#search-results li")].map(li => li.dataset.kind + " " + li.querySelector(".meta").textContent)`)
		seen := map[string]bool{}
		for _, k := range kinds {
			kind, meta, _ := strings.Cut(k, " ")
			want := map[string]string{"entry": c.entry, "article": c.article}[kind]
			if !strings.HasSuffix(meta, want) {
				t.Errorf("%s: a result of kind %s is labelled %q, want … %q", c.lang, kind, meta, want)
			}
			seen[kind] = true
		}
		if !seen["entry"] || !seen["article"] {
			t.Errorf("%s: %q should find entries and articles: %q", c.lang, c.q, kinds)
		}
	}
	// The box keeps a pasted log's lines, so that searching again sends them.
	log := "NCCL INFO NCCL version 2.28.9+cuda13.0\ninit.cc:904 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60"
	runQuery(t, b, root, "zh", log)
	if got := browsertest.Eval[string](b, `document.getElementById("search-page-q").value`); got != log {
		t.Errorf("the search box holds %q, want the log with its lines %q", got, log)
	}
}
