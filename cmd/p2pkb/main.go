// Command p2pkb builds, checks, serves and searches the GPU peer-to-peer
// knowledge base. Each subcommand parses its flags and calls one function of
// the internal packages.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/p2pkb/p2pkb"
	"github.com/p2pkb/p2pkb/internal/build"
	"github.com/p2pkb/p2pkb/internal/diagnose"
	"github.com/p2pkb/p2pkb/internal/fleet"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/server"
	"github.com/p2pkb/p2pkb/internal/site"
	"github.com/p2pkb/p2pkb/probe/facts"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText())
		return 2
	}
	cmd, args := args[0], args[1:]
	var err error
	switch cmd {
	case "build":
		err = buildCmd(args, stdout, stderr)
	case "lint":
		err = checkCmd("lint", build.Lint, args, stdout, stderr)
	case "search":
		err = searchCmd(args, stdout, stderr)
	case "explain":
		var found int
		found, err = explainCmd(args, stdin, stdout, stderr)
		if err == nil && found == 0 {
			return 1
		}
	case "match":
		err = matchCmd(args, stdin, stdout, stderr)
	case "serve":
		err = serveCmd(args, stdout, stderr)
	case "new":
		err = newCmd(args, stdin, stdout, stderr)
	case "fleet":
		var differ bool
		differ, err = fleetCmd(args, stdout, stderr)
		if err == nil && differ {
			return 1
		}
	case "audit":
		err = checkCmd("audit", build.Audit, args, stdout, stderr)
	case "help", "-h", "--help", "-help":
		err = helpCmd(args, stdout)
	case "version", "--version", "-version":
		if len(args) > 0 {
			err = usageError("version takes no arguments")
			break
		}
		fmt.Fprintf(stdout, "p2pkb %s\n", version())
	default:
		fmt.Fprintf(stderr, "p2pkb: unknown command %q\n%s", cmd, usageText())
		return 2
	}
	return exitCode(cmd, err, stderr)
}

// sourceFlags are the flags that replace an embedded part of the site.
type sourceFlags struct{ kb, content, i18n, assets *string }

func addSourceFlags(fl *flag.FlagSet, withLayout bool) sourceFlags {
	s := sourceFlags{
		kb:      fl.String("kb", "", "knowledge-base `DIR` (default: the embedded kb/)"),
		content: fl.String("content", "", "articles `DIR` (default: the embedded content/)"),
	}
	empty := ""
	s.i18n, s.assets = &empty, &empty
	if withLayout {
		s.i18n = fl.String("i18n", "", "`DIR` holding i18n.json, the interface's words (default: the embedded templates/i18n.json)")
		s.assets = fl.String("assets", "", "static assets `DIR` (default: the embedded assets/)")
	}
	return s
}

func (s sourceFlags) sources() (build.Sources, error) {
	kbFS, contentFS, i18nFS, assetsFS := p2pkb.Sources()
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
		KB:      pick(*s.kb, kbFS, "kb"),
		Content: pick(*s.content, contentFS, "content"),
		I18n:    pick(*s.i18n, i18nFS, "templates"),
		Assets:  pick(*s.assets, assetsFS, "assets"),
		Schema:  schema,
	}, nil
}

func buildCmd(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("build", stderr)
	src := addSourceFlags(fl, true)
	out := fl.String("out", "public", "output `DIR`, replaced only when the build succeeds; a non-empty DIR must be an earlier build")
	force := fl.Bool("force", false, "replace --out even when it is not empty and no earlier build")
	baseURL := fl.String("base-url", "", "absolute `URL` of the site root, for canonical links and sitemap.xml")
	quiet := fl.Bool("quiet", false, "no progress line on a terminal")
	repoURL := fl.String("repo-url", "", "the project's repository `URL` (GitHub layout), for \"Edit this entry\" and \"Report\" links")
	cpuProfile := fl.String("cpuprofile", "", "write a CPU profile of the build to `FILE` (go tool pprof)")
	memProfile := fl.String("memprofile", "", "write a heap profile taken at the end of the build to `FILE`")
	if err := parse(fl, args); err != nil {
		return err
	}
	sources, err := src.sources()
	if err != nil {
		return err
	}
	sources.RepoURL = *repoURL
	sources.ReplaceOut = *force
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	progress, done := buildProgress(stderr, *quiet)
	err = build.Build(sources, *out, *baseURL, stdout, progress)
	done()
	if err != nil {
		return err
	}
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}
	return nil
}

// checkCmd runs a command that reads the sources and writes what it found:
// lint, audit.
func checkCmd(name string, check func(build.Sources, io.Writer) error, args []string, stdout, stderr io.Writer) error {
	fl := newFlags(name, stderr)
	src := addSourceFlags(fl, false)
	if err := parse(fl, args); err != nil {
		return err
	}
	sources, err := src.sources()
	if err != nil {
		return err
	}
	return check(sources, stdout)
}

