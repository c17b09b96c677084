package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/p2pkb/p2pkb/internal/draft"
)

// maxNewInput bounds what `new` reads: it wants an error line, not a log.
const maxNewInput = 1 << 20

func newCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("new", flag.ContinueOnError)
	fl.SetOutput(stderr)
	kbDir := fl.String("kb", "kb", "the KB folder to write into")
	fromLog := fl.String("from-log", "", "read the error from `FILE` (the line that reports it is picked)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: p2pkb new [--kb DIR] [--from-log FILE | TEXT...]   (no TEXT: read stdin)")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
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
	d, err := draft.New(text, time.Now().UTC().Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	path := filepath.Join(*kbDir, filepath.FromSlash(d.Path))
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
