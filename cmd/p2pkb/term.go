package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/p2pkb/p2pkb/internal/diagnose"
)

// terminal is what report output on w may use: hyperlinks, colour unless
// NO_COLOR is set (https://no-color.org), and the terminal's width; nil when
// w is a pipe or a file, which get plain text.
func terminal(w io.Writer) *diagnose.Terminal {
	if !writesToTerminal(w) {
		return nil
	}
	t := &diagnose.Terminal{Color: os.Getenv("NO_COLOR") == ""}
	if width, _, err := term.GetSize(int(w.(*os.File).Fd())); err == nil {
		t.Width = width
	}
	return t
}
