package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/preflight"
)

// Exit codes, the single table every command uses (ux-anchors §8.5). The
// `azsvc help exit-codes` topic prints the same table; keep them in step.
const (
	exitOK          = 0
	exitRuntime     = 1   // runtime or internal error
	exitChanges     = 2   // plan --detailed-exitcode: changes present
	exitNotReady    = 3   // status: a condition is not True
	exitInvalid     = 4   // invalid input: any error diagnostic
	exitStale       = 5   // apply: saved plan is stale
	exitPartial     = 7   // apply: some steps applied, then a failure
	exitUsage       = 64  // bad flags or arguments (EX_USAGE)
	exitInterrupted = 130 // SIGINT or SIGTERM
)

// Outcomes that are not failures of azsvc but still set the exit code.
// Commands return them wrapped in reported when they already told the
// user everything (validate printed its diagnostics).
var (
	errInvalidInput   = errors.New("invalid input")          // exit 4
	errChangesPresent = errors.New("the plan has changes")   // exit 2
	errNotApproved    = errors.New("apply was not approved") // exit 1
)

// invalidInput is input azsvc cannot use, in its own words: exit 4.
type invalidInput struct{ err error }

func (e *invalidInput) Error() string   { return e.err.Error() }
func (e *invalidInput) Unwrap() []error { return []error{e.err, errInvalidInput} }

// reported marks an error the command already reported: run prints
// nothing more, only the exit code tells.
type reported struct{ err error }

func (e *reported) Error() string { return e.err.Error() }
func (e *reported) Unwrap() error { return e.err }

// partialApply is a failure after apply changed Azure, outside the
// executor (writing the Services' status): exit 7.
type partialApply struct{ err error }

func (e *partialApply) Error() string   { return e.err.Error() }
func (e *partialApply) Unwrap() []error { return []error{e.err, apply.ErrPartial} }

// usageError is a mistake in how the command was called: exit 64, and a
// pointer to --help.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// exitCode maps an error returned by a command to the process exit code:
// the one place that decides it. An interrupt wins over whatever error it
// caused; a stale resource found after some steps were applied is a partial
// apply (exit 7), since exit 5 promises that nothing changed.
func exitCode(ctx context.Context, err error) int {
	var (
		ue *usageError
		te *engine.TargetError
		fe *engine.FocusError
		pe *engine.EmptyPruneError
		oe *engine.OutPathError
	)
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, apply.ErrInterrupted):
		return exitInterrupted
	case errors.As(err, &ue), errors.As(err, &te), errors.As(err, &fe), errors.As(err, &pe), errors.As(err, &oe):
		return exitUsage
	case errors.Is(err, errChangesPresent):
		return exitChanges
	case errors.Is(err, errNotReady):
		return exitNotReady
	case errors.Is(err, errInvalidInput), errors.Is(err, preflight.ErrRefused), errors.Is(err, cluster.ErrNotModelled):
		return exitInvalid
	case errors.Is(err, apply.ErrStale) && appliedSome(err), errors.Is(err, apply.ErrLockLost) && appliedSome(err),
		errors.Is(err, apply.ErrPartial):
		return exitPartial
	case errors.Is(err, apply.ErrStale), errors.Is(err, planfile.ErrModified), errors.Is(err, planfile.ErrNotPlanFile):
		return exitStale
	}
	return exitRuntime
}

// appliedSome reports whether the failed apply behind err wrote anything.
func appliedSome(err error) bool {
	var ae *apply.Error
	return errors.As(err, &ae) && ae.Result != nil && len(ae.Result.Applied) > 0
}

// silent reports whether err was already reported to the user.
func silent(err error) bool {
	var r *reported
	return errors.As(err, &r)
}

// exitCodeTable is the source of `azsvc help exit-codes`, so the text and
// the constants cannot drift apart.
func exitCodeTable() []struct {
	code    int
	meaning string
} {
	return []struct {
		code    int
		meaning string
	}{
		{exitOK, "success. validate: no errors (warnings alone exit 0, unless --fail-on warning). plan: no changes, or changes without --detailed-exitcode. apply: every step applied, or nothing to apply. Blocked changes that only hold something back (a delete of what is still in use, node IPs CCM adds later) do not change the exit code. status: every condition is True."},
		{exitRuntime, "runtime or internal error: Azure, authentication, network, a file that cannot be read, the cluster (unreachable, credentials, RBAC), apply's lease held by someone else. Also apply declined at the prompt (\"Apply cancelled.\"), as in Terraform. Nothing is known to have changed."},
		{exitChanges, "plan --detailed-exitcode only: the plan has changes."},
		{exitNotReady, "status only: a condition of a Service or PrivateEndpoint is False or Unknown (not yet in Azure, a connection not approved, a plan with changes for it, ...). 0 means every condition is True."},
		{exitInvalid, "invalid input: at least one error diagnostic (bad or unknown annotation, out-of-range value, conflicting settings), or a plan ARM would refuse (listed under Refused), or an azure.json in a mode azsvc does not plan (CCM's Service Gateway mode, azsvc help config), or an apply whose plan needs values the API server assigns (a UID, node port or node IPs the input lacks: plan with --from-cluster or pin them), or a plan (with or without --detailed-exitcode) or apply whose blocked changes leave a Service or PrivateEndpoint without what its manifest asks for (a missing subnet, public IP, prefix or pinned IP, a port taken on a shared frontend, a private link service not visible, a resource owned by others: marked ✗ under Blocked, with a did-you-mean from what the plan read; apply --allow-blocked applies the rest). With --fail-on warning (validate, render, plan, apply), any warning too. Nothing was applied."},
		{exitStale, "apply refused: what the saved plan (or, once the lease is taken, the plan just made) touches changed since it was planned, or the file is not a plan azsvc wrote as it wrote it (edited, cut short, re-encoded; show refuses it too). Nothing was applied; plan again."},
		{exitPartial, "partial apply: some steps were applied, then one failed. Azure state HAS changed; the report says which steps ran. Plan and apply again to converge."},
		{exitUsage, "usage error: unknown command or flag, missing -f, an unknown -o value, target settings that contradict each other or lack a subscription or token, apply without --auto-approve and no terminal to confirm on, --prune over an input without Services or over part of a cluster, plan --out naming anything but a regular file (a device, FIFO, socket or directory)."},
		{exitInterrupted, "interrupted (Ctrl-C or SIGTERM). An interrupted apply stops after the operation in flight and reports what was done."},
	}
}

func exitCodesHelp() string {
	var b strings.Builder
	b.WriteString("azsvc uses the same exit codes for every command, so CI scripts can branch on\nthem with \"case $?\":\n\n")
	for _, row := range exitCodeTable() {
		lines := wrap(row.meaning, 66)
		fmt.Fprintf(&b, "  %-4d %s\n", row.code, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "       %s\n", l)
		}
	}
	return b.String()
}

// wrap splits text into lines of at most width characters at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return append(lines, line)
}
