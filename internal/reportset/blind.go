package reportset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Blind is a set's figures as they were measured when it was collected,
// before anything was built from it. A later main answers the set better
// for having seen it, so these figures cannot be measured again: they are
// recorded, and their pool is the measure of how the KB meets reports it
// has not seen.
type Blind struct {
	Set   string `json:"set"`   // the set file, as Sets names it
	Among int    `json:"among"` // reports with an entry of the right family among the causes
	First int    `json:"first"` // reports whose first cause shown is of the right family
}

// Pool is the blind figures of several sets together.
type Pool struct {
	Sets, Reports, Among, First int
	From, To                    string
}

// LoadBlind reads the blind figures and checks each against its set: the
// set must exist, and no count may exceed what it bounds (first within
// among, among within the set's reports). Errors name the file and entry.
func LoadBlind(name string) ([]Blind, Pool, error) {
	var p Pool
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, p, err
	}
	var bs []Blind
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bs); err != nil {
		return nil, p, fmt.Errorf("%s: %w", name, jsonWhere(data, err))
	}
	seen := map[string]bool{}
	for i, b := range bs {
		at := fmt.Sprintf("%s: entry %d (%s)", name, i+1, b.Set)
		if seen[b.Set] {
			return nil, p, fmt.Errorf("%s: set: listed twice", at)
		}
		seen[b.Set] = true
		rs, err := LoadSet(os.DirFS(filepath.Dir(b.Set)), filepath.Base(b.Set))
		if err != nil {
			return nil, p, fmt.Errorf("%s: set: %w", at, err)
		}
		switch {
		case b.Among < 0 || b.Among > len(rs):
			return nil, p, fmt.Errorf("%s: among: %d, but the set has %d reports", at, b.Among, len(rs))
		case b.First < 0 || b.First > b.Among:
			return nil, p, fmt.Errorf("%s: first: %d, more than among (%d) or negative", at, b.First, b.Among)
		}
		if p.From == "" {
			p.From = b.Set
		}
		p.To = b.Set
		p.Sets++
		p.Reports += len(rs)
		p.Among += b.Among
		p.First += b.First
	}
	return bs, p, nil
}

// Meets says whether the pool meets the targets.
func (p Pool) Meets() bool {
	return p.Reports > 0 && float64(p.Among)/float64(p.Reports) >= TargetAmong && float64(p.First)/float64(p.Reports) >= TargetFirst
}

// Write prints the pool's figures.
func (p Pool) Write(w io.Writer, name string) {
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(p.Reports, 1)) }
	fmt.Fprintf(w, "blind, each set as measured when it was collected (%s): %d sets, %s to %s, %d reports\n", name, p.Sets, filepath.Base(p.From), filepath.Base(p.To), p.Reports)
	fmt.Fprintf(w, "  right family among the causes: %5d (%.1f%%)\n", p.Among, pct(p.Among))
	fmt.Fprintf(w, "  right family first:            %5d (%.1f%%)\n", p.First, pct(p.First))
}
