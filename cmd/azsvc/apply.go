package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

type applyOptions struct {
	IO *IOStreams

	// PlanFile is a plan saved by plan --out; when set, apply makes exactly
	// those changes and reads no manifests.
	PlanFile string
	inputOptions
	Cluster     clusterOptions
	Target      targetOptions
	AutoApprove bool
	Output      string
}

func newApplyCmd(a *app, runF func(context.Context, *applyOptions) error) *cobra.Command {
	opts := &applyOptions{IO: a.io}
	cmd := &cobra.Command{
		Use:   "apply [PLAN_FILE | -f FILE|DIR|- ...]",
		Short: "Make the Azure changes the Services need",
		Long: `Plan, show the plan, ask for confirmation, then make the changes one Azure
operation at a time, in plan order, with progress on stderr.

Given a plan saved by "azsvc plan --out FILE", apply makes exactly those
changes, after checking that nothing they touch changed since; if something
did, it refuses (exit 5) and you plan again.

` + engine.TargetRule + `

Without a terminal to confirm on, apply needs --auto-approve. A failure half
way stops at once and reports what was done (exit 7); running apply again
finishes the job.

ARM allows 1,000 Microsoft.Network writes per 5 minutes per subscription.
apply reads what is left after every write and, once the budget is spent,
waits for its earlier writes to leave the window instead of running into
429s; progress shows the waits and the expected time left.

Output formats: text (the default) and json (JSON Lines progress events).`,
		Example: `  # Plan, confirm, and apply the Services under deploy/
  azsvc apply -f deploy/ --config azure.json

  # Apply a plan reviewed in a pull request
  azsvc apply plan.json

  # In automation
  azsvc apply -f deploy/ --auto-approve -o json

  # Against a served emulator (azsvc emulator serve prints the endpoint and token)
  AZSVC_ARM_TOKEN=$TOKEN azsvc apply -f deploy/ --arm-endpoint http://127.0.0.1:8443 --auto-approve`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.PlanFile = args[0]
			}
			switch {
			case opts.PlanFile != "" && len(opts.Files) > 0:
				return usageErrorf("give either a saved plan file or -f manifests, not both")
			case opts.PlanFile == "":
				if err := requireFiles(opts.Files); err != nil {
					return err
				}
			}
			opts.Target.Origins = a.resolved.origins(cmd)
			if err := opts.Target.complete(a); err != nil {
				return err
			}
			return runCommand(a, cmd, opts, &opts.Output, runF, runApply)
		},
	}
	addFileFlag(cmd, &opts.inputOptions)
	addClusterFlags(cmd, &opts.Cluster)
	addTargetFlags(cmd, &opts.Target)
	cmd.Flags().BoolVar(&opts.AutoApprove, "auto-approve", false, "apply without asking for confirmation")
	return cmd
}
