package build_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// Rendered pages are compared byte for byte with reviewed copies; run
// go test ./internal/build -run Golden -update after an intended change and
// read the diff like code.
func TestGolden(t *testing.T) {
	out := buildSite(t, "https://kb.example.org/")
	for _, page := range []string{
		"en/kb/cuda/peer-access-unsupported-by-hardware/index.html",
		"zh/kb/cuda/peer-access-unsupported-by-hardware/index.html",
		"en/articles/peer-to-peer-gpu-communication/index.html",
		"zh/articles/peer-to-peer-gpu-communication/index.html",
		"en/kb/nccl/p2p-transport-in-use/index.html",
		"zh/articles/nccl-transports-and-p2p-settings/index.html",
	} {
		got, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata/golden", filepath.Dir(page)+".html")
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from %s; run with -update and review the diff", page, golden)
		}
	}
}
