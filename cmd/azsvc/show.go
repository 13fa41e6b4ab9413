package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/render/planview"
)

type showOptions struct {
	IO *IOStreams

	PlanFile    string
	SummaryFile string
	Output      string
}

func newShowCmd(a *app, runF func(context.Context, *showOptions) error) *cobra.Command {
	opts := &showOptions{IO: a.io}
	cmd := &cobra.Command{
		Use:   "show PLAN_FILE",
		Short: "Show a plan saved by azsvc plan --out, offline",
		Long: `Render a plan saved by "azsvc plan --out FILE" exactly as plan showed it: its
changes, the drift it found (plan --since), its findings, in text, JSON,
markdown or mermaid. show reads only the file: no Azure access, no configuration, no
credentials. A file changed since azsvc wrote it is refused (exit 5).

Output formats: text (the default), json (the plan document), markdown
(a pull request comment; with --summary-file or in GitHub Actions the whole
plan also goes to the summary file, as with plan) and mermaid (a flowchart,
one subgraph per subscription and resource group).`,
		Example: `  # Review a plan an earlier CI job saved
  azsvc show plan.json

  # Post it as a pull request comment
  azsvc show plan.json -o markdown > comment.md`,
		Args: savedPlanArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.PlanFile = args[0]
			return runCommand(a, cmd, opts, &opts.Output, runF, runShow)
		},
	}
	cmd.Flags().StringVar(&opts.SummaryFile, "summary-file", "", "also write the whole plan as markdown to this file (default with -o markdown: $GITHUB_STEP_SUMMARY, appended)")
	return cmd
}

// runShow renders a saved plan from the file alone: the recorded
// manifests and configuration give the header and the findings.
func runShow(ctx context.Context, opts *showOptions) error {
	saved, p, err := loadSaved(ctx, opts.PlanFile)
	if err != nil {
		if manifest := notSavedPlan(opts.PlanFile, "azsvc plan", err); manifest != nil {
			return manifest
		}
		return err
	}
	in, err := engine.InputsFromSaved(saved, engine.Settings{})
	if err != nil {
		return fmt.Errorf("%s: %w", opts.PlanFile, err)
	}
	view := engine.ViewFor(p, in, saved.Target, in.Files)
	view.PlanID, view.Since = savedPlanID(saved), saved.Since
	md := planview.MarkdownOptions{Artifact: opts.PlanFile, RunURL: ciRunURL(os.LookupEnv)}
	if err := writeSummary(opts.IO, opts.SummaryFile, opts.Output, view, &md); err != nil {
		return err
	}
	if err := renderPlan(opts.IO.Out, opts.Output, view, md, opts.IO); err != nil {
		return fmt.Errorf("write %s output: %w", opts.Output, err)
	}
	return nil
}
