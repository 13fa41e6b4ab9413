package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

type planOptions struct {
	IO *IOStreams

	inputOptions
	Kube             kubeOptions
	Cluster          clusterOptions
	Target           targetOptions
	DetailedExitcode bool
	FailOn           failOn
	Out              string
	Output           string
	// Since is a saved plan whose record of what it would write the plan
	// compares ARM with, to show drift.
	Since string
	// SummaryFile receives the whole plan as markdown.
	SummaryFile string
	// Base is a directory or git revision: plan the input against what it
	// builds, in a throwaway emulator (a pull request's diff, offline).
	Base string
}

func newPlanCmd(a *app, runF func(context.Context, *planOptions) error) *cobra.Command {
	opts := &planOptions{IO: a.io}
	opts.Target.emulator = a.emulator
	cmd := &cobra.Command{
		Use:   "plan [-f FILE|DIR|- ...] [--from-cluster]",
		Short: "Preview the Azure changes that would make Azure match the Services",
		Long: `Read the current Azure state, compare it with what the given Services need,
and print the changes, in the order apply would make them. Nothing is changed.

` + engine.TargetRule + `

Only resources azsvc owns are changed; Services absent from the input are left
alone unless --prune is given. A change azsvc will not make is listed under
Blocked; one that leaves a Service without what its manifest asks for (marked
✗: a missing subnet or public IP, with a did-you-mean from what the plan read)
makes plan exit 4, with or without --detailed-exitcode. Changes that interrupt traffic are listed in
their own section. PrivateEndpoint objects in the input add private endpoints
and their private DNS records (azsvc help private-endpoints); Node and
EndpointSlice objects, or a cluster's, decide the members of IP-based backend
pools and the node addresses NSG rules allow (azsvc help nodes).

Drift: with --since PREVIOUS.json, the plan saved (plan --out) for the last
apply, the plan lists what changed outside azsvc since: every resource that
plan recorded it would write and that Azure now holds differently, with what
changed. Without it there is no drift section: a resource that differs from
the Services may have been edited in the manifests or in Azure, and the plan
says only that it differs.

With --from-cluster the Services come from the cluster (kubectl's --kubeconfig,
--context, -n, -A and -l choose it), with their real UIDs, so a cluster the
cloud controller manager built plans empty; manifests given with -f as well
replace the cluster's Service of the same namespace/name, as a pull request
would. --prune with --from-cluster needs the whole cluster read (-A, no -l):
with one namespace or a selector a Service outside the read would look
deleted, so that is refused (exit 64).

Values the API server assigns (a UID, a nodePort, a healthCheckNodePort) that
the manifests lack come from the cluster (--from-cluster), or from what Azure
holds for the Service; otherwise the plan shows them "(assigned by the API
server)" and apply refuses it. With --base DIR|REV the plan is against what
the base input builds in a throwaway emulator, offline: a pull request's diff
(DIR holds the base manifests; a git revision is read at the -f paths).

Every format starts with where the plan writes (each subscription and resource
group, the cluster's marked) and its Exposure: each Service whose reach
changes (internal ↔ public, ports on a public IP, NSG sources, private link
visibility), wider or narrower.

Output formats: text (the default), json (a versioned plan document),
markdown (a pull request comment of at most 60,000 characters: the summary
and exposure first, every disruptive and shared change in full, then the
Services by namespace; Services past the limit are counted per namespace, and
the comment says where the whole plan is) and mermaid (a flowchart: one
subgraph per subscription and resource group, the changes and their
references). The whole plan also goes, as markdown, to
--summary-file, or with -o markdown to $GITHUB_STEP_SUMMARY when set.`,
		Example: `  # Preview the changes for every Service under deploy/
  azsvc plan -f deploy/ --config azure.json

  # In CI: exit 2 when there are changes, and post the plan as a PR comment
  azsvc plan -f deploy/ --detailed-exitcode -o markdown --out plan.json > comment.md

  # What changed in Azure since the plan last applied
  azsvc plan -f deploy/ --since applied-plan.json

  # Save the plan, to apply exactly it later
  azsvc plan -f deploy/ --out plan.json

  # Rehearse on the local emulator although azure.json names a subscription
  azsvc plan -f deploy/ --config azure.json --target emulator

  # A pull request's diff, offline: the manifests against what origin/main builds
  azsvc plan --base origin/main -f deploy/ --config azure.json --detailed-exitcode

  # Preview a pull request's manifests against the live cluster
  azsvc plan --from-cluster -A -f deploy/ --config azure.json`,
		Args: inputArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Kube.check(opts.Files, false); err != nil {
				return err
			}
			if err := opts.Kube.checkPrune(opts.Target.Prune); err != nil {
				return err
			}
			opts.Focus = opts.Kube.focus()
			opts.Target.Origins = a.resolved.origins(cmd)
			if err := opts.Target.complete(a); err != nil {
				return err
			}
			if err := opts.checkBase(cmd); err != nil {
				return err
			}
			return runCommand(a, cmd, opts, &opts.Output, runF, runPlan)
		},
	}
	addFileFlag(cmd, &opts.inputOptions)
	addKubeFlags(cmd, &opts.Kube)
	addFocusFlags(cmd, &opts.Kube)
	addClusterFlags(cmd, &opts.Cluster)
	addTargetFlags(cmd, &opts.Target)
	addFailOnFlag(cmd, &opts.FailOn)
	f := cmd.Flags()
	f.BoolVar(&opts.DetailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none")
	f.StringVar(&opts.Out, "out", "", "also save the plan to this file, for azsvc apply FILE and azsvc show FILE")
	f.StringVar(&opts.Since, "since", "", "show drift: what changed outside azsvc since this saved plan (the one last applied) recorded it would write")
	f.StringVar(&opts.Base, "base", "", "plan against what this base builds instead of Azure: a directory of manifests, or a git revision (origin/main, HEAD~1) at which the -f paths are read; offline, in a throwaway emulator")
	f.StringVar(&opts.SummaryFile, "summary-file", "", "also write the whole plan as markdown to this file (default with -o markdown: $GITHUB_STEP_SUMMARY, appended)")

	return cmd
}
