package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/plan/service"
)

// failOn is --fail-on: the lowest severity of finding that fails validate,
// render, plan and apply (exit 4), as tflint's --minimum-failure-severity
// and kube-linter's --fail-on-invalid-resource let CI fail on warnings.
// Errors fail whatever it says. Also AZSVC_FAIL_ON and fail-on: in
// azsvc.yaml, like every flag.
type failOn string

const (
	failOnError   failOn = "error"
	failOnWarning failOn = "warning"
)

func (f *failOn) String() string { return string(*f) }
func (f *failOn) Type() string   { return "severity" }

func (f *failOn) Set(v string) error {
	switch failOn(v) {
	case failOnError, failOnWarning:
		*f = failOn(v)
		return nil
	}
	return fmt.Errorf("%q is not a severity: use error or warning", v)
}

func addFailOnFlag(cmd *cobra.Command, f *failOn) {
	*f = failOnError
	cmd.Flags().Var(f, "fail-on", "exit 4 on any finding of this severity or worse: error (the default) or warning")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{string(failOnError), string(failOnWarning)}, cobra.ShellCompDirectiveNoFileComp
	})
}

// failsOnWarnings reports whether diags hold no error but warnings that
// --fail-on warning turns into a failure.
func (f failOn) failsOnWarnings(diags []service.Diagnostic) bool {
	if f != failOnWarning || service.HasErrors(diags) {
		return false
	}
	for _, d := range diags {
		if d.Severity == service.SeverityWarning {
			return true
		}
	}
	return false
}

// failedOnWarnings tells, on stderr, why a command with warnings only
// failed, with what that means for it ("" for nothing more), and returns
// the exit-4 error.
func failedOnWarnings(io *IOStreams, diags []service.Diagnostic, outcome string) error {
	n := 0
	for _, d := range diags {
		if d.Severity == service.SeverityWarning {
			n++
		}
	}
	what := fmt.Sprintf("%d warnings", n)
	if n == 1 {
		what = "1 warning"
	}
	if outcome != "" {
		what += "; " + outcome
	}
	fmt.Fprintf(io.ErrOut, "%s %s.\n", io.ErrStyle().BoldRed("Failed (--fail-on warning):"), what)
	return &reported{errInvalidInput}
}
