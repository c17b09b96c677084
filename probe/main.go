// Command p2p-probe prints, as JSON, every fact of a GPU node that decides
// which peer-to-peer fix applies to it: driver and CUDA versions, the GPUs,
// NVML's P2P status and topology of every pair, NVLink, and the software
// around them. Its default output names no machine and no person.
//
// Exit status: 0 when NVML answered, 2 when NVML is not there (the JSON says
// why), 1 for anything else.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/p2pkb/p2pkb/probe/collect"
	"github.com/p2pkb/p2pkb/probe/facts"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, nvml.New()))
}

func run(args []string, stdout, stderr io.Writer, lib nvml.Interface) (code int) {
	fl := flag.NewFlagSet("p2p-probe", flag.ContinueOnError)
	fl.SetOutput(stderr)
	pretty := fl.Bool("pretty", false, "indent the JSON")
	includeIDs := fl.Bool("include-ids", false, "include GPU UUIDs (they identify the machine)")
	link := fl.String("link", "", "print a link to the knowledge base at `BASEURL` that carries the facts in its #fragment, which never reaches the server")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: p2p-probe [--pretty] [--include-ids] [--link BASEURL]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 1
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "p2p-probe: internal error: %v\n", p)
			code = 1
		}
	}()

	rep := collect.Collect(lib, collect.Local(), collect.Options{IncludeIDs: *includeIDs, Version: buildVersion()})
	if *link != "" {
		u, err := facts.LinkURL(*link, rep)
		if err != nil {
			fmt.Fprintf(stderr, "p2p-probe: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, u)
	} else {
		enc := json.NewEncoder(stdout)
		if *pretty {
			enc.SetIndent("", "  ")
		}
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "p2p-probe: %v\n", err)
			return 1
		}
	}
	return exitCode(rep)
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
