// Command p2pkb-reports runs `p2pkb explain` on every real report of the
// sets in reports/ and prints, per set, how often an entry of the right
// family is among the causes and is the first cause shown, the reports
// answered by an entry they contradict, and the misses; then the blind
// figures of reports/blind.json, pooled.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/p2pkb/p2pkb/internal/reportset"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "p2pkb-reports:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("p2pkb-reports", flag.ContinueOnError)
	fl.SetOutput(stderr)
	kbDir := fl.String("kb", "kb", "knowledge-base `DIR`")
	contentDir := fl.String("content", "content", "articles `DIR`")
	families := fl.String("families", "reports/families.json", "the family of every entry (`FILE`)")
	sets := fl.String("sets", strings.Join(reportset.Sets, ","), "report sets, comma-separated `FILES`")
	lines := fl.String("lines", "internal/search/testdata/audit.json", "a set of key lines found by searching for known strings (`FILE`); empty for none")
	blind := fl.String("blind", "reports/blind.json", "each set's figures as measured when it was collected, before anything was built from it (`FILE`), printed pooled; empty for none")
	check := fl.Bool("check", false, "exit 1 when a set misses the targets (85% among the causes, 80% first, none contradicted)")
	allowUnmapped := fl.Bool("allow-unmapped", false, "measure even when some entries have no family in --families (they never count as right)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var files []string
	for _, f := range strings.Split(*sets, ",") {
		if f = strings.TrimSpace(f); f != "" {
			files = append(files, f)
		}
	}
	if *lines != "" {
		files = append(files, *lines)
	}
	return reportset.Run(stdout, reportset.Config{KB: *kbDir, Content: *contentDir, Families: *families, Sets: files, Lines: *lines, Check: *check, Blind: *blind, AllowUnmapped: *allowUnmapped})
}
