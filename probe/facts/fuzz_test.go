package facts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzRead reads arbitrary documents as probe reports. A document Read
// accepts encodes again to one it reads as the same report.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*.json")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("a report Read accepted does not encode: %v", err)
		}
		r2, err := Read(bytes.NewReader(again))
		if err != nil {
			t.Fatalf("a report Read accepted, encoded again, is refused: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(r, r2) {
			t.Fatalf("a report changed when encoded and read again:\n%+v\n%+v", r, r2)
		}
	})
}
