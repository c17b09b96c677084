package build_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/search"
)

// newSession builds the repository's KB, copied into work/kb, into
// work/public, and hands the search indexes of its updates to the channel.
func newSession(t *testing.T) (sess *build.Session, work, out string, indexes chan *search.Index) {
	t.Helper()
	work = t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "kb"), os.DirFS("../../kb")); err != nil {
		t.Fatal(err)
	}
	src := repoSources(t)
	src.KB.FS = os.DirFS(filepath.Join(work, "kb"))
	out = filepath.Join(work, "public")
	sess = build.NewSession(src, out, "", io.Discard)
	indexes = make(chan *search.Index, 4)
	sess.IndexReady = func(ix *search.Index) { indexes <- ix }
	if err := sess.Build(); err != nil {
		t.Fatal(err)
	}
	return sess, work, out, indexes
}

// An edit of one entry rewrites the pages that show it and no others, and
// the search index follows; an edit that changes what other pages show is a
// full build.
func TestSessionUpdatesEntryPagesInPlace(t *testing.T) {
	sess, work, out, indexes := newSession(t)
	mtime := func(name string) time.Time {
		st, err := os.Stat(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return st.ModTime()
	}
	const id = "cuda/peer-access-unsupported-by-hardware"
	unrelated := "en/kb/nccl/duplicate-gpu-detected/index.html"
	before := mtime(unrelated)
	time.Sleep(10 * time.Millisecond) // a rewrite would show in the modification time

	file := filepath.Join(work, "kb", filepath.FromSlash(id)+".json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"root_cause": "The two GPUs`, `"root_cause": "Zyzzyva: the two GPUs`, 1)
	if edited == string(data) {
		t.Fatal("no root cause to edit")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	inPlace, err := sess.Update(true)
	if err != nil || !inPlace {
		t.Fatalf("Update = %v, %v; want an update in place", inPlace, err)
	}
	page, err := os.ReadFile(filepath.Join(out, "en/kb", filepath.FromSlash(id), "index.html"))
	if err != nil || !strings.Contains(string(page), "Zyzzyva") {
		t.Errorf("the entry page does not show the edit (%v)", err)
	}
	if !mtime(unrelated).Equal(before) {
		t.Errorf("%s was rewritten for an edit of another entry", unrelated)
	}
	// finds waits for the next index and checks that word finds the entry.
	finds := func(word, when string) {
		t.Helper()
		select {
		case ix := <-indexes:
			rs, err := ix.Search(word, "en", 5)
			if err != nil || len(rs) == 0 || rs[0].ID != id {
				t.Errorf("%s: the index finds %v (%v) for %q, want %s first", when, rs, err, word, id)
			}
			ix.Close()
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no search index", when)
		}
	}
	finds("zyzzyva", "after an edit")
	if js, err := os.ReadFile(filepath.Join(out, "search/en/meta.js")); err != nil || len(js) == 0 {
		t.Errorf("client index missing after the update: %v", err)
	}

	// Two quick edits: the index of the first is stale before it is done,
	// and only the second's arrives.
	for _, word := range []string{"Quokka", "Axolotl"} {
		edited = strings.Replace(edited, `"root_cause": "`, `"root_cause": "`+word+` `, 1)
		if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := sess.Update(true); err != nil {
			t.Fatal(err)
		}
	}
	finds("axolotl", "the first index after two edits")
	select {
	case ix := <-indexes:
		t.Error("a stale index arrived after the newer one")
		ix.Close()
	case <-time.After(500 * time.Millisecond):
	}

	// A broken edit right after a good one fails, and the good one's index
	// still arrives: it is the index of the pages being served.
	edited = strings.Replace(edited, `"root_cause": "`, `"root_cause": "Pangolin `, 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Update(true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(edited, `"confidence": `, `"confidence": "x`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Update(true); err == nil {
		t.Fatal("a broken edit updated the site")
	}
	finds("pangolin", "after a good and a broken edit")
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	// A new error code changes the /e/ pages: a full build.
	recoded := strings.Replace(edited, `"error_code": "cudaErrorPeerAccessUnsupported"`, `"error_code": "cudaErrorPeerAccessNotEnabled"`, 1)
	if err := os.WriteFile(file, []byte(recoded), 0o644); err != nil {
		t.Fatal(err)
	}
	if inPlace, err := sess.Update(true); err != nil || inPlace {
		t.Fatalf("Update = %v, %v; want a full build", inPlace, err)
	}
	if !mtime(unrelated).After(before) {
		t.Error("the full build did not rewrite the site")
	}
}

// Close stops the index an update left building, and once it returns
// nothing writes to the output: serve --watch removes it then.
func TestSessionCloseWaitsForTheIndex(t *testing.T) {
	sess, work, out, ready := newSession(t)
	file := filepath.Join(work, "kb", "cuda", "peer-access-unsupported-by-hardware.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), `"root_cause": "The two GPUs`, `"root_cause": "Edited: the two GPUs`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if inPlace, err := sess.Update(true); err != nil || !inPlace {
		t.Fatalf("Update = %v, %v; want an update in place", inPlace, err)
	}
	sess.Close()
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // an index still running would write within this
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output came back after Close: %v", err)
	}
	select {
	case ix := <-ready:
		ix.Close()
		t.Error("an index stopped by Close was handed over")
	default:
	}
}

// An edit of what the catalogue lists of an entry (its confidence) rewrites
// the catalogue's page of its domain in place.
func TestSessionUpdatesTheCatalogue(t *testing.T) {
	sess, work, out, _ := newSession(t)
	defer sess.Close()
	file := filepath.Join(work, "kb", "cuda", "peer-access-unsupported-by-hardware.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"confidence": 0.84`, `"confidence": 0.17`, 1)
	if edited == string(data) {
		t.Fatal("no confidence to edit")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if inPlace, err := sess.Update(true); err != nil || !inPlace {
		t.Fatalf("Update = %v, %v; want an update in place", inPlace, err)
	}
	// The entry may sit on any page of the domain's catalogue.
	for _, lang := range []string{"en", "zh"} {
		pages, err := filepath.Glob(filepath.Join(out, lang, "kb", "cuda", "page", "*", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, filepath.Join(out, lang, "kb", "cuda", "index.html"))
		shown := false
		for _, p := range pages {
			page, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			shown = shown || strings.Contains(string(page), "peer-access-unsupported-by-hardware/") && strings.Contains(string(page), " 17%")
		}
		if !shown {
			t.Errorf("%s: no page of the cuda catalogue shows the entry with its new confidence", lang)
		}
	}
}
