package diagnose

import (
	"fmt"
	"io"

	"github.com/p2pkb/p2pkb/internal/search"
)

// Hit is one search result as `p2pkb search --json` prints it.
type Hit struct {
	ID    string  `json:"id"`
	Kind  string  `json:"kind"`
	Title string  `json:"title"`
	URL   string  `json:"url"`
	Score float64 `json:"score"`
	Gist  string  `json:"gist,omitempty"` // the root cause (an article's summary) in one line
	Best  string  `json:"best,omitempty"` // the best workaround in one line
}

// Search prints the ranked results of q.
func Search(w io.Writer, ix *search.Index, q string, o Options) (int, error) {
	if !o.JSON {
		w = escaping(w)
	}
	res, err := ix.Search(q, o.Lang, max(1, o.Limit))
	if err != nil {
		return 0, err
	}
	hits := make([]Hit, 0, len(res))
	for _, r := range res {
		hits = append(hits, Hit{ID: r.ID, Kind: r.Kind, Title: r.Title, URL: link(o.BaseURL, r.Path), Score: r.Score, Gist: r.Gist, Best: r.Best})
	}
	if o.JSON {
		return len(hits), writeJSON(w, hits)
	}
	for i, h := range hits {
		fmt.Fprintf(w, "%d. %s\n", i+1, o.paint(bold, h.Title))
		if h.Gist != "" {
			fmt.Fprintln(w, o.after("   ", h.Gist, 3))
		}
		if h.Best != "" {
			fmt.Fprintln(w, o.after("   "+text(o.Lang, "fix")+" ", h.Best, 3))
		}
		fmt.Fprintf(w, "   %s · %s\n", h.Kind, o.href(h.URL))
	}
	if len(hits) == 0 {
		fmt.Fprintln(w, text(o.Lang, "nothing"))
	}
	return len(hits), nil
}
