package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"strings"

	"github.com/p2pkb/p2pkb/internal/diagnose"
)

// command is one subcommand as help shows it.
type command struct {
	name string
	args string // what follows the flags: "QUERY...", "[DIR|FILE|ARCHIVE]..."
	desc string // what it does, in a sentence or two
}

var commands = []command{
	{"build", "", "Render the knowledge base and the articles into a static site. The output folder is replaced only when everything succeeded."},
	{"lint", "", "Run every check of build without writing anything, and list warnings (text without a translation, entries not yet checked against their source)."},
	{"audit", "", "List, per entry, what its signature, error code and rates rest on, and the totals."},
	{"search", "QUERY...", "Rank the entries and articles for a query: words, an error message, or a whole log."},
	{"explain", "[TEXT... | -]", "Explain every known error message in a log: TEXT, --file FILE, or standard input. Each message is shown with its causes, the most likely first, and what works; when no line is recognized, the entries closest to the input's words, marked as such."},
	{"match", "[TEXT... | -]", "Tell which entries and fixes apply to a machine described by a p2p-probe report (--probe FILE), and explain a log against it when one is given."},
	{"serve", "", "Serve the site and its search API over HTTP."},
	{"new", "[TEXT... | -]", "Write the skeleton of a new entry from an error line (TEXT, --from-log FILE, or standard input) into a KB folder; refused when the KB already explains the line."},
	{"fleet", "DIR|FILE|ARCHIVE...", "Compare the p2p-probe reports of many nodes, one JSON file per node named after it (folders are read recursively, .tar and .tar.gz archives member by member): nodes by verdict, failed and slow pairs, figures below their peers, versions that differ, entries that hold on some nodes only."},
	{"version", "", "Print the version of p2pkb."},
	{"help", "[COMMAND]", "Show the commands, or one command's usage and flags."},
}

// exits are the exit statuses every command keeps.
const exits = `exit status: 0 success (a known error recognized), 1 nothing recognized (an
answer by the closest entries to the input's words included) or a check
failed, 2 a usage or input error.`

func usageText() string {
	var b strings.Builder
	b.WriteString("usage: p2pkb <command> [flags] [arguments]\n\ncommands:\n")
	for _, c := range commands {
		desc, _, _ := strings.Cut(c.desc, ". ")
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, strings.TrimSuffix(strings.ToLower(desc[:1])+desc[1:], "."))
	}
	b.WriteString("\nRun 'p2pkb help <command>' for a command's flags.\n" + exits + "\n")
	return b.String()
}

func commandNamed(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// hidden flags work but are not listed: they are for the project's own
// profiling, not for readers of the help.
var hidden = map[string]bool{"cpuprofile": true, "memprofile": true}

// newFlags makes a command's flag set, whose usage is the same for every
// command: the usage line, what it does, then each flag with its value's
// name.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { writeUsage(fl.Output(), fl) }
	return fl
}

func writeUsage(w io.Writer, fl *flag.FlagSet) {
	c, _ := commandNamed(fl.Name())
	line := "usage: p2pkb " + c.name
	n := 0
	fl.VisitAll(func(f *flag.Flag) {
		if !hidden[f.Name] {
			n++
		}
	})
	if n > 0 {
		line += " [flags]"
	}
	if c.args != "" {
		line += " " + c.args
	}
	fmt.Fprintf(w, "%s\n\n%s\n", line, wrap(c.desc, 76))
	if n > 0 {
		fmt.Fprint(w, "\nflags:\n")
	}
	fl.VisitAll(func(f *flag.Flag) {
		if hidden[f.Name] {
			return
		}
		value, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if value != "" {
			head += " " + strings.ToUpper(value)
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			usage += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n      %s\n", head, strings.ReplaceAll(wrap(usage, 70), "\n", "\n      "))
	})
	fmt.Fprintf(w, "\n%s\n", exits)
}

func wrap(s string, width int) string {
	var b strings.Builder
	col := 0
	for i, word := range strings.Fields(s) {
		if i > 0 && col+1+len(word) > width {
			b.WriteByte('\n')
			col = 0
		} else if i > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()
}

// exitError carries the exit status an error ends the program with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError is a mistake in how a command was called: exit status 2.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// exitCode maps an error to the exit status and says it on stderr once,
// after "p2pkb CMD:". A flag error was already printed with the usage.
func exitCode(cmd string, err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var flagErr *flagError
	if errors.As(err, &flagErr) {
		return 2
	}
	code := 1
	var ee *exitError
	var pe *fs.PathError
	var notText *diagnose.NotTextError
	switch {
	case errors.As(err, &ee):
		code = ee.code
	case errors.As(err, &pe):
		code = 2 // a file named on the command line that cannot be read
	case errors.As(err, &notText):
		code = 2 // an input that is not text is wrong usage, as a wrong flag is
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "p2pkb") {
		msg = "p2pkb " + cmd + ": " + strings.TrimPrefix(msg, cmd+": ")
	}
	fmt.Fprintln(stderr, msg)
	return code
}

// flagError is an error of the flag package, which has already printed it
// and the usage.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }

// parse parses a command's flags; an error is a flagError (exit status 2)
// unless it is a request for help.
func parse(fl *flag.FlagSet, args []string) error {
	out := fl.Output()
	fl.SetOutput(io.Discard) // the flag package's own words lack the program's name
	err := fl.Parse(args)
	fl.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fl.Usage()
		return err
	}
	fmt.Fprintf(out, "p2pkb %s: %v\n\n", fl.Name(), err)
	fl.Usage()
	return &flagError{err}
}

// langs are the ways of naming the site's languages that --lang takes.
var langs = map[string]string{"en": "en", "zh": "zh", "zh-cn": "zh", "zh-hans": "zh", "zh-sg": "zh", "zh-hans-cn": "zh", "en-us": "en", "en-gb": "en"}

// language checks --lang: en or zh, in their common spellings (zh-CN,
// zh_CN.UTF-8, EN); empty picks from LANG.
func language(flagValue string) (string, error) {
	if flagValue == "" {
		return diagnose.Lang(""), nil
	}
	key := strings.ToLower(strings.ReplaceAll(flagValue, "_", "-"))
	key, _, _ = strings.Cut(key, ".") // zh_CN.UTF-8
	if l, ok := langs[key]; ok {
		return l, nil
	}
	return "", usageError("--lang %q: the site speaks en (English) and zh (Chinese, also zh-CN)", flagValue)
}

// version is the module's version, or the commit it was built from.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if (v == "" || v == "(devel)") && rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return "devel " + rev + modified
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}

func helpCmd(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usageText())
		return nil
	}
	if len(args) > 1 {
		return usageError("help takes one command name")
	}
	if _, ok := commandNamed(args[0]); !ok || args[0] == "help" || args[0] == "version" {
		if ok {
			c, _ := commandNamed(args[0])
			fmt.Fprintf(stdout, "usage: p2pkb %s %s\n\n%s\n", c.name, c.args, c.desc)
			return nil
		}
		return usageError("no command %q: %s", args[0], names())
	}
	// The command's own -h prints its flags; send them to stdout.
	code := run([]string{args[0], "-h"}, strings.NewReader(""), stdout, stdout)
	if code != 0 {
		return fmt.Errorf("help %s: exit status %d", args[0], code)
	}
	return nil
}

func names() string {
	var ns []string
	for _, c := range commands {
		ns = append(ns, c.name)
	}
	return strings.Join(ns, ", ")
}