func reportFlags(fl *flag.FlagSet) (lang *string, asJSON *bool, baseURL *string) {
	lang = fl.String("lang", "", "answer in `LANG`: en or zh (zh-CN and the like too; default: from $LANG)")
	asJSON = fl.Bool("json", false, "print JSON for tools")
	baseURL = fl.String("base-url", os.Getenv("P2PKB_BASE_URL"), "`URL` of the site, for links (default: $P2PKB_BASE_URL)")
	return
}

func searchCmd(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("search", stderr)
	src := addSourceFlags(fl, false)
	lang, asJSON, baseURL := reportFlags(fl)
	limit := fl.Int("limit", 10, "show `N` results")
	if err := parse(fl, args); err != nil {
		return err
	}
	l, err := language(*lang)
	if err != nil {
		return err
	}
	q := strings.Join(fl.Args(), " ")
	if strings.TrimSpace(q) == "" {
		return usageError("search: give a QUERY (words, an error message or a log); see p2pkb help search")
	}
	if len(q) > search.MaxQueryBytes {
		return &exitError{code: 2, err: fmt.Errorf("p2pkb search: %w: search for the error line alone, or pipe the whole log into 'p2pkb explain'", &search.QueryTooLongError{Len: len(q)})}
	}
	if *limit < 1 || *limit > search.MaxResults {
		return usageError("p2pkb search: --limit is %d; it must be from 1 to %d", *limit, search.MaxResults)
	}
	sources, err := src.sources()
	if err != nil {
		return err
	}
	loaded := lowMemory(*src.kb)
	_, ix, err := build.SearchIndex(sources, l)
	if err != nil {
		return err
	}
	loaded()
	defer ix.Close()
	_, err = diagnose.Search(stdout, ix, q, diagnose.Options{Lang: l, JSON: *asJSON, Limit: *limit, BaseURL: *baseURL, Term: terminal(stdout)})
	return err
}

func explainCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fl := newFlags("explain", stderr)
	src := addSourceFlags(fl, false)
	lang, asJSON, baseURL := reportFlags(fl)
	follow, file := logFlags(fl)
	repoURL := fl.String("repo-url", os.Getenv("P2PKB_REPO_URL"), "the project's repository `URL` (GitHub layout): when nothing in the input is known, print a link that opens a new issue there with its error lines (default: $P2PKB_REPO_URL)")
	if err := parse(fl, args); err != nil {
		return 0, err
	}
	l, err := language(*lang)
	if err != nil {
		return 0, err
	}
	in, closeIn, err := logInput(fl.Args(), *file, stdin, true)
	if err != nil {
		return 0, err
	}
	defer closeIn()
	fewProcs()
	loaded := lowMemory(*src.kb)
	s, err := src.model()
	if err != nil {
		return 0, err
	}
	loaded()
	readingGC()
	w, o := stdout, diagnose.Options{Lang: l, JSON: *asJSON, BaseURL: *baseURL, Follow: *follow, Warn: stderr, Paste: paste.New(), RepoURL: *repoURL}
	if *follow {
		in, w = io.TeeReader(in, stdout), stderr
	}
	o.Term = terminal(w)
	sum, err := diagnose.Explain(w, s, in, nil, o)
	return sum.Errors, err
}

// logFlags are the flags of the commands that read a log.
func logFlags(fl *flag.FlagSet) (follow *bool, file *string) {
	follow = fl.Bool("follow", false, "pass the input through to standard output as it arrives, and explain each known message on standard error as soon as it appears")
	fl.BoolVar(follow, "tee", false, "the same as --follow")
	file = fl.String("file", "", "read the log from `FILE` (default: the arguments, else standard input)")
	return follow, file
}

