package reportset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	p2pkb "github.com/p2pkb/p2pkb"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

// The targets the sets found by topic are held to.
const (
	TargetAmong = 0.85 // an entry of the right family among the causes
	TargetFirst = 0.80 // the first cause shown of the right family
)

// Config is what Run reads.
type Config struct {
	KB, Content string   // the sources explain uses
	Families    string   // the family of every entry
	Sets        []string // set files, each measured apart
	Lines       string   // which of Sets is in the older key-lines form
	Check       bool     // fail when a set other than Lines, or the blind pool, misses a target
	Blind       string   // the sets' figures as measured when each was collected; "" for none
	// AllowUnmapped measures with entries that have no family (they never
	// count as right) instead of refusing to: for trying another KB.
	AllowUnmapped bool
}

// Site loads the KB and the articles as `p2pkb explain --kb DIR --content
// DIR` does.
func Site(kbDir, contentDir string) (*site.Site, error) {
	kbFS, _, _, _ := p2pkb.Sources()
	schema, err := fs.ReadFile(kbFS, kb.SchemaFile)
	if err != nil {
		return nil, err
	}
	return build.Catalog(build.Sources{
		KB:      build.Source{FS: os.DirFS(kbDir), Name: kbDir},
		Content: build.Source{FS: os.DirFS(contentDir), Name: contentDir},
		Schema:  schema,
	})
}

// Run measures every set and prints the figures.
func Run(w io.Writer, c Config) error {
	s, err := Site(c.KB, c.Content)
	if err != nil {
		return err
	}
	fams, err := LoadFamilies(os.DirFS(filepath.Dir(c.Families)), filepath.Base(c.Families))
	if err != nil {
		return err
	}
	if un := fams.Unmapped(s); len(un) > 0 {
		if !c.AllowUnmapped {
			return fmt.Errorf("%s: entries without a family: %v (add them to entries)", c.Families, un)
		}
		fmt.Fprintf(w, "entries without a family (never counted as right): %v\n\n", un)
	}
	failed := false
	for i, name := range c.Sets {
		if i > 0 {
			fmt.Fprintln(w)
		}
		dir, base := os.DirFS(filepath.Dir(name)), filepath.Base(name)
		var rs []Report
		if name == c.Lines {
			rs, err = LoadLines(dir, base)
		} else {
			rs, err = LoadSet(dir, base)
		}
		if errors.Is(err, fs.ErrNotExist) && name != c.Lines {
			// A set not collected yet is said, not an error: the
			// validation set comes after the entries it measures.
			fmt.Fprintf(w, "%s: not collected yet\n", name)
			continue
		}
		if err != nil {
			return err
		}
		sc, err := Measure(s, fams, name, rs)
		if err != nil {
			return err
		}
		sc.Write(w, fams)
		if name != c.Lines && !sc.Meets() {
			failed = true
		}
	}
	if c.Blind != "" {
		_, pool, err := LoadBlind(c.Blind)
		if err != nil {
			return err
		}
		fmt.Fprintln(w)
		pool.Write(w, c.Blind)
		if !pool.Meets() {
			failed = true
		}
	}
	if c.Check && failed {
		return fmt.Errorf("a set or the blind pool misses the targets (%.0f%% among the causes, %.0f%% first, none contradicted)", 100*TargetAmong, 100*TargetFirst)
	}
	return nil
}

// Meets says whether the set meets the targets.
func (sc Score) Meets() bool {
	return sc.Share(sc.RightAmong) >= TargetAmong && sc.Share(sc.RightFirst) >= TargetFirst && sc.Contradicts == 0
}
