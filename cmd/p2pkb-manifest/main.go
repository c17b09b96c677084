// Command p2pkb-manifest prints, for each program harvested into the
// manifest (manifest/*.json), how many of its messages an entry covers,
// how many are out of scope and how many have no entry yet; it exits 1 when a
// message names an entry whose pattern does not match it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/p2pkb/p2pkb/internal/manifest"
)

func main() {
	kbDir := flag.String("kb", "kb", "the KB directory")
	dir := flag.String("manifest", "manifest", "the manifest directory")
	flag.Parse()
	if err := manifest.Audit(os.Stdout, os.DirFS(*kbDir), os.DirFS(*dir)); err != nil {
		fmt.Fprintln(os.Stderr, "p2pkb-manifest:", err)
		os.Exit(1)
	}
}
