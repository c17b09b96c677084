// Package p2pkb holds the site's default sources: the knowledge base, the
// articles, the templates and the assets, embedded so that the p2pkb binary
// alone can build, serve and search the default site.
package p2pkb

import (
	"embed"
	"io/fs"
)

//go:embed kb content templates/i18n.json assets
var files embed.FS

// Sources returns the embedded sources, one fs.FS per part, each rooted at
// its own folder (kb/, content/, templates/, assets/).
func Sources() (kb, content, templates, assets fs.FS) {
	sub := func(dir string) fs.FS {
		f, err := fs.Sub(files, dir)
		if err != nil {
			panic(err) // the folders are fixed at compile time
		}
		return f
	}
	return sub("kb"), sub("content"), sub("templates"), sub("assets")
}
