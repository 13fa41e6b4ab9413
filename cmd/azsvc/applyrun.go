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

func runApply(ctx context.Context, opts *applyOptions) (err error) {
	if opts.PlanFile != "" {
		return runApplySaved(ctx, opts)
	}
	if opts.Cluster.AzureConfig == "" { // before reaching the cluster
		return noAzureConfig()
	}
	kc, live, err := clusterInput(ctx, opts.IO, opts.Kube, allKinds, opts.Target.Verbose > 0)
	if err != nil {
		return err
	}
	in, err := loadInputs(ctx, opts.IO, opts.inputOptions, opts.Cluster, opts.Target, live)
	if err != nil {
		return err
	}
	if err := opts.inputRefused(in); err != nil {
		return err
	}
	tg, p, res, err := planTarget(ctx, in, settings(opts.IO, opts.inputOptions, opts.Cluster, opts.Target))
	refused := refusal(err)
	if err != nil && refused == nil {
		return err
	}
	defer func() { err = joinClose(err, closeTarget(tg, opts.IO, opts.Target)) }()
	if err := opts.inputRefused(in); err != nil { // found with ARM's help: a UID Azure cannot tell (adoptUIDs)
		return err
	}
	// The plan goes to stderr under -o json, which keeps stdout JSON Lines.
	planOut := opts.IO.Out
	if opts.Output == "json" {
		planOut = opts.IO.ErrOut
	}
	view := engine.View(p, in, tg, opts.Files)
	view.Header.Settings = settingsNotes(opts.Target.Origins, opts.Target.Prune, opts.AutoApprove)
	if err := planview.Text(planOut, view, opts.IO.OutStyle()); err != nil {
		return err
	}
	if refused != nil {
		return &reported{refused} // the plan lists the refusals; nothing is applied
	}
	if err := opts.refuseBlocked(p); err != nil {
		return err
	}
	if err := refuseUnresolved(p); err != nil {
		return err
	}
	w := &applyWork{opts: opts, plan: p, in: in, target: tg, kube: kc, fresh: func(ctx context.Context) error {
		return engine.CheckFresh(ctx, p, res, in, tg)
	}}
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
	if err := confirm(opts, view); err != nil {
		return err
	}
	return w.run(ctx)
}

// runApplySaved applies a plan saved by plan --out once it made the plan
// again from the inputs the file records and got exactly the same steps
// (exit 5 otherwise), and once someone approved it: a saved plan is asked
// for on a terminal like a fresh one, and without a terminal it needs
// --auto-approve (exit 64), which is stricter than Terraform on purpose.
func runApplySaved(ctx context.Context, opts *applyOptions) (err error) {
	saved, p, err := loadSaved(ctx, opts.PlanFile)
	if err != nil {
		if manifest := notSavedPlan(opts.PlanFile, "azsvc apply", err); manifest != nil {
			return manifest
		}
		return err
	}
	if err := savedPrune(opts.PlanFile, saved.Sources); err != nil {
		return err
	}
	s := settings(opts.IO, inputOptions{}, opts.Cluster, opts.Target)
	if err := engine.TargetOfSaved(&s, saved); err != nil {
		return err
	}
	kc, err := opts.savedCluster(saved.Sources.Cluster)
	if err != nil {
		return err
	}
	in, err := engine.InputsFromSaved(saved, s)
	if err != nil {
		return err
	}
	if err := opts.inputRefused(in); err != nil {
		return err
	}
	tg, err := engine.OpenTarget(ctx, s, in)
	if err != nil {
		return err
	}
	defer func() { err = joinClose(err, closeTarget(tg, opts.IO, opts.Target)) }()
	if err := engine.CheckSaved(ctx, saved, in, tg); err != nil {
		return err
	}
	// What is approved is shown first, as for a fresh plan: the saved
	// plan, which CheckSaved just found to be the plan made now. Under
	// -o json it goes to stderr, which keeps stdout JSON Lines.
	planOut := opts.IO.Out
	if opts.Output == "json" {
		planOut = opts.IO.ErrOut
	}
	view := engine.View(p, in, tg, saved.Sources.Files)
	view.Header.Settings = settingsNotes(opts.Target.Origins, false, opts.AutoApprove) // the file has its own --prune
	if err := planview.Text(planOut, view, opts.IO.OutStyle()); err != nil {
		return err
	}
	if err := opts.refuseBlocked(p); err != nil {
		return err
	}
	if err := refuseUnresolved(p); err != nil {
		return err
	}
	if len(p.Steps) == 0 {
		return nil
	}
	if err := confirm(opts, view); err != nil {
		return err
	}
	w := &applyWork{opts: opts, plan: p, in: in, target: tg, kube: kc, fresh: func(ctx context.Context) error {
		return engine.CheckSaved(ctx, saved, in, tg)
	}}
	return w.run(ctx)
}

// inputRefused reports in's findings when they stop apply before anything
// is written: errors, or warnings under --fail-on warning (exit 4).
func (o *applyOptions) inputRefused(in *engine.Inputs) error {
	switch {
	case in.HasErrors():
		reportDiagnostics(o.IO, in)
		return &reported{errInvalidInput}
	case o.FailOn.failsOnWarnings(in.Diagnostics):
		reportDiagnostics(o.IO, in)
		return failedOnWarnings(o.IO, in.Diagnostics, "nothing was applied")
	}
	return nil
}

// refuseBlocked refuses, before anything is written, a plan whose blocked
// changes leave Services without what they ask for, unless --allow-blocked.
func (o *applyOptions) refuseBlocked(p *plan.Plan) error {
	if o.AllowBlocked {
		return nil
	}
	return failedOnBlocked(o.IO, p, "nothing was applied (--allow-blocked applies the rest)")
}

// confirm asks "Do you want to perform these actions in subscription …
// (resource groups …)?" on a terminal; with no terminal it refuses unless
// --auto-approve (never waits on a pipe).
func confirm(opts *applyOptions, view planview.Input) error {
	tty := opts.IO.InTTY && opts.IO.ErrTTY && opts.Output != "json"
	if tty && !opts.AutoApprove {
		q := planview.ApplyQuestion(plan.WriteScopes(view.Plan, view.Header.Subscription))
		fmt.Fprintf(opts.IO.ErrOut, "\n%s\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ", q)
	}
	d, err := apply.Confirm(opts.IO.In, apply.ConfirmOptions{TTY: tty, AutoApprove: opts.AutoApprove})
	switch {
	case errors.Is(err, apply.ErrNoTTY):
		return usageErrorf("%w", err)
	case err != nil:
		return err
	case d != apply.Proceed:
		fmt.Fprintln(opts.IO.ErrOut, "Apply cancelled.")
		return &reported{errNotApproved}
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
	// Apply paces itself to ARM's write budget (5-minute window) or to the
	// local emulator's, when one was given.
	pacing := apply.Pacing{Window: opts.Target.Budget.Window}
	_, err := apply.Run(ctx, p, tg.Provider, apply.Options{Observer: obs, ProgressInterval: interval, Pacing: pacing})
	if err != nil {
		return err
	}
	return obs.Err()
}
