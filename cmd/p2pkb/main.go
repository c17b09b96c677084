// Command p2pkb builds, checks, serves and searches the GPU peer-to-peer
// knowledge base. Each subcommand parses its flags and calls one function of
// the internal packages.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/p2pkb/p2pkb"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/kb"
)

const usage = `usage: p2pkb <command> [flags]

commands:
  build   render the knowledge base and articles into a static site
  lint    run every check of build without writing anything

Run 'p2pkb <command> -h' for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, args := args[0], args[1:]
	var err error
	switch cmd {
	case "build":
		err = buildCmd(args, stdout, stderr)
	case "lint":
		err = lintCmd(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "p2pkb: unknown command %q\n%s", cmd, usage)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	return 0
}

// sourceFlags are the flags that replace an embedded part of the site.
type sourceFlags struct{ kb, content, templates, assets *string }

func addSourceFlags(fl *flag.FlagSet, withLayout bool) sourceFlags {
	s := sourceFlags{
		kb:      fl.String("kb", "", "knowledge-base `DIR` (default: the embedded kb/)"),
		content: fl.String("content", "", "articles `DIR` (default: the embedded content/)"),
	}
	empty := ""
	s.templates, s.assets = &empty, &empty
	if withLayout {
		s.templates = fl.String("templates", "", "templates `DIR` (default: the embedded templates/)")
		s.assets = fl.String("assets", "", "static assets `DIR` (default: the embedded assets/)")
	}
	return s
}

func (s sourceFlags) sources() (build.Sources, error) {
	kbFS, contentFS, templatesFS, assetsFS := p2pkb.Sources()
	schema, err := fs.ReadFile(kbFS, kb.SchemaFile)
	if err != nil {
		return build.Sources{}, err
	}
	pick := func(dir string, embedded fs.FS, name string) build.Source {
		if dir == "" {
			return build.Source{FS: embedded, Name: name}
		}
		return build.Source{FS: os.DirFS(dir), Name: dir}
	}
	return build.Sources{
		KB:        pick(*s.kb, kbFS, "kb"),
		Content:   pick(*s.content, contentFS, "content"),
		Templates: pick(*s.templates, templatesFS, "templates"),
		Assets:    pick(*s.assets, assetsFS, "assets"),
		Schema:    schema,
	}, nil
}

func buildCmd(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("build", flag.ContinueOnError)
	fl.SetOutput(stderr)
	src := addSourceFlags(fl, true)
	out := fl.String("out", "public", "output `DIR`, replaced only when the build succeeds")
	baseURL := fl.String("base-url", "", "absolute `URL` of the site root, for canonical links and sitemap.xml")
	if err := fl.Parse(args); err != nil {
		return err
	}
	sources, err := src.sources()
	if err != nil {
		return err
	}
	return build.Build(sources, *out, *baseURL, stdout)
}

func lintCmd(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("lint", flag.ContinueOnError)
	fl.SetOutput(stderr)
	src := addSourceFlags(fl, false)
	if err := fl.Parse(args); err != nil {
		return err
	}
	sources, err := src.sources()
	if err != nil {
		return err
	}
	return build.Lint(sources, stdout)
}
