package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/p2pkb/p2pkb/internal/site"
)

// The Hugo site holds the same entries and articles with pages equivalent
// to ours: an entry page per language with the same facts, inline Markdown
// rendered, workarounds, dead ends, versions and related entries; articles
// with highlighted code; a home page listing every entry; a language switch
// and a sitemap. Pagefind then indexes what Hugo wrote.

const hugoConfig = `baseURL = "/"
title = "p2pkb"
defaultContentLanguage = "en"
defaultContentLanguageInSubdir = true
relativeURLs = true
disableKinds = ["taxonomy", "term", "RSS"]

[languages.en]
weight = 1
languageName = "English"
languageCode = "en"

[languages.zh]
weight = 2
languageName = "中文"
languageCode = "zh-Hans"

[markup.highlight]
noClasses = false
`

var hugoLayouts = map[string]string{
	"_default/baseof.html": `<!doctype html>
<html lang="{{ .Site.LanguageCode }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · p2pkb</title>
{{- range .AllTranslations }}
<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .RelPermalink }}">
{{- end }}
<link rel="stylesheet" href="{{ "style.css" | relURL }}">
</head>
<body>
<header class="top">
<a class="brand" href="{{ "" | relLangURL }}">p2pkb</a>
<nav class="langs">
{{- range .AllTranslations }}
<a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}">{{ .Language.LanguageName }}</a>
{{- end }}
</nav>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
<footer class="bottom"><p>GPU peer-to-peer troubleshooting</p></footer>
</body>
</html>
`,
	"_default/single.html": `{{ define "main" }}
{{ with .Params.entry }}
<article class="entry" data-entry-id="{{ .id }}">
<header>
<p class="crumbs"><a href="{{ "" | relLangURL }}">Home</a> / {{ .domain }} / {{ .category }}</p>
<h1>{{ $.Title }}</h1>
<p class="badges"><span class="tier">{{ .tier }}</span> <span class="confidence">{{ math.Round (mul .confidence 100) }}%</span></p>
</header>
<section class="signature">
<h2>Signature</h2>
<pre class="sig"><code>{{ .signature }}</code></pre>
<dl class="facts">
<dt>Error code</dt><dd><code>{{ .code }}</code></dd>
<dt>Regex</dt><dd><code class="regex">{{ .regex }}</code></dd>
<dt>Domain</dt><dd>{{ .domain }}</dd>
<dt>Category</dt><dd>{{ .category }}</dd>
</dl>
</section>
<section class="cause">
<h2>Root cause</h2>
<p>{{ .root_cause | markdownify }}</p>
</section>
{{ with .workarounds }}
<section class="workarounds">
<h2>Workarounds</h2>
<ol>
{{ range . }}
<li><p>{{ .text | markdownify }}</p>
{{ with .how }}<p class="how">{{ . | markdownify }}</p>{{ end }}
<p class="meta"><meter min="0" max="1" value="{{ .rate }}"></meter> {{ math.Round (mul .rate 100) }}% success{{ with .condition }} · <code>{{ . }}</code>{{ end }}</p>
{{ with .sources }}<ul class="sources">{{ range . }}<li><a href="{{ . }}">{{ . }}</a></li>{{ end }}</ul>{{ end }}
</li>
{{ end }}
</ol>
</section>
{{ end }}
{{ with .dead_ends }}
<section class="dead-ends">
<h2>Dead ends</h2>
<ul>
{{ range . }}
<li>{{ with .action }}<p><strong>{{ . | markdownify }}</strong></p>{{ end }}
<p>{{ .why | markdownify }}</p>
<p class="meta">{{ math.Round (mul .rate 100) }}% fail</p>
</li>
{{ end }}
</ul>
</section>
{{ end }}
{{ with .versions }}
<section class="versions">
<h2>Versions</h2>
<table><thead><tr><th>Version</th><th>Status</th></tr></thead><tbody>
{{ range . }}<tr><td><code>{{ .version }}</code></td><td>{{ .status }}</td></tr>{{ end }}
</tbody></table>
</section>
{{ end }}
{{ with .related }}
<section class="related">
<h2>Related</h2>
<ul>{{ range . }}<li>{{ .relation }}: <a href="{{ relLangURL (printf "kb/%s/" .id) }}"><code>{{ .code }}</code> {{ .signature }}</a></li>{{ end }}</ul>
</section>
{{ end }}
<section class="details">
<h2>Details</h2>
<dl class="facts">
{{ with .doc }}<dt>Official documentation</dt><dd><a href="{{ . }}">{{ . }}</a></dd>{{ end }}
<dt>Evidence</dt><dd>{{ .evidence }}</dd>
<dt>Tags</dt><dd>{{ delimit .tags ", " }}</dd>
</dl>
</section>
</article>
{{ else }}
<article class="article">
<h1>{{ .Title }}</h1>
<p class="meta">{{ .Summary }}</p>
<nav class="toc">{{ .TableOfContents }}</nav>
{{ .Content }}
</article>
{{ end }}
{{ end }}
`,
	"_default/list.html": `{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}
</ul>
{{ end }}
`,
	"index.html": `{{ define "main" }}
<h1>p2pkb</h1>
{{ range (where .Site.RegularPages "Section" "kb").GroupByParam "domain" }}
<section class="domain">
<h2>{{ .Key }}</h2>
<ul>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}"><code>{{ .Params.entry.code }}</code> {{ .Title }}</a></li>{{ end }}
</ul>
</section>
{{ end }}
<h2>Articles</h2>
<ul>
{{ range where .Site.RegularPages "Section" "articles" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}
</ul>
{{ end }}
`,
}

