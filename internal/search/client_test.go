package search

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A term in many documents keeps only its best postings, with its true df.
func TestClientIndexCapsCommonTerms(t *testing.T) {
	var docs []Doc
	for i := 0; i < 300; i++ {
		sig := fmt.Sprintf("common failure number%d happened", i)
		docs = append(docs, Doc{ID: fmt.Sprint(i), Kind: "entry", Lang: "en", Title: sig, Path: "en/kb/x/", Sig: sig,
			Regex: NewPattern(regexp.QuoteMeta(sig))})
	}
	files := map[string]string{}
	if _, err := WriteClient(docs, func(name string, data []byte) error { files[name] = string(data); return nil }); err != nil {
		t.Fatal(err)
	}
	var meta struct{ Shards int }
	decode(t, files["search/en/meta.js"], &meta)
	var shard struct {
		P  map[string][]int
		DF map[string]int
		R  [][3]any
	}
	decode(t, files[fmt.Sprintf("search/en/t%d.js", Hash("common")%uint32(meta.Shards))], &shard)
	if n := len(shard.P["common"]) / 2; n != maxPostings || shard.DF["common"] != 300 {
		t.Errorf("common: %d postings, df %d; want %d and 300", n, shard.DF["common"], maxPostings)
	}
	// Every pattern is filed under a term its literal contains for sure.
	patterns := 0
	for name, f := range files {
		if strings.Contains(name, "/t") {
			var s struct{ R [][3]any }
			decode(t, f, &s)
			patterns += len(s.R)
		}
	}
	if patterns != 300 {
		t.Errorf("%d patterns filed, want 300", patterns)
	}
}

func decode(t *testing.T, js string, v any) {
	t.Helper()
	// p2pkbSearch.add("en","name",DATA);
	j := strings.LastIndex(js, ");")
	if !strings.HasPrefix(js, "p2pkbSearch.add(") || j < 0 {
		t.Fatalf("not an index file: %.80s", js)
	}
	parts := strings.SplitN(js[:j], ",", 3)
	if err := json.Unmarshal([]byte(parts[2]), v); err != nil {
		t.Fatalf("%v in %.80s", err, js)
	}
}

// smallest finds the k smallest of distinct keys, whatever their order.
func TestSmallest(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 129, 1000} {
		for _, k := range []int{1, n / 2, n} {
			if k < 1 {
				continue
			}
			for seed := range 5 {
				keys := make([]uint64, n)
				for i := range keys {
					keys[i] = uint64((i*7919 + seed*104729) % 1000003)
				}
				switch seed {
				case 1:
					slices.Sort(keys)
				case 2:
					slices.Sort(keys)
					slices.Reverse(keys)
				}
				want := slices.Clone(keys)
				slices.Sort(want)
				got := slices.Clone(smallest(keys, k))
				slices.Sort(got)
				if !slices.Equal(got, want[:k]) {
					t.Fatalf("n %d, k %d, seed %d: %v, want %v", n, k, seed, got, want[:k])
				}
			}
		}
	}
}
