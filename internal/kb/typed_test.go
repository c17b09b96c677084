package kb

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// withGeneric makes Load check every file with the generic validator.
func withGeneric() Option { return func(o *options) { o.generic = true } }

// The typed checks state kb/schema.json in Go: when the file changes, they
// must change with it, and the hash with them.
func TestTypedChecksStateTheSchema(t *testing.T) {
	sum := sha256.Sum256(schema(t))
	if got := hex.EncodeToString(sum[:]); got != builtinSchemaSHA256 {
		t.Fatalf("kb/schema.json has changed (SHA-256 %s): change the typed checks in typed.go to say what it says, then builtinSchemaSHA256", got)
	}
}

// where lists the problems of a load as file:line:col field, in order, or
// "ok" with the entries.
func where(t *testing.T, k *KB, err error) []string {
	t.Helper()
	if err == nil {
		out := []string{"ok"}
		for _, e := range k.Entries {
			out = append(out, e.ID)
		}
		return out
	}
	var ps Problems
	if !errors.As(err, &ps) {
		return []string{"error: " + err.Error()}
	}
	var out []string
	for _, p := range ps {
		p = p.Placed()
		out = append(out, p.File+":"+strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Col)+" "+p.Field)
	}
	slices.Sort(out)
	return out
}

// agree loads fsys both ways and fails the test where they differ: in what
// they refuse, where they place it, and in the entries they accept.
func agree(t *testing.T, fsys fs.FS, opts ...Option) (typedErr error) {
	t.Helper()
	k1, err1 := Load(fsys, opts...)
	k2, err2 := Load(fsys, append(opts, withGeneric())...)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("typed and generic checks disagree:\ntyped:   %v\ngeneric: %v", err1, err2)
	}
	if err1 == nil {
		if !reflect.DeepEqual(k1.Entries, k2.Entries) {
			t.Fatalf("typed and generic checks decode differently")
		}
		if len(k1.Warnings) != len(k2.Warnings) {
			t.Fatalf("typed and generic checks warn differently: %v\n%v", k1.Warnings, k2.Warnings)
		}
	}
	return err1
}

