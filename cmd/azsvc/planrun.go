package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/planview"
)

func runPlan(ctx context.Context, opts *planOptions) error {
	if opts.Cluster.AzureConfig == "" {
		return noAzureConfig()
	}
	_, live, err := clusterInput(ctx, opts.IO, opts.Kube, allKinds, opts.Verbose)
	if err != nil {
		return err
	}
	in, err := loadInputs(ctx, opts.IO, opts.Files, opts.Cluster, opts.Target, live)
	if err != nil {
		return err
	}
	tg, p, err := planTarget(ctx, in, settings(opts.IO, opts.Files, opts.Cluster, opts.Target))
	if err != nil {
		return err
	}
	defer tg.Close()
	view := engine.View(p, in, tg, opts.Files)
	if opts.Out != "" && !in.HasErrors() {
		saved, err := engine.Save(opts.Out, p, in, tg)
		if err != nil {
			return err
		}
		view.PlanID = savedPlanID(saved)
		fmt.Fprintf(opts.IO.ErrOut, "Saved the plan to %s. To make exactly these changes, run:\n  azsvc apply %s\n", opts.Out, opts.Out)
	}
	if err := renderPlan(opts.IO.Out, opts.Output, view, opts.IO); err != nil {
		return fmt.Errorf("write %s output: %w", opts.Output, err)
	}
	switch {
	case in.HasErrors():
		return withExitCode(exitInvalid, nil)
	case opts.DetailedExitcode && planview.Summarize(p).HasChanges:
		return withExitCode(exitChanges, nil)
	}
	return nil
}

// planTarget opens the target and plans against it; the caller closes the
// target once done with the plan.
func planTarget(ctx context.Context, in *engine.Inputs, s engine.Settings) (*engine.Target, *plan.Plan, error) {
	tg, err := engine.OpenTarget(ctx, s, in)
	if err != nil {
		return nil, nil, err
	}
	p, _, err := engine.Plan(ctx, in, tg)
	if err != nil {
		tg.Close()
		return nil, nil, planError(err)
	}
	return tg, p, nil
}

// planError maps a planner failure: a limit the plan would exceed is
// invalid input (exit 4), anything else a runtime error.
func planError(err error) error {
	if errors.Is(err, plan.ErrLimitExceeded) {
		return withExitCode(exitInvalid, err)
	}
	return err
}

func renderPlan(w io.Writer, format string, view planview.Input, io *IOStreams) error {
	switch format {
	case "json":
		return planview.JSON(w, view)
	case "markdown":
		return planview.Markdown(w, view, planview.MarkdownOptions{})
	}
	return planview.Text(w, view, io.OutStyle())
}

// savedPlanID is a short, stable name of a saved plan: the hash of its
// preconditions and inputs.
func savedPlanID(saved *plan.SavedPlan) string {
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
