package search

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/blevesearch/bleve/v2"
)

// DocsFile lists the documents beside a built bleve index, so that a server
// can answer from a built site alone.
const DocsFile = "docs.json"

type storedDoc struct {
	ID, Kind, Lang, Title, Code, Path, Regex string
	Gist, Best                               string   `json:",omitempty"`
	Confidence                               float64  `json:",omitempty"`
	Reports                                  int      `json:",omitempty"`
	Generic                                  bool     `json:",omitempty"`
	Shape                                    bool     `json:",omitempty"`
	ProgramSide                              bool     `json:",omitempty"`
	APIs                                     []string `json:",omitempty"`
	Versions                                 []string `json:",omitempty"`
	AppliesWhen                              string   `json:",omitempty"`
}

type storedIndex struct {
	Avg  map[string][]float64 // lang -> average field lengths
	Docs []storedDoc
}

// WriteDocs writes the document table for Open.
func (c *Corpus) WriteDocs(emit func(name string, data []byte) error, name string) error {
	docs := c.docs
	for _, lang := range c.langs {
		if c.avg[lang] == nil {
			if _, err := c.analyze(lang); err != nil {
				return err
			}
		}
	}
	st := storedIndex{Avg: c.avg}
	rows := make([]storedDoc, len(docs))
	for i, d := range docs {
		d.snippets() // made by the analysis, unless the caller's documents
		rows[i] = storedDoc{ID: d.ID, Kind: d.Kind, Lang: d.Lang, Title: d.Title, Code: d.Code, Path: d.Path, Gist: d.Gist, Best: d.Best, Confidence: d.Confidence, Reports: d.Reports, Generic: d.Generic, Shape: d.Shape, ProgramSide: d.ProgramSide, APIs: d.APIs, Versions: d.Versions, AppliesWhen: d.AppliesWhen}
		if d.Regex != nil {
			rows[i].Regex = d.Regex.String()
		}
	}
	st.Docs = rows
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return emit(name, data)
}

// Open opens a built index read-only: the document table at docsPath, and
// each language's bleve index in bleveDir or, where there is none yet, its
// postings beside the table (see BuildBleve).
func Open(bleveDir, docsPath string) (*Index, error) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	var st storedIndex
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("search index %s: %w", docsPath, err)
	}
	ix := &Index{bleve: map[string]bleve.Index{}, mem: map[string]*memIndex{}, docs: map[string]Doc{}, byLang: map[string][]Doc{}, avg: st.Avg}
	patterns := map[string]*Pattern{} // one per entry, shared by its languages
	for _, r := range st.Docs {
		d := Doc{ID: r.ID, Kind: r.Kind, Lang: r.Lang, Title: r.Title, Code: r.Code, Path: r.Path, Gist: r.Gist, Best: r.Best, Confidence: r.Confidence, Reports: r.Reports, Generic: r.Generic, Shape: r.Shape, ProgramSide: r.ProgramSide, APIs: r.APIs, Versions: r.Versions, AppliesWhen: r.AppliesWhen}
		if r.Regex != "" {
			if patterns[r.Regex] == nil {
				p := NewPattern(r.Regex)
				if p.Regexp() == nil {
					return nil, fmt.Errorf("search index %s: %s: %w", docsPath, r.ID, p.err)
				}
				patterns[r.Regex] = p
			}
			d.Regex = patterns[r.Regex]
		}
		ix.docs[d.Key()] = d
		ix.byLang[d.Lang] = append(ix.byLang[d.Lang], d)
	}
	ix.finish()
	for lang := range ix.byLang {
		if err := ix.openLang(lang, bleveDir, docsPath); err != nil {
			ix.Close()
			return nil, err
		}
	}
	return ix, nil
}
