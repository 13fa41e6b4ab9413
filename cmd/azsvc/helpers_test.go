package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/golden"
	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// result is what one in-process run of azsvc produced.
type result struct {
	stdout, stderr string
	code           int
}

// cli runs azsvc in process against buffers. dir is where azsvc.yaml is
// looked for; replace swaps in commands built with a test runF.
type cli struct {
	t      *testing.T
	dir    string
	stdin  string
	outTTY bool
	// tty puts stdin and stderr on a terminal: apply asks to confirm.
	tty     bool
	ctx     context.Context
	replace func(a *app) *cobra.Command
	// emulator, when set, is the ARM every plan and apply of this cli uses.
	emulator *emulator.Emulator
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	isolateEnv(t)
	return &cli{t: t, dir: t.TempDir(), ctx: context.Background()}
}

// isolateEnv blanks every variable azsvc reads, so a developer's or CI
// runner's environment (FORCE_COLOR is common in CI) cannot change results.
// viper and style.Detect both treat an empty variable as unset.
func isolateEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, envPrefix+"_") {
			t.Setenv(name, "")
		}
	}
	for _, name := range []string{"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "TERM",
		stepSummaryEnv, "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID", "SYSTEM_COLLECTIONURI", "SYSTEM_TEAMPROJECT", "BUILD_BUILDID"} {
		t.Setenv(name, "")
	}
}

func (c *cli) run(args ...string) result {
	c.t.Helper()
	var out, errOut bytes.Buffer
	a := &app{
		io:    &IOStreams{In: strings.NewReader(c.stdin), Out: &out, ErrOut: &errOut, OutTTY: c.outTTY, InTTY: c.tty, ErrTTY: c.tty},
		build: buildInfo{Version: "v0.0.0-test", GoVersion: "go1.26", Platform: "linux/amd64"},
		dir:   c.dir,

		emulator: c.emulator,
	}
	var code int
	if c.replace == nil {
		code = run(c.ctx, a, args)
	} else {
		code = runReplaced(c.ctx, a, c.replace(a), args)
	}
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// runReplaced is run with one subcommand swapped for sub (same name), the
// GitHub CLI way of testing flag parsing without running the command.
func runReplaced(ctx context.Context, a *app, sub *cobra.Command, args []string) int {
	root := newRootCmd(a)
	for _, c := range root.Commands() {
		if c.Name() == sub.Name() {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(sub)
	wrapArgsAsUsage(sub)
	root.SetArgs(args)
	_, err := root.ExecuteContextC(ctx)
	return exitCode(ctx, err)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func assertGolden(t *testing.T, path string, got string) {
	t.Helper()
	golden.Check(t, path, []byte(got))
}
