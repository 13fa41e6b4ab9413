package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/applyview"
	"github.com/azsvc/azsvc/render/planview"
)

func runApply(ctx context.Context, opts *applyOptions) error {
	if opts.PlanFile != "" {
		return runApplySaved(ctx, opts)
	}
	if opts.Cluster.AzureConfig == "" {
		return noAzureConfig()
	}
	kc, live, err := clusterInput(ctx, opts.IO, opts.Kube, allKinds, opts.Verbose)
	if err != nil {
		return err
	}
	in, err := loadInputs(ctx, opts.IO, opts.Files, opts.Cluster, opts.Target, live)
	if err != nil {
		return err
	}
	if in.HasErrors() {
		reportDiagnostics(opts.IO, in)
		return withExitCode(exitInvalid, nil)
	}
	tg, p, err := planTarget(ctx, in, settings(opts.IO, opts.Files, opts.Cluster, opts.Target))
	if err != nil {
		return err
	}
	defer tg.Close()
	// The plan goes to stderr under -o json, which keeps stdout JSON Lines.
	planOut := opts.IO.Out
	if opts.Output == "json" {
		planOut = opts.IO.ErrOut
	}
	if err := planview.Text(planOut, engine.View(p, in, tg, opts.Files), opts.IO.OutStyle()); err != nil {
		return err
	}
	w := &applyWork{opts: opts, plan: p, in: in, target: tg, kube: kc}
	if len(p.Steps) == 0 {
		// Nothing to write to Azure, so no lease; the status may still be
		// missing (a cluster CCM never finished, or one azsvc adopted).
		if opts.Output == "json" {
			// Scripts reading the JSON Lines still get their summary event.
			if err := execute(ctx, p, tg, opts); err != nil {
				return err
			}
		}
		return w.updateStatus(ctx, false)
	}
	if err := confirm(opts); err != nil {
		return err
	}
	return w.run(ctx)
}

// runApplySaved applies a plan saved by plan --out, after checking that
// nothing it touches changed since (exit 5 otherwise).
func runApplySaved(ctx context.Context, opts *applyOptions) error {
	saved, p, err := engine.LoadSaved(opts.PlanFile)
	if err != nil {
		return err
	}
	s := settings(opts.IO, nil, opts.Cluster, opts.Target)
	if s.AzureConfig == "" {
		return usageErrorf("applying a saved plan needs the cluster configuration too: pass --config azure.json")
	}
	kc, err := opts.Kube.connect()
	if err != nil {
		return err
	}
	in, err := engine.LoadConfigOnly(s)
	if err != nil {
		return err
	}
	tg, err := engine.OpenTarget(ctx, s, in)
	if err != nil {
		return err
	}
	defer tg.Close()
	if err := engine.CheckSaved(ctx, saved, tg); err != nil {
		return applyError(err)
	}
	if len(p.Steps) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "No changes. Azure networking matches the Services.")
		return nil
	}
	in.Scope = saved.Scope
	w := &applyWork{opts: opts, plan: p, in: in, target: tg, kube: kc}
	return w.run(ctx)
}

// confirm asks "Do you want to perform these actions?" on a terminal; with
// no terminal it refuses unless --auto-approve (never waits on a pipe).
func confirm(opts *applyOptions) error {
	tty := opts.IO.InTTY && opts.IO.ErrTTY && opts.Output != "json"
	if tty && !opts.AutoApprove {
		fmt.Fprint(opts.IO.ErrOut, "\nDo you want to perform these actions?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ")
	}
	d, err := apply.Confirm(opts.IO.In, apply.ConfirmOptions{TTY: tty, AutoApprove: opts.AutoApprove})
	switch {
	case errors.Is(err, apply.ErrNoTTY):
		return usageErrorf("%w", err)
	case err != nil:
		return err
	case d != apply.Proceed:
		fmt.Fprintln(opts.IO.ErrOut, "Apply cancelled.")
		return withExitCode(exitRuntime, nil)
	}
	return nil
}

// execute runs the steps with progress on stderr (or JSON Lines on stdout).
func execute(ctx context.Context, p *plan.Plan, tg *engine.Target, opts *applyOptions) error {
	var obs interface {
		apply.Observer
		Err() error
	}
	interval := 10 * time.Second
	if opts.Output == "json" {
		obs = applyview.NewJSON(opts.IO.Out)
	} else {
		tty := opts.IO.ErrTTY
		if tty {
			interval = 250 * time.Millisecond
		}
		obs = applyview.NewHuman(opts.IO.ErrOut, applyview.HumanOptions{TTY: tty})
	}
	_, err := apply.Run(ctx, p, tg.Provider, apply.Options{Observer: obs, ProgressInterval: interval})
	if err != nil {
		return applyError(err)
	}
	return obs.Err()
}

// applyError maps the executor's error kinds to exit codes. A stale
// resource found after some steps were applied is a partial apply (exit 7):
// exit 5 promises that nothing changed.
func applyError(err error) error {
	var ae *apply.Error
	partial := errors.As(err, &ae) && ae.Result != nil && len(ae.Result.Applied) > 0
	switch {
	case errors.Is(err, apply.ErrLockLost) && partial:
		return withExitCode(exitPartial, err)
	case errors.Is(err, apply.ErrLockLost):
		return withExitCode(exitRuntime, err)
	case errors.Is(err, apply.ErrStale) && partial:
		return withExitCode(exitPartial, err)
	case errors.Is(err, apply.ErrStale):
		return withExitCode(exitStale, err)
	case errors.Is(err, apply.ErrInterrupted):
		return withExitCode(exitInterrupted, err)
	case errors.Is(err, apply.ErrPartial):
		return withExitCode(exitPartial, err)
	}
	return err
}