// Every broken fixture is refused alike by the typed checks and the generic
// validator, at the same line, column and field; every good KB is accepted
// alike, decoded to the same entries.
func TestTypedAgreesWithGeneric(t *testing.T) {
	dirs, err := filepath.Glob("testdata/broken/*")
	if err != nil || len(dirs) == 0 {
		t.Fatal("no broken fixtures", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			fsys := os.DirFS(dir)
			k1, typed := Load(fsys, WithDefaultSchema(schema(t)))
			k2, generic := Load(fsys, WithDefaultSchema(schema(t)), withGeneric())
			if a, b := where(t, k1, typed), where(t, k2, generic); !slices.Equal(a, b) {
				t.Errorf("typed and generic place problems differently:\ntyped:   %v\n%v\ngeneric: %v\n%v", a, typed, b, generic)
			}
			t.Logf("typed:   %v\ngeneric: %v", typed, generic)
			if err := agree(t, fsys, WithDefaultSchema(schema(t))); err == nil {
				t.Fatal("a broken fixture loaded")
			}
			// The typed checks decide every fixture but broken JSON themselves.
			files, _ := fs.Glob(fsys, "*/*.json")
			for _, f := range files {
				data, _ := fs.ReadFile(fsys, f)
				_, err := decodeTyped(data, &Entry{})
				if decided := err == nil; decided != (filepath.Base(dir) != "syntax") {
					t.Errorf("%s: the typed checks decided it: %v", f, decided)
				}
			}
		})
	}
	for _, dir := range []string{"../../kb", "testdata/untranslated"} {
		t.Run(dir, func(t *testing.T) {
			if err := agree(t, os.DirFS(dir), WithDefaultSchema(schema(t))); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Edits of a real entry at the edges of the schema: both ways agree on each.
func TestTypedAgreesOnEdges(t *testing.T) {
	const id = "cuda/peer-access-unsupported-by-hardware"
	orig, err := os.ReadFile("../../kb/" + id + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var base map[string]json.RawMessage
	if err := json.Unmarshal(orig, &base); err != nil {
		t.Fatal(err)
	}
	// A field set to a raw JSON value, and whether the typed checks decide it.
	edits := []struct {
		field, value string
		typed        bool
	}{
		{"evidence_count", `1.0`, true},
		{"evidence_count", `1e2`, true},
		{"evidence_count", `-0`, true},
		{"evidence_count", `99999999999999999999`, true},
		{"evidence_count", `-1`, true},
		{"confidence", `1.0000000000000000001`, true},
		{"confidence", `1e-400`, true},
		{"confidence", `-1e-400`, true},
		{"confidence", `-0`, true},
		{"confidence", `1e400`, true},
		{"confidence", `1`, true},
		{"ID", `"cuda/x"`, true},
		{"subcategory", `null`, true},
		{"official_doc_url", `3`, true},
		{"official_doc_url", `null`, true},
		{"severity", `null`, true},
		{"severity", `"note"`, true},
		{"tags", `[1]`, true},
		{"aliases", `[""]`, true},
		{"aliases", `{}`, true},
		{"os_specific", `{"linux": "TODO", "a": 1}`, true},
		{"os_specific", `{"linux": "x"}`, true},
		{"root_cause", `"TODO later"`, true},
		{"root_cause", `"\u00e9"`, true},
		{"transition_graph", `{"x": []}`, true},
		{"transition_graph", `{"leads_to": null}`, true},
		{"versions", `[{"version": "cuda>=12", "status": "gone"}]`, true},
		{"versions", `[{"version": "", "removed": null}]`, true},
		{"workarounds", `[{"how": "x"}]`, true},
		{"workarounds", `[{"action": "x", "sources": ["ftp://x"]}]`, true},
		{"dead_ends", `[{"why_fails": "x", "fail_rate": 2}]`, true},
		{"reproducer", `{"program": "repro/x", "output": "repro/y", "machine": "m", "date": "2024-02-30"}`, true},
		{"signature_source", `{"kind": "report", "url": "https://x", "extra": 1}`, true},
		{"fix_success_rate_basis", `{"estimate": 1}`, true},
		{"fix_success_rate_basis", `{"reports": 1, "of": 0}`, true},
		{"fix_success_rate_basis", `{"reports": -1, "of": 2.5, "sources": ["x"]}`, true},
		{"fix_success_rate_basis", `{"estimate": true, "counted": 1}`, true},
		{"workarounds", `[{"action": "x", "success_rate_basis": {"of": 0}}]`, true},
		{"dead_ends", `[{"why_fails": "x", "fail_rate_basis": []}]`, true},
		{"former_codes", `["a b"]`, true},
		{"former_signatures", `[{"signature": ""}]`, true},
		{"former_signatures", `[{"signature": "x", "note": "y", "note_zh": 1}]`, true},
		{"signature_source", `{"kind": "source", "url": "https://x", "line": ""}`, true},
		{"signature_source", `{"kind": "report", "url": "https://x", "excerpt": 3}`, true},
		{"signature", `"\ud800"`, false},
	}
	for _, ed := range edits {
		t.Run(ed.field+"="+ed.value, func(t *testing.T) {
			m := maps.Clone(base)
			m[ed.field] = json.RawMessage(ed.value)
			data, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			agree(t, entryFS(t, id, data))
			if _, err := decodeTyped(data, &Entry{}); (err == nil) != ed.typed {
				t.Errorf("the typed checks decided it: %v, want %v", err == nil, ed.typed)
			}
		})
	}
	// What the typed checks leave to the generic path.
	for _, data := range []string{
		strings.Replace(string(orig), `"id": `, `"id": "cuda/x", "id": `, 1), // a name twice
		strings.Replace(string(orig), `"id": `, `"\u0069d": "cuda/x", "id": `, 1),
		strings.Replace(string(orig), `"os_specific": {}`, `"os_specific": {"linux": "a", "li\u006eux": "b"}`, 1), // names twice inside
		strings.Replace(string(orig), `"id": `, `"priority": {"a": [{"b": 1, "b": 2}]}, "id": `, 1),
		strings.Replace(string(orig), `"evidence_count": 1`, `"evidence_count": {"a": 1, "a": 1}`, 1),
		strings.Replace(string(orig), `"severity": "error"`, `"severity": [{"x": 1, "x": 2}]`, 1),
		strings.Replace(string(orig), `"versions": [`, `"versions": [{"version": "a", "version": "b"}, `, 1),
		strings.Replace(string(orig), `"signature": "`, "\"signature\": \"\xff", 1),
		string(orig) + "\n{}",
		string(orig) + "]",
		string(orig[:len(orig)/2]),
	} {
		agree(t, entryFS(t, id, []byte(data)))
		if _, err := decodeTyped([]byte(data), &Entry{}); err == nil {
			t.Errorf("the typed checks decided %q...", data[:min(len(data), 40)])
		}
	}
	agree(t, entryFS(t, id, append(orig, " \n"...)))
}

// entryFS is the repository's schema and reproducers with one entry.
func entryFS(t testing.TB, id string, data []byte) fstest.MapFS {
	kbFS := os.DirFS("../../kb")
	m := fstest.MapFS{}
	names, _ := fs.Glob(kbFS, ReproDir+"/*")
	for _, n := range append(names, SchemaFile) {
		b, err := fs.ReadFile(kbFS, n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	m[id+".json"] = &fstest.MapFile{Data: data}
	return m
}

// FuzzTypedAgreesWithGeneric: whatever an entry holds, the typed checks
// and the generic validator accept it alike, and decode it alike.
func FuzzTypedAgreesWithGeneric(f *testing.F) {
	addEntrySeeds(f)
	// The schema is compiled once: compiling it for every input was most of
	// the time of one.
	sch, err := os.ReadFile("../../kb/schema.json")
	if err != nil {
		f.Fatal(err)
	}
	generic, err := compileSchema(sch)
	if err != nil {
		f.Fatal(err)
	}
	compiled := func() (*jsonschema.Schema, error) { return generic, nil }
	f.Fuzz(func(t *testing.T, data []byte) {
		name := entryPath(data)
		fsys := fstest.MapFS{name: &fstest.MapFile{Data: data}}
		typed := &loader{name: "kb", typed: true, schema: compiled, fsys: fsys}
		e1 := typed.file(name, data)
		gen := &loader{name: "kb", schema: compiled, fsys: fsys}
		e2 := gen.file(name, data)
		if (e1 == nil) != (e2 == nil) || (len(typed.problems) == 0) != (len(gen.problems) == 0) {
			t.Fatalf("typed and generic checks disagree:\ntyped:   %v\ngeneric: %v", typed.problems, gen.problems)
		}
		if !reflect.DeepEqual(e1, e2) || len(typed.warnings) != len(gen.warnings) {
			t.Fatalf("typed and generic checks decode differently:\n%+v\n%+v", e1, e2)
		}
	})
}

// Each schema pattern's function decides as its regexp does: on every
// string of up to four pieces from pieces that its pattern tells apart,
// and on each piece after each prefix the patterns begin with.
func TestSchemaPatternsAgree(t *testing.T) {
	pieces := []string{"", "a", "z", "A", "Z", "0", "9", ".", "_", "-", ":", "/", " ", "\t", "\n", "\v", "\f", "\r", "é", "\xff", "@", "repro/", "http://", "https://", "http:/"}
	var all []string
	var grow func(s string, n int)
	grow = func(s string, n int) {
		all = append(all, s)
		if n == 0 {
			return
		}
		for _, p := range pieces[1:] {
			grow(s+p, n-1)
		}
	}
	grow("", 4)
	for _, p := range []schemaPattern{idPattern, namePattern, errorCodePattern, urlPattern, reproFilePattern} {
		for _, s := range all {
			if got, want := p.match(s), p.re.MatchString(s); got != want {
				t.Errorf("%s on %q: %v, want %v", p.re, s, got, want)
			}
		}
	}
}
