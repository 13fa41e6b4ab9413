package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// app is what every command shares: the streams, the build, and the global
// flags. It is built per invocation, so tests run commands side by side.
type app struct {
	io    *IOStreams
	build buildInfo
	// dir is where azsvc.yaml is looked for when --settings is not given.
	dir    string
	global globalOptions
	// resolved is what setup took from the environment and settings file.
	resolved resolvedConfig
	// emulator, set by tests only, replaces --state's emulator in plan and
	// apply, so runs in one process share one ARM (see targetOptions).
	emulator *emulator.Emulator
}

// globalOptions are the root command's persistent flags.
type globalOptions struct {
	SettingsFile string
	NoColor      bool
	Output       string
	Verbose      int
}

// run executes one command line and returns the process exit code. It is
// main without the process: tests call it with buffers.
func run(ctx context.Context, a *app, args []string) int {
	stdout := &countingWriter{w: a.io.Out}
	a.io.Out = stdout
	root := newRootCmd(a)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}

	// The only untyped errors the root command itself returns are cobra's
	// "unknown command" ones; flag errors are already usage errors.
	var ue *usageError
	var r *reported
	if cmd == root && !errors.As(err, &ue) && !errors.As(err, &r) {
		err = &usageError{err: err}
	}
	code := exitCode(ctx, err)
	if stdout.n == 0 {
		writeMachineError(stdout, cmd.Name(), a.global.Output, code, err)
	}
	switch {
	case code == exitInterrupted:
		fmt.Fprintln(a.io.ErrOut, "azsvc: interrupted")
	case !silent(err):
		// Errors quote file names, annotation values and ARM messages:
		// nothing in them may reach the terminal as a control sequence.
		fmt.Fprintf(a.io.ErrOut, "%s %s\n", a.io.ErrStyle().BoldRed("azsvc: error:"), quote.Lines(err.Error()))
		if code == exitUsage {
			fmt.Fprintf(a.io.ErrOut, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
	}
	return code
}

// setup runs before every command: it resolves flags from the environment
// and config file, then decides colour, which depends on --no-color.
func (a *app) setup(cmd *cobra.Command) error {
	cfg, err := applyConfig(cmd, a.global.SettingsFile, a.dir)
	if err != nil {
		return err
	}
	a.resolved = cfg
	a.io.applyColor(os.LookupEnv, a.global.NoColor)
	st := a.io.ErrStyle()
	for _, w := range cfg.Warnings {
		fmt.Fprintf(a.io.ErrOut, "%s %s\n", st.BoldYellow("warning:"), quote.Text(w))
	}
	if a.global.Verbose > 0 {
		if cfg.File != "" {
			fmt.Fprintf(a.io.ErrOut, "azsvc: using settings file %s\n", cfg.File)
		}
		for _, s := range cfg.Sources {
			fmt.Fprintf(a.io.ErrOut, "azsvc: --%s from %s\n", s.Flag, s.Origin)
		}
	}
	return nil
}

// outputFormats lists the -o values each command accepts, its default
// first. It feeds both the check and shell completion.
func outputFormats(command string) []string {
	switch command {
	case "validate":
		return []string{"text", "json", "sarif"}
	case "render":
		return []string{"text", "json", "yaml", "mermaid"}
	case "plan", "show":
		return []string{"text", "json", "markdown", "mermaid"}
	case "apply", "version":
		return []string{"text", "json"}
	case "status":
		return []string{"text", "wide", "json"}
	}
	return nil
}

// output resolves -o for cmd: its default when unset, a usage error when
// not one of its formats.
func (a *app) output(cmd *cobra.Command) (string, error) {
	allowed := outputFormats(cmd.Name())
	out := a.global.Output
	if out == "" {
		return allowed[0], nil
	}
	for _, v := range allowed {
		if out == v {
			return out, nil
		}
	}
	// Terraform's single-dash -out=FILE reads as -o ut=FILE.
	if name, value, ok := strings.Cut(out, "="); ok && cmd.Flags().Lookup("o"+name) != nil {
		return "", usageErrorf("unknown output format %q: use one of %s (did you mean --o%s %s?)", out, joinOr(allowed), name, value)
	}
	if cmd.Flags().Lookup("o"+out) != nil { // -out with nothing after it
		return "", usageErrorf("unknown output format %q: use one of %s (did you mean --o%s FILE?)", out, joinOr(allowed), out)
	}
	if best, ok := service.Closest(strings.ToLower(out), allowed); ok {
		return "", usageErrorf("unknown output format %q: use one of %s (did you mean -o %s?)", out, joinOr(allowed), best)
	}
	return "", usageErrorf("unknown output format %q: use one of %s", out, joinOr(allowed))
}

func joinOr(values []string) string {
	s := ""
	for i, v := range values {
		switch {
		case i == 0:
		case i == len(values)-1:
			s += " or "
		default:
			s += ", "
		}
		s += v
	}
	return s
}

// runCommand is the tail of every command's RunE: resolve -o into *output,
// then run the command, or the replacement a test swapped in (runF).
func runCommand[O any](a *app, cmd *cobra.Command, opts *O, output *string, runF, run func(context.Context, *O) error) error {
	out, err := a.output(cmd)
	if err != nil {
		return err
	}
	*output = out
	if runF != nil {
		return runF(cmd.Context(), opts)
	}
	return run(cmd.Context(), opts)
}
