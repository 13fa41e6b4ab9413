package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/azsvc/azsvc/render/style"
)

// IOStreams are the standard streams a command reads and writes, with what
// is known about them. Commands never touch os.Stdout directly, so tests
// run them against buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	InTTY, OutTTY, ErrTTY bool

	// colorOut and colorErr are decided once flags and environment are
	// known (see applyColor).
	colorOut, colorErr bool
}

func systemStreams() *IOStreams {
	return &IOStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// applyColor decides colour for each output stream (render/style.Detect has
// the rules).
func (s *IOStreams) applyColor(env style.Env, noColorFlag bool) {
	s.colorOut = style.Detect(env, s.OutTTY, noColorFlag)
	s.colorErr = style.Detect(env, s.ErrTTY, noColorFlag)
}

// OutStyle styles text written to Out.
func (s *IOStreams) OutStyle() style.Style { return style.New(s.colorOut) }

// ErrStyle styles text written to ErrOut.
func (s *IOStreams) ErrStyle() style.Style { return style.New(s.colorErr) }

// CanPrompt reports whether the user can answer a question: gh's rule,
// both stdin and stdout are terminals (ux-anchors §7).
func (s *IOStreams) CanPrompt() bool { return s.InTTY && s.OutTTY }
