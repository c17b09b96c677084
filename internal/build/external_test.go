package build_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// loading attributes: the ones a browser fetches without a click.
var loading = map[string][]string{
	"script": {"src"}, "img": {"src", "srcset"}, "iframe": {"src"}, "frame": {"src"},
	"audio": {"src"}, "video": {"src", "poster"}, "source": {"src", "srcset"}, "track": {"src"},
	"embed": {"src"}, "object": {"data"}, "input": {"src"},
}

var cssURL = regexp.MustCompile(`(?i)(?:url\(\s*['"]?|@import\s+['"])([^'")\s]+)`)

// TestNothingLoadsFromOutside scans every file of a built site for resources
// fetched from anywhere but the site itself.
func TestNothingLoadsFromOutside(t *testing.T) {
	out := buildSite(t, "https://kb.example.org/docs/")
	files := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		files++
		switch filepath.Ext(p) {
		case ".html":
			for _, u := range htmlLoads(t, data) {
				if external(u) {
					t.Errorf("%s loads %s", rel, u)
				}
			}
			for _, m := range cssURL.FindAllSubmatch(data, -1) {
				if external(string(m[1])) {
					t.Errorf("%s: inline style loads %s", rel, m[1])
				}
			}
		case ".css":
			for _, m := range cssURL.FindAllSubmatch(data, -1) {
				if external(string(m[1])) {
					t.Errorf("%s loads %s", rel, m[1])
				}
			}
		case ".js":
			for _, bad := range []string{"fetch(\"http", "fetch('http", "XMLHttpRequest", "importScripts", "import(\"http", "new WebSocket"} {
				if bytes.Contains(data, []byte(bad)) {
					t.Errorf("%s contains %s", rel, bad)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("scanned only %d files", files)
	}
}

// htmlLoads returns every URL an HTML document fetches on its own.
func htmlLoads(t *testing.T, data []byte) []string {
	var urls []string
	z := html.NewTokenizer(bytes.NewReader(data))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return urls
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if tok.Data == "noscript" {
			// Its markup comes as text, and acts where scripts are off.
			if z.Next() == html.TextToken {
				urls = append(urls, htmlLoads(t, z.Text())...)
			}
			continue
		}
		attrs := map[string]string{}
		for _, a := range tok.Attr {
			attrs[a.Key] = a.Val
		}
		for _, name := range loading[tok.Data] {
			if v, ok := attrs[name]; ok {
				urls = append(urls, v)
			}
		}
		if tok.Data == "link" {
			rel := attrs["rel"]
			// canonical and alternate are links for crawlers, not loads.
			if rel != "canonical" && rel != "alternate" {
				urls = append(urls, attrs["href"])
			}
		}
		if tok.Data == "meta" && strings.EqualFold(attrs["http-equiv"], "refresh") {
			if i := strings.Index(strings.ToLower(attrs["content"]), "url="); i >= 0 {
				urls = append(urls, attrs["content"][i+4:])
			}
		}
	}
}

func external(u string) bool {
	u = strings.TrimSpace(strings.ToLower(u))
	return strings.HasPrefix(u, "//") || strings.Contains(u, "://") || strings.HasPrefix(u, "data:") && strings.Contains(u, "script")
}

func TestHTMLLoadsFindsExternalResources(t *testing.T) {
	page := []byte(`<html><head><link rel="stylesheet" href="https://cdn.example/x.css"><link rel="canonical" href="https://kb.example.org/"><script src="//cdn.example/x.js"></script><noscript><meta http-equiv="refresh" content="0; url=https://cdn.example/nojs"></noscript></head><body><img src="../a.png"></body></html>`)
	var ext []string
	for _, u := range htmlLoads(t, page) {
		if external(u) {
			ext = append(ext, u)
		}
	}
	if strings.Join(ext, " ") != "https://cdn.example/x.css //cdn.example/x.js https://cdn.example/nojs" {
		t.Errorf("external loads = %v", ext)
	}
}
