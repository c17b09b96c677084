package kb

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoad loads one arbitrary file as an entry beside the real schema and
// repro files. Whatever it holds, Load returns an error that names the file,
// or an entry that, encoded again and loaded, is the same entry.
func FuzzLoad(f *testing.F) {
	kbFS := addEntrySeeds(f)
	base := fstest.MapFS{}
	for _, name := range []string{SchemaFile} {
		b, err := fs.ReadFile(kbFS, name)
		if err != nil {
			f.Fatal(err)
		}
		base[name] = &fstest.MapFile{Data: b}
	}
	repro, _ := fs.Glob(kbFS, ReproDir+"/*")
	for _, name := range repro {
		b, _ := fs.ReadFile(kbFS, name)
		base[name] = &fstest.MapFile{Data: b}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name := entryPath(data)
		fsys := clone(base)
		fsys[name] = &fstest.MapFile{Data: data}
		k, err := Load(fsys)
		if err != nil {
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error does not name %s: %v", name, err)
			}
			return
		}
		if len(k.Entries) != 1 {
			t.Fatalf("one file gave %d entries", len(k.Entries))
		}
		e := k.Entries[0]
		again, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: again}
		k2, err := Load(fsys)
		if err != nil {
			t.Fatalf("an entry that loaded does not load once encoded again: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(e, k2.Entries[0]) {
			t.Fatalf("an entry changed when encoded and loaded again:\n%+v\n%+v", e, k2.Entries[0])
		}
	})
}

// entryPath puts a file where its id says, so that a valid entry can load.
func entryPath(data []byte) string {
	var head struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &head) == nil && fs.ValidPath(head.ID+".json") && strings.Count(head.ID, "/") >= 1 &&
		!strings.HasPrefix(head.ID, ReproDir+"/") && path.Ext(head.ID) == "" {
		return head.ID + ".json"
	}
	return "cuda/fuzzed.json"
}

func clone(m fstest.MapFS) fstest.MapFS {
	c := make(fstest.MapFS, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// addEntrySeeds seeds f with every entry of the repository's KB and every
// broken fixture, and returns the KB.
func addEntrySeeds(f *testing.F) fs.FS {
	kbFS := os.DirFS("../../kb")
	seeds, _ := fs.Glob(kbFS, "*/*.json")
	for _, s := range seeds {
		if b, err := fs.ReadFile(kbFS, s); err == nil {
			f.Add(b)
		}
	}
	broken, _ := fs.Glob(os.DirFS("testdata/broken"), "*/*/*.json")
	for _, s := range broken {
		if b, err := os.ReadFile("testdata/broken/" + s); err == nil {
			f.Add(b)
		}
	}
	return kbFS
}