// writeHugo writes s as a Hugo site in dir.
func writeHugo(dir string, s *site.Site) error {
	write := func(name string, data []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}
	if err := write("hugo.toml", []byte(hugoConfig)); err != nil {
		return err
	}
	for name, text := range hugoLayouts {
		if err := write("layouts/"+name, []byte(text)); err != nil {
			return err
		}
	}
	for _, l := range site.Langs {
		for _, e := range s.KB.Entries {
			v := site.View(e, l.Code, s.KB)
			entry := map[string]any{
				"id": e.ID, "signature": e.Signature, "code": e.ErrorCode, "regex": e.Regex, "domain": e.Domain,
				"category": e.Category, "tier": e.VerificationTier, "confidence": e.Confidence, "root_cause": v.RootCause.Text,
				"evidence": e.EvidenceCount, "tags": e.Tags, "doc": e.OfficialDocURL,
			}
			var ws, ds, vs, rs []map[string]any
			for _, w := range v.Workarounds {
				ws = append(ws, map[string]any{"text": w.Text.Text, "how": w.How, "rate": w.SuccessRate, "condition": w.Condition, "sources": w.Sources})
			}
			for _, d := range v.DeadEnds {
				ds = append(ds, map[string]any{"action": d.Action.Text, "why": d.WhyFails.Text, "rate": d.FailRate})
			}
			for _, ver := range v.Versions {
				vs = append(vs, map[string]any{"version": ver.Version, "status": ver.Status})
			}
			for _, r := range v.Related {
				rs = append(rs, map[string]any{"relation": r.Relation, "id": r.Entry.ID, "code": r.Entry.ErrorCode, "signature": site.Signature(r.Entry, l.Code)})
			}
			entry["workarounds"], entry["dead_ends"], entry["versions"], entry["related"] = ws, ds, vs, rs
			fm, err := json.Marshal(map[string]any{"title": v.Signature, "domain": e.Domain, "entry": entry})
			if err != nil {
				return err
			}
			if err := write(fmt.Sprintf("content/kb/%s.%s.md", e.ID, l.Code), append(fm, '\n')); err != nil {
				return err
			}
		}
		for _, slug := range s.Articles.Slugs {
			a := s.Articles.Articles[slug][l.Code]
			if a == nil {
				continue
			}
			fm, err := json.Marshal(map[string]any{"title": a.Title, "summary": a.Summary, "tags": a.Tags})
			if err != nil {
				return err
			}
			body := string(fm) + "\n\n" + string(a.Body)
			if err := write(fmt.Sprintf("content/articles/%s.%s.md", slug, l.Code), []byte(body)); err != nil {
				return err
			}
		}
	}
	return nil
}

// FindHugo and FindPagefind look for the programs on PATH (Pagefind also in
// the repository's node_modules, where `npm install pagefind` puts it).
func FindHugo() string { p, _ := exec.LookPath("hugo"); return p }

func FindPagefind(repo string) string {
	if p, err := exec.LookPath("pagefind"); err == nil {
		return p
	}
	p := filepath.Join(repo, "node_modules", ".bin", "pagefind")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

// version is the first line a program prints for its version.
func version(bin string, args ...string) string {
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		return filepath.Base(bin)
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// hugoOnce builds the Hugo site in dir into its folder public.
func hugoOnce(o Options, dir, public string) (timing, error) {
	return timed(dir, false, o.Hugo, "--quiet", "--destination", public)
}

// measurePagefind counts the pages Hugo wrote into dir's folder public and
// indexes them with pagefind (when given).
func measurePagefind(o Options, dir, public string, f *Figures) error {
	filepath.WalkDir(filepath.Join(dir, public), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "index.html" {
			f.HugoPages++
		}
		return nil
	})
	if o.Pagefind == "" {
		return nil
	}
	t, err := timed(dir, false, o.Pagefind, "--site", public, "--quiet")
	if err != nil {
		return err
	}
	f.PagefindWall, f.PagefindRSS = t.wall, t.rss
	f.PagefindBytes = dirSize(filepath.Join(dir, public, "pagefind"))
	return nil
}
