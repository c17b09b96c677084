package build_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
)

// repoSources are the repository's own kb/, content/, templates/ and assets/.
func repoSources(t testing.TB) build.Sources {
	t.Helper()
	schema, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := func(d string) build.Source { return build.Source{FS: os.DirFS(filepath.Join("../..", d)), Name: d} }
	return build.Sources{KB: dir("kb"), Content: dir("content"), Templates: dir("templates"), Assets: dir("assets"), Schema: schema}
}

// buildSite builds the repository's site into a fresh directory.
func buildSite(t testing.TB, baseURL string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	if err := build.Build(repoSources(t), out, baseURL, os.Stderr); err != nil {
		t.Fatalf("build: %v", err)
	}
	return out
}
