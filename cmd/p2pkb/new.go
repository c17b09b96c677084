package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/draft"
	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// maxNewInput bounds what `new` reads: it wants an error line, not a log.
const maxNewInput = 1 << 20

func newCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fl := newFlags("new", stderr)
	kbDir := fl.String("kb", "kb", "the KB `DIR` to write into (it must hold schema.json)")
	fromLog := fl.String("from-log", "", "read the error from `FILE` (the line that reports it is picked)")
	force := fl.Bool("force", false, "write the entry even when the KB already explains the line (another cause of a known message)")
	if err := parse(fl, args); err != nil {
		return err
	}
	var text string
	switch {
	case *fromLog != "":
		data, err := readBounded(*fromLog, nil)
		if err != nil {
			return err
		}
		text = data
	case fl.NArg() > 0:
		text = strings.Join(fl.Args(), " ")
	default:
		data, err := readBounded("", stdin)
		if err != nil {
			return err
		}
		text = data
	}
	if _, err := os.Stat(filepath.Join(*kbDir, kb.SchemaFile)); err != nil {
		return usageError("new: %s is not a KB folder (it has no %s): run p2pkb new in the repository's root, or name the folder with --kb", *kbDir, kb.SchemaFile)
	}
	d, err := draft.New(text, time.Now().UTC().Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	path := filepath.Join(*kbDir, filepath.FromSlash(d.Path))
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("new: %s exists already; edit it, or rename the new entry", path)
	}
	if !*force {
		known, err := explained(*kbDir, d.Line)
		if err != nil {
			return fmt.Errorf("new: %w", err)
		}
		if len(known) > 0 {
			return &exitError{code: 1, err: fmt.Errorf("new: the KB already explains this line: %s; edit that entry, or give --force to add another cause of the same message", strings.Join(known, ", "))}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("new: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("new: %s exists already; edit it, or rename the new entry", path)
	}
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	if _, err := f.Write(d.JSON); err != nil {
		f.Close()
		return fmt.Errorf("new: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("new: %w", err)
	}
	fmt.Fprintf(stdout, "%s\n  signature: %s\n  regex:     %s\n", path, d.Signature, d.Regex)
	fmt.Fprintln(stderr, "Fill in every TODO (lint refuses the entry until then), then run make lint.")
	return nil
}

// explained lists the entries of the KB in dir whose patterns match line,
// as explain would find them.
func explained(dir, line string) ([]string, error) {
	k, err := kb.Load(os.DirFS(dir))
	if err != nil {
		return nil, err
	}
	s := site.New(k, &content.Set{Articles: map[string]map[string]*content.Article{}}, "")
	var ids []string
	for _, m := range search.NewLineMatcher(search.PatternDocs(s, "en")).Match([]byte(line), nil) {
		// An entry of the line's shape (a program's own check) answers any
		// such line, and names none: a new entry is what the line lacks.
		if !m.Doc.Shape && !slices.Contains(ids, m.Doc.ID) {
			ids = append(ids, m.Doc.ID)
		}
	}
	return ids, nil
}

// readBounded reads a file, or r when name is "", refusing more than
// maxNewInput rather than cutting it.
func readBounded(name string, r io.Reader) (string, error) {
	if name != "" {
		f, err := os.Open(name)
		if err != nil {
			return "", fmt.Errorf("new: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxNewInput+1))
	if err != nil {
		return "", fmt.Errorf("new: %w", err)
	}
	if len(data) > maxNewInput {
		return "", fmt.Errorf("new: the input is over %d KB; paste the error line, or the lines around it", maxNewInput>>10)
	}
	return string(data), nil
}
