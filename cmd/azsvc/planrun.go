package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/preflight"
	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/resolve"
	"github.com/azsvc/azsvc/render/planview"
)

func runPlan(ctx context.Context, opts *planOptions) (err error) {
	if opts.Base != "" {
		raiseGCTarget(os.LookupEnv, baseGCPercent)
	}
	if opts.Cluster.AzureConfig == "" { // before reaching the cluster
		return noAzureConfig()
	}
	if opts.Out != "" {
		if err := engine.CheckOutPath(opts.Out); err != nil {
			return err
		}
	}
	_, live, err := clusterInput(ctx, opts.IO, opts.Kube, allKinds, opts.Target.Verbose > 0)
	if err != nil {
		return err
	}
	in, err := loadInputs(ctx, opts.IO, opts.inputOptions, opts.Cluster, opts.Target, live)
	if err != nil {
		return err
	}
	var base *engine.Base
	if opts.Base != "" {
		if base, err = engine.ReadBase(ctx, opts.Base, settings(opts.IO, opts.inputOptions, opts.Cluster, opts.Target)); err != nil {
			return err
		}
	}
	tg, p, res, err := planTargetOrBase(ctx, in, base, settings(opts.IO, opts.inputOptions, opts.Cluster, opts.Target))
	refused := refusal(err)
	if err != nil && refused == nil {
		return err
	}
	defer func() { err = joinClose(err, closeTarget(tg, opts.IO, opts.Target)) }()
	view := engine.View(p, in, tg, opts.Files)
	view.Header.Settings = settingsNotes(opts.Target.Origins, opts.Target.Prune, false)
	if base != nil {
		view.Header.Base = base.Describe() + ": planned against what it builds, not against Azure"
	}
	if opts.Since != "" {
		if err := engine.SinceDrift(opts.Since, p, res, tg); err != nil {
			return &invalidInput{fmt.Errorf("--since %s: %w", opts.Since, err)}
		}
		view.Since = opts.Since
	}
	md := planview.MarkdownOptions{RunURL: ciRunURL(os.LookupEnv)}
	failWarn := opts.FailOn.failsOnWarnings(in.Diagnostics)
	switch {
	case opts.Out == "":
	case in.HasErrors() || refused != nil:
		fmt.Fprintf(opts.IO.ErrOut, "Not saved to %s: a plan with errors cannot be applied. Fix them and plan again.\n", opts.Out)
	case failWarn:
		fmt.Fprintf(opts.IO.ErrOut, "Not saved to %s: --fail-on warning, and the input has warnings.\n", opts.Out)
	}
	if opts.Out != "" && !in.HasErrors() && refused == nil && !failWarn {
		saved, err := engine.Save(opts.Out, p, res, in, tg, view.Since)
		if err != nil {
			return err
		}
		view.PlanID, md.Artifact = savedPlanID(saved), opts.Out
		fmt.Fprintf(opts.IO.ErrOut, "Saved the plan to %s. To make exactly these changes, run:\n  azsvc apply %s\n", opts.Out, opts.Out)
	}
	if err := writeSummary(opts.IO, opts.SummaryFile, opts.Output, view, &md); err != nil {
		return err
	}
	if err := renderPlan(opts.IO.Out, opts.Output, view, md, opts.IO); err != nil {
		return fmt.Errorf("write %s output: %w", opts.Output, err)
	}
	switch {
	case in.HasErrors():
		return &reported{errInvalidInput}
	case refused != nil:
		return &reported{refused} // the plan lists the refusals
	case failWarn:
		return failedOnWarnings(opts.IO, in.Diagnostics, "")
	case len(plan.FailingBlocks(p.Blocked)) > 0:
		return failedOnBlocked(opts.IO, p, "apply writes nothing unless --allow-blocked")
	case opts.DetailedExitcode && planview.Summarize(p).HasChanges:
		return &reported{errChangesPresent}
	}
	return nil
}

