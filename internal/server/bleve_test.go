package server_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/build/buildtest"
	"github.com/p2pkb/p2pkb/internal/search/searchtest"
	"github.com/p2pkb/p2pkb/internal/server"
)

// A built site is served from the postings the build wrote until bleve's
// index is made from them; the search API answers alike before and after,
// and the index is kept for the next start.
func TestSearchAnswersAlikeBeforeAndAfterBleve(t *testing.T) {
	out := buildtest.Site(t, "")
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(build.SearchIndexDir))); err == nil {
		t.Fatal("the build made bleve's index: it is off the build's critical path")
	}
	ix, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.InMemory() {
		t.Fatal("the built site's index is not answered from its postings")
	}
	h := server.New(os.DirFS(out), ix)
	srv := httptest.NewServer(h)
	defer srv.Close()
	var queries []string
	for _, c := range searchtest.Load(t).Queries {
		queries = append(queries, "/api/search?limit=50&lang="+c.Lang+"&q="+url.QueryEscape(c.Q))
	}
	before := map[string]string{}
	for _, q := range queries {
		_, before[q] = get(t, srv.URL+q)
	}

	bix, err := build.IndexBleve(context.Background(), out, ix)
	if err != nil {
		t.Fatal(err)
	}
	if bix.InMemory() {
		t.Fatal("after IndexBleve the site is still answered from memory")
	}
	h.SetIndex(bix)
	for _, q := range queries {
		if _, after := get(t, srv.URL+q); after != before[q] {
			t.Errorf("%s:\nfrom postings: %s\nfrom bleve:    %s", q, before[q], after)
		}
	}
	again, err := build.OpenSearch(out)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.InMemory() {
		t.Error("bleve's index was not kept for the next start")
	}
	if resp, _ := get(t, srv.URL+"/search/postings.en.bin"); resp.StatusCode != 404 {
		t.Errorf("the postings are served: %d", resp.StatusCode)
	}
}
