// Package buildtest builds the repository's own site for tests: those of
// the packages whose pages, scripts or server need a whole site to run in
// (build, search, server). It reads the sources from the checkout, not from
// the binary's embedded copy, so a test sees the files as edited.
package buildtest

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
)

// Root is the repository's folder.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Sources are the repository's kb/, content/, templates/ and assets/.
func Sources(t testing.TB) build.Sources {
	t.Helper()
	root := Root()
	schema, err := os.ReadFile(filepath.Join(root, "kb", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := func(d string) build.Source { return build.Source{FS: os.DirFS(filepath.Join(root, d)), Name: d} }
	return build.Sources{KB: dir("kb"), Content: dir("content"), I18n: dir("templates"), Assets: dir("assets"), Schema: schema}
}

// Site builds the repository's site into a fresh folder and returns it;
// baseURL is the build's --base-url.
func Site(t testing.TB, baseURL string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	if err := build.Build(Sources(t), out, baseURL, io.Discard); err != nil {
		t.Fatalf("build: %v", err)
	}
	return out
}
