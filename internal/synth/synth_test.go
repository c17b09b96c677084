package synth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
)

// A synthetic KB must pass every check a real one does, and be the same for the same seed.
func TestSyntheticKBIsValidAndDeterministic(t *testing.T) {
	schema, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	if err := Write(a, 150, 7, schema); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, 150, 7, schema); err != nil {
		t.Fatal(err)
	}
	k, err := kb.Load(os.DirFS(filepath.Join(a, "kb")))
	if err != nil {
		t.Fatalf("synthetic KB does not load: %v", err)
	}
	if len(k.Entries) != 150 {
		t.Errorf("%d entries", len(k.Entries))
	}
	if _, err := content.Load(os.DirFS(filepath.Join(a, "content")), "content"); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(a, "kb/cuda/synthetic-00007.json"))
	y, _ := os.ReadFile(filepath.Join(b, "kb/cuda/synthetic-00007.json"))
	if len(x) == 0 || string(x) != string(y) {
		t.Error("the same seed must give the same KB")
	}
}
