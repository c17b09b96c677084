package build_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/build"
)

// A failed build must leave the previous output exactly as it was.
func TestFailedBuildLeavesOutputUntouched(t *testing.T) {
	out := buildSite(t, "")
	marker := filepath.Join(out, "marker.txt")
	if err := os.WriteFile(marker, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)

	src := repoSources(t)
	src.KB.FS = os.DirFS("../kb/testdata/broken/rate-range")
	src.KB.Name = "kb"
	var log bytes.Buffer
	err := build.Build(src, out, "", &log)
	if err == nil {
		t.Fatal("build of a broken KB succeeded")
	}
	for _, want := range []string{"kb/cuda/peer-access-unsupported-by-hardware.json:66:7", "workarounds[1].success_rate"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if after := snapshot(t, out); after != before {
		t.Error("the failed build changed the output directory")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".public.new-*"))
	if len(leftovers) > 0 {
		t.Errorf("failed build left %v behind", leftovers)
	}

	// A good build replaces the output whole: the marker goes away.
	if err := build.Build(repoSources(t), out, "", &log); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Error("a successful build kept a file of the old output")
	}
}

// snapshot lists every file of dir with its contents' length and first bytes.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b.WriteString(p + "\x00" + string(data) + "\x00")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestLintReportsWarningsAndErrors(t *testing.T) {
	var out bytes.Buffer
	if err := build.Lint(repoSources(t), &out); err != nil {
		t.Fatalf("lint of the repository: %v", err)
	}
	if !strings.Contains(out.String(), "ok: ") {
		t.Errorf("lint output lacks its summary:\n%s", out.String())
	}

	src := repoSources(t)
	src.KB.FS = os.DirFS("../kb/testdata/broken/unknown-field")
	out.Reset()
	err := build.Lint(src, &out)
	if err == nil || !strings.Contains(err.Error(), "kb/cuda/peer-access-unsupported-by-hardware.json:8:3: priority: unknown field") {
		t.Errorf("lint of a KB with an unknown field: %v", err)
	}
}
