package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/blevesearch/bleve/v2"
)

// DocsFile lists the documents beside a built bleve index, so that a server
// can answer from a built site alone.
const DocsFile = "docs.json"

type storedDoc struct {
	ID, Kind, Lang, Title, Code, Path, Regex string
}

// WriteDocs writes the document table for Open.
func WriteDocs(docs []Doc, emit func(name string, data []byte) error, name string) error {
	rows := make([]storedDoc, len(docs))
	for i, d := range docs {
		rows[i] = storedDoc{ID: d.ID, Kind: d.Kind, Lang: d.Lang, Title: d.Title, Code: d.Code, Path: d.Path}
		if d.Regex != nil {
			rows[i].Regex = d.Regex.String()
		}
	}
	data, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return emit(name, data)
}

// Open opens a built index read-only: bleveDir and the docs.json beside it.
func Open(bleveDir, docsPath string) (*Index, error) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	var rows []storedDoc
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("search index %s: %w", docsPath, err)
	}
	bi, err := bleve.OpenUsing(filepath.Clean(bleveDir), map[string]any{"read_only": true})
	if err != nil {
		return nil, fmt.Errorf("search index %s: %w", bleveDir, err)
	}
	ix := &Index{bleve: bi, docs: map[string]Doc{}, byLang: map[string][]Doc{}}
	for _, r := range rows {
		d := Doc{ID: r.ID, Kind: r.Kind, Lang: r.Lang, Title: r.Title, Code: r.Code, Path: r.Path}
		if r.Regex != "" {
			if d.Regex, err = regexp.Compile(r.Regex); err != nil {
				bi.Close()
				return nil, fmt.Errorf("search index %s: %s: %w", docsPath, r.ID, err)
			}
		}
		ix.docs[d.Key()] = d
		ix.byLang[d.Lang] = append(ix.byLang[d.Lang], d)
	}
	return ix, nil
}
