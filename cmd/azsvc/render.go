package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/render/resources"
)

type renderOptions struct {
	IO *IOStreams

	inputOptions
	Kube    kubeOptions
	Verbose bool
	Cluster clusterOptions
	Output  string
	FailOn  failOn
}

func newRenderCmd(a *app, runF func(context.Context, *renderOptions) error) *cobra.Command {
	opts := &renderOptions{IO: a.io}
	cmd := &cobra.Command{
		Use:   "render [-f FILE|DIR|- ...] [--from-cluster]",
		Short: "Show the Azure resources the cloud provider would build for Services",
		Long: `Show, without any Azure access, the Azure resources the cloud controller
manager would build for the given Services: load balancers and their
frontends, rules, probes and backend pools, public IPs, NSG rules and Private
Link Services, named exactly as it names them.

Values only Azure can assign (a dynamic private IP, a new public IP address)
are shown as unknown.

With --from-cluster the Services are read from the cluster (with their UIDs,
so the names are the ones CCM uses there), -f manifests overriding them.

Output formats: text (a tree per Service, the default), json (ARM resource
bodies, as GET returns them), yaml, and mermaid (a graph for GitHub markdown).`,
		Example: `  # The resources for every Service under deploy/
  azsvc render -f deploy/ --config azure.json --cluster-name aks-prod

  # ARM JSON, e.g. to compare with az network lb show
  azsvc render -f deploy/ --config azure.json -o json

  # A diagram for a pull request description
  azsvc render -f deploy/svc.yaml --config azure.json -o mermaid

  # What CCM builds for the Services of namespace web in the live cluster
  azsvc render --from-cluster -n web --config azure.json`,
		Args: inputArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Kube.check(opts.Files, false); err != nil {
				return err
			}
			opts.Verbose = a.global.Verbose > 0
			return runCommand(a, cmd, opts, &opts.Output, runF, runRender)
		},
	}
	addFileFlag(cmd, &opts.inputOptions)
	addKubeFlags(cmd, &opts.Kube)
	addClusterFlags(cmd, &opts.Cluster)
	addFailOnFlag(cmd, &opts.FailOn)
	return cmd
}

func runRender(ctx context.Context, opts *renderOptions) error {
	if opts.Cluster.AzureConfig == "" { // before reaching the cluster
		return noAzureConfig()
	}
	_, live, err := clusterInput(ctx, opts.IO, opts.Kube, allKinds, opts.Verbose)
	if err != nil {
		return err
	}
	in, err := loadInputs(ctx, opts.IO, opts.inputOptions, opts.Cluster, targetOptions{}, live)
	if err != nil {
		return err
	}
	if in.HasErrors() {
		reportDiagnostics(opts.IO, in)
		return &reported{errInvalidInput}
	}
	if opts.FailOn.failsOnWarnings(in.Diagnostics) {
		reportDiagnostics(opts.IO, in)
		return failedOnWarnings(opts.IO, in.Diagnostics, "nothing was rendered")
	}
	w := opts.IO.Out
	switch opts.Output {
	case "json":
		err = resources.JSON(w, in.Desired)
	case "yaml":
		err = resources.YAML(w, in.Desired)
	case "mermaid":
		err = resources.Mermaid(w, in.Desired)
	default:
		err = resources.Text(w, in.Desired, opts.IO.OutStyle())
	}
	if err != nil {
		return fmt.Errorf("write %s output: %w", opts.Output, err)
	}
	reportDiagnostics(opts.IO, in)
	return nil
}
