package main

import (
	"context"

	"github.com/spf13/cobra"
)

type planOptions struct {
	IO *IOStreams

	Files            []string
	Kube             kubeOptions
	Verbose          bool
	Cluster          clusterOptions
	Target           targetOptions
	DetailedExitcode bool
	Out              string
	Output           string
}

func newPlanCmd(a *app, runF func(context.Context, *planOptions) error) *cobra.Command {
	opts := &planOptions{IO: a.io}
	opts.Target.emulator = a.emulator
	cmd := &cobra.Command{
		Use:   "plan [-f FILE|DIR|- ...] [--from-cluster]",
		Short: "Preview the Azure changes that would make Azure match the Services",
		Long: `Read the current Azure state, compare it with what the given Services need,
and print the changes, in the order apply would make them. Nothing is changed.

The target is Azure when a subscription is configured (--subscription, or
azure.json's subscriptionId), and otherwise the local ARM emulator with its
state in --state. The plan header always says which.

Only resources azsvc owns are changed; Services absent from the input are left
alone unless --prune is given. Changes that interrupt traffic are listed in
their own section.

With --from-cluster the Services come from the cluster (kubectl's --kubeconfig,
--context, -n, -A and -l choose it), with their real UIDs, so a cluster the
cloud controller manager built plans empty; manifests given with -f as well
replace the cluster's Service of the same namespace/name, as a pull request
would.

Output formats: text (the default), json (a versioned plan document) and
markdown (a pull request comment).`,
		Example: `  # Preview the changes for every Service under deploy/
  azsvc plan -f deploy/ --config azure.json

  # In CI: exit 2 when there are changes, and post the plan as a PR comment
  azsvc plan -f deploy/ --detailed-exitcode -o markdown > comment.md

  # Save the plan, to apply exactly it later
  azsvc plan -f deploy/ --out plan.json

  # Preview a pull request's manifests against the live cluster
  azsvc plan --from-cluster -A -f deploy/ --config azure.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Kube.check(opts.Files, false); err != nil {
				return err
			}
			opts.Verbose = a.global.Verbose > 0
			return runCommand(a, cmd, opts, &opts.Output, runF, runPlan)
		},
	}
	addFileFlag(cmd, &opts.Files)
	addKubeFlags(cmd, &opts.Kube)
	addClusterFlags(cmd, &opts.Cluster)
	addTargetFlags(cmd, &opts.Target)
	f := cmd.Flags()
	f.BoolVar(&opts.DetailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none")
	f.StringVar(&opts.Out, "out", "", "also save the plan to this file, for azsvc apply FILE")
	return cmd
}
