package bench

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/net/html"
)

// Budget is the most a page may weigh as PageWeight counts: 30 KB of HTML,
// CSS and JavaScript before compression.
const Budget = 30 << 10

// Weight is what a browser loads when it opens a page of a built site,
// before anyone touches it: the HTML and every stylesheet and script the
// page references, whatever their media (a browser fetches a print
// stylesheet too). The icon is not counted.
type Weight struct {
	Page  string         // path from the site root
	Bytes int            // everything, before compression
	Gzip  int            // everything, gzipped as one stream
	Files map[string]int // path from the site root -> bytes, the page included
}

// loads returns the stylesheets and scripts an HTML page references, in
// their order: what a browser fetches on opening it, the icon aside.
func loads(page []byte) []string {
	var refs []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return refs
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			attr := func(name string) string {
				for _, a := range tok.Attr {
					if a.Key == name {
						return a.Val
					}
				}
				return ""
			}
			switch {
			case tok.Data == "script" && attr("src") != "":
				refs = append(refs, attr("src"))
			case tok.Data == "link" && slices.Contains(strings.Fields(strings.ToLower(attr("rel"))), "stylesheet"):
				refs = append(refs, attr("href"))
			}
		}
	}
}

// PageWeight weighs page (a path from the root of the built site public).
func PageWeight(public, page string) (Weight, error) {
	w := Weight{Page: page, Files: map[string]int{}}
	var all bytes.Buffer
	add := func(p string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		if _, ok := w.Files[p]; !ok {
			w.Files[p] = len(b)
			w.Bytes += len(b)
			all.Write(b)
		}
		return b, nil
	}
	doc, err := add(page)
	if err != nil {
		return w, err
	}
	for _, ref := range loads(doc) {
		ref, _, _ = strings.Cut(ref, "?") // a version query names the same file
		if _, err := add(path.Join(path.Dir(page), ref)); err != nil {
			return w, err
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(all.Bytes())
	zw.Close()
	w.Gzip = gz.Len()
	return w, nil
}

// OnDemand is the weight of the Your machine panel's scripts and styles in
// a language, which pages load when the panel is opened (site.js).
func OnDemand(public, lang string) (int, error) {
	n := 0
	for _, p := range []string{"assets/machine." + lang + ".js", "assets/rules.table.js", "assets/rules.js", "assets/paste.table.js", "assets/paste.js", "assets/machine.js", "assets/machine.css"} {
		fi, err := os.Stat(filepath.Join(public, filepath.FromSlash(p)))
		if err != nil {
			return 0, err
		}
		n += int(fi.Size())
	}
	return n, nil
}

// Heaviest weighs the pages of a language of one kind and returns the
// heaviest: "entry" (the pages of KB entries), "catalog" (the catalogue's
// pages), "home" or "search".
func Heaviest(public, lang, kind string) (Weight, error) {
	switch kind {
	case "home":
		return PageWeight(public, lang+"/index.html")
	case "search":
		return PageWeight(public, lang+"/search/index.html")
	}
	// Catalogue pages are <lang>/kb/, <lang>/kb/<domain>/ and
	// <lang>/kb/<domain>/page/<n>/; an entry's id has two parts or more.
	catalog := func(rel string) bool {
		parts := strings.Split(rel, "/")
		return len(parts) == 1 || len(parts) == 3 && parts[1] == "page"
	}
	type file struct {
		p    string
		size int64
	}
	var files []file
	root := filepath.Join(public, lang, "kb")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "index.html" {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		if catalog(filepath.ToSlash(rel)) != (kind == "catalog") {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, file{lang + "/kb/" + filepath.ToSlash(rel) + "/index.html", fi.Size()})
		return nil
	})
	if err != nil || len(files) == 0 {
		return Weight{}, err
	}
	// The pages of a kind load the same assets: the largest HTML is the heaviest.
	sort.Slice(files, func(i, j int) bool {
		return files[i].size > files[j].size || files[i].size == files[j].size && files[i].p < files[j].p
	})
	w, err := PageWeight(public, strings.Replace(files[0].p, "/./", "/", 1))
	if err == nil && kind == "entry" {
		if b, _ := os.ReadFile(filepath.Join(public, filepath.FromSlash(w.Page))); !bytes.Contains(b, []byte(`<article class="entry"`)) {
			err = fmt.Errorf("%s: taken for an entry's page, but it is not one", w.Page)
		}
	}
	return w, err
}
