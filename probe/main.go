// Command p2p-probe prints, as JSON, every fact of a GPU node that decides
// which peer-to-peer fix applies to it: driver and CUDA versions, the GPUs,
// NVML's P2P status and topology of every pair, NVLink, and the software
// around them. Its default output names no machine and no person.
//
// Exit status: 0 when NVML answered, 2 when NVML is not there (the JSON says
// why, and so does stderr), 1 for anything else.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/p2pkb/p2pkb/probe/collect"
	"github.com/p2pkb/p2pkb/probe/cuda"
	"github.com/p2pkb/p2pkb/probe/facts"
	_ "github.com/p2pkb/p2pkb/probe/glibc"
	"github.com/p2pkb/p2pkb/probe/metrics"
	"github.com/p2pkb/p2pkb/probe/p2pcheck"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func main() {
	// The test re-executes the probe for work that may hang or crash.
	if role := os.Getenv(p2pcheck.RoleEnv); role != "" {
		os.Exit(p2pcheck.Child(role, openCUDA, os.Stdin, os.Stdout))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, nvml.New()))
}

func openCUDA() (p2pcheck.Driver, error) {
	lib, err := cuda.Open()
	if err != nil {
		return nil, err
	}
	return lib, nil
}

func run(args []string, stdout, stderr io.Writer, lib nvml.Interface) (code int) {
	fl := flag.NewFlagSet("p2p-probe", flag.ContinueOnError)
	fl.SetOutput(stderr)
	pretty := fl.Bool("pretty", false, "indent the JSON")
	includeIDs := fl.Bool("include-ids", false, "include GPU UUIDs (they identify the machine)")
	test := fl.Bool("test", false, "move data between every pair of GPUs through the CUDA driver, check and time it (takes seconds; uses the GPUs)")
	testSize := fl.String("test-size", "64MiB", "bytes per copy of --test, with an optional KiB, MiB or GiB")
	testTimeout := fl.Duration("test-timeout", p2pcheck.DefaultTimeout, "deadline of each GPU pair in --test; a pair past it is killed and reported as a timeout")
	testJobs := fl.Int("test-jobs", 0, "pairs of GPUs --test runs at the same time, each in its own worker process (1: one pair after another); half the GPUs when 0")
	link := fl.String("link", "", "print a link to the knowledge base at `BASEURL` that carries the facts in its #fragment, which never reaches the server")
	format := fl.String("format", "json", "output `FORMAT`: json, or prometheus for node_exporter's textfile collector")
	showVersion := fl.Bool("version", false, "print the version and exit")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: p2p-probe [--pretty] [--include-ids] [--format json|prometheus] [--link BASEURL] [--test [--test-size SIZE] [--test-timeout D] [--test-jobs N]]")
		fl.PrintDefaults()
		fmt.Fprintln(stderr, `
exit status:
  0  NVML answered (a --test that found broken pairs says so in its output, not here)
  1  anything else: NVML failed in another way (a driver and library that disagree), bad flags, output that could not be written
  2  no NVIDIA driver: libnvidia-ml.so.1 is missing or the driver is not loaded; the output says which`)
	}
	if err := fl.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 1
	}
	if *showVersion {
		fmt.Fprintln(stdout, "p2p-probe", buildVersion())
		return 0
	}
	if *format != "json" && *format != "prometheus" {
		fmt.Fprintf(stderr, "p2p-probe: --format: %q is neither json nor prometheus\n", *format)
		return 1
	}
	size, err := parseSize(*testSize)
	if err != nil {
		fmt.Fprintf(stderr, "p2p-probe: --test-size: %v\n", err)
		return 1
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "p2p-probe: internal error: %v\n", p)
			code = 1
		}
	}()

	rep := collect.Collect(lib, collect.Local(), collect.Options{IncludeIDs: *includeIDs, Version: buildVersion()})
	if *test {
		rep.Test = safeTest(p2pcheck.Options{Size: size, Timeout: *testTimeout, Jobs: *testJobs, Progress: stderr})
	}
	switch {
	case *format == "prometheus":
		if err := metrics.Write(stdout, rep); err != nil {
			fmt.Fprintf(stderr, "p2p-probe: %v\n", err)
			return 1
		}
	case *link != "":
		u, err := facts.LinkURL(*link, rep)
		if err != nil {
			fmt.Fprintf(stderr, "p2p-probe: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, u)
	default:
		enc := json.NewEncoder(stdout)
		if *pretty {
			enc.SetIndent("", "  ")
		}
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "p2p-probe: %v\n", err)
			return 1
		}
	}
	code = exitCode(rep)
	if code == 2 {
		fmt.Fprintf(stderr, "p2p-probe: exit status 2: no NVIDIA driver here (NVML: %s): %s\n", rep.NVML.Error, rep.NVML.Reason)
	}
	return code
}

// testRun is p2pcheck.Run; tests replace it.
var testRun = p2pcheck.Run

// safeTest runs the test; a crash of the test itself costs only its section.
func safeTest(o p2pcheck.Options) (t *facts.Test) {
	defer func() {
		if p := recover(); p != nil {
			t = &facts.Test{Error: fmt.Sprint("the test crashed: ", p), Devices: []facts.TestDevice{}, Pairs: []facts.TestPair{},
				Summary: facts.TestSummary{FailedPairs: []string{}, SlowPairs: []string{}, Timeouts: []string{}, Verdict: "The P2P test could not run: it crashed."}}
		}
	}()
	return testRun(o)
}

// parseSize reads 4096, 256KiB, 64MiB, 1GiB (K, M, G and KB, MB, GB mean the same).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a size such as 64MiB", s)
	case n*mult < 4096 || n*mult > 16<<30:
		return 0, fmt.Errorf("%q is outside 4KiB..16GiB", s)
	case n*mult%4 != 0:
		return 0, fmt.Errorf("%q is not a whole number of 4-byte words", s)
	}
	return n * mult, nil
}

func exitCode(rep facts.Report) int {
	switch {
	case rep.NVML.Available && rep.NVML.Error == "":
		return 0
	case rep.NVML.Error == "ERROR_LIBRARY_NOT_FOUND" || rep.NVML.Error == "ERROR_DRIVER_NOT_LOADED":
		return 2
	}
	return 1
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