// logInput is the log to read: the file, the arguments as text, or standard
// input ("-", or no arguments when fromStdin). It is read as a stream, so a
// log of any size fits. nil when there is none.
func logInput(args []string, file string, stdin io.Reader, fromStdin bool) (io.Reader, func(), error) {
	switch {
	case file != "" && file != "-":
		f, err := os.Open(file)
		if err != nil {
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	case file == "-" || len(args) == 1 && args[0] == "-" || len(args) == 0 && fromStdin:
		return stdin, func() {}, nil
	case len(args) > 0:
		return strings.NewReader(strings.Join(args, " ")), func() {}, nil
	}
	return nil, func() {}, nil
}

// model loads the KB and the articles, without the pages and the search
// index that explaining a log does not need.
func (s sourceFlags) model() (*site.Site, error) {
	sources, err := s.sources()
	if err != nil {
		return nil, err
	}
	return build.Catalog(sources)
}

// fleetCmd reads one probe report per node and reports where the fleet
// differs. It returns whether some node failed, lagged its peers, or could
// not be read, or versions differ: exit status 1, for scripts and alerts.
func fleetCmd(args []string, stdout, stderr io.Writer) (bool, error) {
	fl := newFlags("fleet", stderr)
	src := addSourceFlags(fl, false)
	lang, asJSON, baseURL := reportFlags(fl)
	slow := fl.Float64("slow-fraction", 0.2, "a pair more than this `FRACTION` below its group's median P2P bandwidth is an outlier")
	latency := fl.Float64("latency-factor", 2, "a pair whose P2P latency is more than `TIMES` its group's median is an outlier")
	if err := parse(fl, args); err != nil {
		return false, err
	}
	l, err := language(*lang)
	if err != nil {
		return false, err
	}
	if fl.NArg() == 0 {
		return false, usageError("fleet: name a folder, report files or an archive of reports; see p2pkb help fleet")
	}
	s, err := src.model()
	if err != nil {
		return false, err
	}
	v, err := fleet.Read(fl.Args(), fleet.Options{SlowFraction: *slow, LatencyFactor: *latency, Entries: s.KB.Entries})
	if err != nil {
		return false, fmt.Errorf("p2pkb fleet: %w", err)
	}
	differ := len(v.Problems)+len(v.Outliers)+len(v.Versions)+len(v.Unread) > 0
	for _, vn := range v.Verdicts {
		differ = differ || vn.Verdict != fleet.OK && vn.Verdict != fleet.Untested
	}
	if *asJSON {
		return differ, fleet.WriteJSON(stdout, v)
	}
	entryURL := func(id string) string {
		if *baseURL == "" {
			return ""
		}
		return strings.TrimSuffix(*baseURL, "/") + "/" + site.EntryPath(l, id)
	}
	return differ, fleet.Write(stdout, v, l, entryURL)
}

func serveCmd(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("serve", stderr)
	addr := fl.String("addr", "127.0.0.1:8080", "`ADDRESS` to listen on")
	dir := fl.String("dir", "", "serve a built site from `DIR` (default: build the embedded site in a temporary directory)")
	watch := fl.Bool("watch", false, "rebuild when kb/, content/, templates/ or assets/ change and reload open pages (default folders: those in the current directory)")
	src := addSourceFlags(fl, true)
	if err := parse(fl, args); err != nil {
		return err
	}
	if *watch {
		// Watching needs folders: default to the repository's own.
		for _, p := range []struct {
			flag *string
			dir  string
		}{{src.kb, "kb"}, {src.content, "content"}, {src.i18n, "templates"}, {src.assets, "assets"}} {
			if *p.flag == "" {
				*p.flag = p.dir
			}
		}
	}
	sources, err := src.sources()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return server.Run(ctx, server.Options{Addr: *addr, Dir: *dir, Sources: sources, Watch: *watch}, stdout, stderr)
}

func matchCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fl := newFlags("match", stderr)
	src := addSourceFlags(fl, false)
	lang, asJSON, baseURL := reportFlags(fl)
	probeFile := fl.String("probe", "", "p2p-probe output `FILE` (- for standard input)")
	follow, file := logFlags(fl)
	if err := parse(fl, args); err != nil {
		return err
	}
	l, err := language(*lang)
	if err != nil {
		return err
	}
	f := rules.Facts{}
	var test *facts.Test
	if *probeFile != "" {
		var pin io.Reader = stdin
		if *probeFile != "-" {
			pf, err := os.Open(*probeFile)
			if err != nil {
				return err
			}
			defer pf.Close()
			pin = pf
		}
		rep, err := facts.Read(pin)
		if err != nil {
			return fmt.Errorf("%s: %w", *probeFile, err)
		}
		f, test = rules.FromReport(rep), rep.Test
	}
	// A log piped in: judge the entries it names.
	in, closeIn, err := logInput(fl.Args(), *file, stdin, *probeFile != "-" && !isTerminal(stdin))
	if err != nil {
		return err
	}
	defer closeIn()
	if in == stdin && *file == "" {
		// Nothing piped in (a script's empty standard input): as without text.
		br := bufio.NewReader(stdin)
		if _, err := br.Peek(1); err == io.EOF {
			in = nil
		} else {
			in = br
		}
	}
	if in == nil && *probeFile == "" {
		return usageError("match: give a p2p-probe report (--probe FILE), a log (--file LOG, TEXT or standard input), or both; see p2pkb help match")
	}
	s, err := src.model()
	if err != nil {
		return err
	}
	o := diagnose.Options{Lang: l, JSON: *asJSON, BaseURL: *baseURL, Follow: *follow, Warn: stderr, Test: test, Paste: paste.New()}
	if in == nil {
		o.Term = terminal(stdout)
		_, err = diagnose.MatchAll(stdout, s, f, o)
		return err
	}
	w := stdout
	if *follow {
		in, w = io.TeeReader(in, stdout), stderr
	}
	o.Term = terminal(w)
	_, err = diagnose.Match(w, s, f, in, o)
	return err
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