// writeSummary writes the whole plan to the summary file, when there is
// one, and adds it to the places the comment names. A step summary taken
// from the environment that cannot be written is a warning: the comment
// then does not name it.
func writeSummary(io *IOStreams, flag, format string, view planview.Input, md *planview.MarkdownOptions) error {
	f, ok := chooseSummaryFile(flag, format, os.LookupEnv)
	if !ok {
		return nil
	}
	place, err := f.write(view, *md)
	if err != nil {
		if !f.implicit {
			return err
		}
		fmt.Fprintf(io.ErrOut, "%s %s\n", io.ErrStyle().BoldYellow("warning:"), quote.Text(err.Error()))
		return nil
	}
	md.FullPlan = append(md.FullPlan, place)
	return nil
}

// planTarget opens the target and plans against it; the caller closes the
// target once done with the plan. A plan ARM would refuse comes back with
// the refusal as its error (see refusal): the plan lists why, for the
// caller to show.
func planTarget(ctx context.Context, in *engine.Inputs, s engine.Settings) (*engine.Target, *plan.Plan, *resolve.Resolved, error) {
	tg, err := engine.OpenTarget(ctx, s, in)
	if err != nil {
		return nil, nil, nil, err
	}
	p, res, err := engine.Plan(ctx, in, tg)
	if err != nil && refusal(err) == nil {
		tg.Close()
		return nil, nil, nil, err
	}
	return tg, p, res, err
}

// planTargetOrBase plans against the target, or, with a base, against what
// the base input builds in a throwaway emulator (engine.PlanBase).
func planTargetOrBase(ctx context.Context, in *engine.Inputs, base *engine.Base, s engine.Settings) (*engine.Target, *plan.Plan, *resolve.Resolved, error) {
	if base == nil {
		return planTarget(ctx, in, s)
	}
	seeds, err := engine.ReadSeeds(s.Seeds)
	if err != nil {
		return nil, nil, nil, err
	}
	p, res, tg, err := engine.PlanBase(ctx, base, in, seeds)
	if err != nil && refusal(err) == nil {
		if tg != nil {
			tg.Close()
		}
		return nil, nil, nil, err
	}
	return tg, p, res, err
}

// refusal is err when it says ARM would refuse the plan (exit 4), else nil.
func refusal(err error) error {
	if errors.Is(err, preflight.ErrRefused) {
		return err
	}
	return nil
}

// closeTarget saves and releases the local emulator's state and, with -v,
// prints how many requests it served (scripts/bench.sh reads the line).
func closeTarget(tg *engine.Target, io *IOStreams, t targetOptions) error {
	err := tg.Close()
	if t.Verbose > 0 && tg.Emulator != nil {
		fmt.Fprintf(io.ErrOut, "azsvc: emulator %s\n", tg.Emulator.Counters().Summary())
	}
	if err != nil {
		return fmt.Errorf("close %s: %w", tg.Describe(), err)
	}
	return nil
}

// joinClose adds a failure to close the target to the command's error,
// leaving the error as it was when closing succeeded.
func joinClose(err, closeErr error) error {
	if closeErr == nil {
		return err
	}
	return errors.Join(err, closeErr)
}

func renderPlan(w io.Writer, format string, view planview.Input, md planview.MarkdownOptions, io *IOStreams) error {
	switch format {
	case "json":
		return planview.JSON(w, view)
	case "markdown":
		return planview.Markdown(w, view, md)
	case "mermaid":
		return planview.Mermaid(w, view)
	}
	return planview.Text(w, view, io.OutStyle())
}

// savedPlanID is a short, stable name of a saved plan: the hash of its
// preconditions and inputs.
func savedPlanID(saved *planfile.Plan) string {
	var keys []string
	for k, v := range saved.Inputs {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	for _, pre := range saved.Preconditions {
		keys = append(keys, pre.Address+"="+pre.ContentHash)
	}
	return engine.HashStrings(keys)
}
