package render

import (
	"sort"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/site"
)

// CatalogPath is the path of a domain's first catalogue page in the page's
// language, or of the catalogue's first page when domain is "".
func (v *view) CatalogPath(domain string) string { return site.CatalogPath(v.code(), domain, 1) }

// PagerLink is one page of a domain's catalogue in the pager.
type PagerLink struct {
	N       int    // page number, from 1; 0 for a gap of pages left out
	Path    string // from the site root
	Current bool   // this page
}

// pagerReach is how many pages on each side of the current one the pager
// names, besides the first and the last: a domain of thousands of entries
// has a hundred pages, and links to all of them would outweigh the list.
const pagerReach = 2

// Pager lists the pages of this page's domain in the catalogue: the first,
// the last, and those near this one; nothing when the domain has one page.
func (v *view) Pager() []PagerLink {
	n, cur := v.Page.PageCount, v.Page.PageN
	if v.Page.Domain == nil || n < 2 {
		return nil
	}
	var out []PagerLink
	for i := 1; i <= n; i++ {
		if i != 1 && i != n && (i < cur-pagerReach || i > cur+pagerReach) {
			if out[len(out)-1].N != 0 {
				out = append(out, PagerLink{})
			}
			continue
		}
		out = append(out, PagerLink{N: i, Path: site.CatalogPath(v.code(), v.Page.Domain.Name, i), Current: i == cur})
	}
	return out
}

// homeArticles is how many articles the home page shows; the catalogue's
// first page lists them all.
const homeArticles = 8

// HomeArticles are the newest articles, at most homeArticles of them; the
// rest are on the catalogue's first page.
func (v *view) HomeArticles() []*content.Article {
	as := v.Articles()
	sort.SliceStable(as, func(i, j int) bool { return as[i].Date.After(as[j].Date) })
	return as[:min(len(as), homeArticles)]
}
