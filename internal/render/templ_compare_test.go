package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/p2pkb/p2pkb/internal/site"
)

// Every page of the repository's KB, and of entries whose every field is
// hostile text, is the same HTML from the templ
// components as from the html/template files they replace, with and without
// a base URL and a repository. Same means the same elements, attributes and
// text as a browser reads them; what is allowed to differ is listed in
// normalize: how a character is escaped, whitespace between block
// elements (which renders as nothing), and the token an unsafe URL becomes.
func TestComponentsEqualTemplates(t *testing.T) {
	s, r := repoSite(t)
	addHostile(s.KB)
	for _, c := range []struct{ base, repo string }{
		{"", ""},
		{"https://kb.example.org/docs/", "https://github.com/p2pkb/p2pkb"},
		{"https://kb.example.org/a b/<x>&'\"+%zz%41/", "javascript:alert(1)//x?a=1&b=<2>"},
	} {
		ms := site.New(s.KB, s.Articles, c.base)
		ms.RepoURL = c.repo
		kinds := map[site.Kind]int{}
		failed := 0
		for _, p := range ms.Pages {
			kinds[p.Kind]++
			want, err := r.templatePage(nil, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.page(nil, p)
			if err != nil {
				t.Fatal(err)
			}
			if d := htmlDifference(want, got); d != "" {
				failed++
				if failed <= 5 {
					t.Errorf("base URL %q, repo %q: %s: %s", c.base, c.repo, p.File(), d)
				}
			}
		}
		if failed > 0 {
			t.Errorf("base URL %q, repo %q: %d of %d pages differ", c.base, c.repo, failed, len(ms.Pages))
		}
		for _, k := range kinds2compare {
			if kinds[k] == 0 {
				t.Errorf("no %s page compared", k)
			}
		}
	}
}

var kinds2compare = []site.Kind{site.KindHome, site.KindSearch, site.KindCatalog, site.KindEntry, site.KindArticle, site.KindRedirect, site.KindCodeList, site.KindNotFound}

// htmlDifference is "" when a and b read the same after normalize, else
// where they first differ.
func htmlDifference(a, b []byte) string {
	ta, tb := normalize(a), normalize(b)
	for i := range max(len(ta), len(tb)) {
		if i >= len(ta) || i >= len(tb) || ta[i] != tb[i] {
			at := func(ts []string) string {
				from, to := max(0, i-3), min(len(ts), i+3)
				var short []string
				for _, t := range ts[from:to] {
					if len(t) > 300 {
						t = t[:300] + "…"
					}
					short = append(short, t)
				}
				return strings.Join(short, "⏎")
			}
			return fmt.Sprintf("token %d:\n  templates:  %s\n  components: %s", i, at(ta), at(tb))
		}
	}
	return ""
}

// blocks are the elements whose tags make whitespace beside them render as nothing.
var blocks = map[string]bool{}

func init() {
	for _, b := range strings.Fields("html head body meta link title script noscript style header nav main footer section article div p ul ol li dl dt dd table thead tbody tr th td h1 h2 h3 h4 form details summary pre textarea") {
		blocks[b] = true
	}
}

var (
	space   = regexp.MustCompile(`\s+`)
	jsUEsc  = regexp.MustCompile(`\\u([0-9a-fA-F]{4})`)
	urlAttr = map[string]bool{"href": true, "src": true, "action": true}
	// urlControls are the control characters of a URL, raw or
	// percent-encoded: html/template encodes them, templ writes them as they
	// are (a browser drops tabs and line breaks from a URL, and reads NUL as
	// U+FFFD). Only a hostile KB has them; the link goes nowhere either way.
	urlControls = strings.NewReplacer("\t", "", "\n", "", "\r", "", "\x00", "", "\uFFFD", "",
		"%09", "", "%0a", "", "%0d", "", "%00", "", "%ef%bf%bd", "")
	urlTmpl = template.Must(template.New("").Parse(`<a href="{{.}}">`))
)

// normalize lists a page's tokens as a browser reads them:
//   - attribute values and text unescaped (html/template writes + as &#43;,
//     templ as +);
//   - a NUL as U+FFFD (html/template writes it so; templ writes NUL, which
//     a browser leaves out of text);
//   - a script's text without the blank lines around it (html/template
//     leaves those of the comments it removes);
//   - runs of whitespace as one space, and none beside a block element's tag
//     (templ leaves out the line breaks between elements);
//   - a URL as html/template normalizes it (it percent-encodes what a browser
//     would), so an unsafe one is #ZgotmplZ on both sides, and without control characters (urlControls);
//   - a script's JSON \uXXXX and \/ escapes decoded, and structured data
//     compared as parsed JSON.
func normalize(page []byte) []string {
	z := html.NewTokenizer(bytes.NewReader(page))
	var out []string
	var inScript, ldJSON bool
	prevBlock := true
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case html.DoctypeToken:
			out = append(out, "<!doctype "+strings.ToLower(tok.Data)+">")
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			if blocks[tok.Data] && len(out) > 0 && out[len(out)-1] == " " {
				out = out[:len(out)-1]
			}
			if blocks[tok.Data] && len(out) > 0 && strings.HasPrefix(out[len(out)-1], "text:") {
				out[len(out)-1] = strings.TrimRight(out[len(out)-1], " ")
			}
			s := "<"
			if tt == html.EndTagToken {
				s += "/"
			}
			s += tok.Data
			for _, a := range tok.Attr {
				val := a.Val
				if urlAttr[a.Key] {
					val = urlControls.Replace(val)
					var b strings.Builder
					urlTmpl.Execute(&b, val)
					val = urlControls.Replace(html.UnescapeString(strings.TrimSuffix(strings.TrimPrefix(b.String(), `<a href="`), `">`)))
				}
				s += fmt.Sprintf(" %s=%q", a.Key, val)
			}
			out = append(out, s+">")
			prevBlock = blocks[tok.Data]
			if tok.Data == "script" {
				inScript = tt == html.StartTagToken
				ldJSON = false
				for _, a := range tok.Attr {
					if a.Key == "type" && a.Val == "application/ld+json" {
						ldJSON = true
					}
				}
			}
		case html.TextToken:
			text := strings.ReplaceAll(tok.Data, "\x00", "\uFFFD")
			if inScript {
				if ldJSON {
					var v any
					if json.Unmarshal([]byte(text), &v) == nil {
						b, _ := json.Marshal(v)
						text = string(b)
					}
				}
				text = jsUEsc.ReplaceAllStringFunc(text, func(m string) string {
					n, _ := strconv.ParseUint(m[2:], 16, 32)
					return string(rune(n))
				})
				out = append(out, "script:"+strings.TrimSpace(strings.ReplaceAll(text, `\/`, "/")))
				continue
			}
			text = space.ReplaceAllString(text, " ")
			if prevBlock {
				text = strings.TrimLeft(text, " ")
			}
			if text == "" {
				continue
			}
			if text == " " {
				out = append(out, " ")
				continue
			}
			out = append(out, "text:"+text)
		case html.CommentToken:
		}
	}
	return out
}
