package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/render/statusview"
)

// statusOptions are azsvc status's. (status.go is --update-status, which
// writes the Services' status in the cluster.)
type statusOptions struct {
	IO *IOStreams

	inputOptions
	Kube    kubeOptions
	Cluster clusterOptions
	Target  targetOptions
	Output  string
}

// errNotReady is a status with a condition that is not True: exit 3.
var errNotReady = errors.New("a condition is not True")

func newStatusCmd(a *app, runF func(context.Context, *statusOptions) error) *cobra.Command {
	opts := &statusOptions{IO: a.io}
	opts.Target.emulator = a.emulator
	cmd := &cobra.Command{
		Use:   "status [-f FILE|DIR|- ...] [--from-cluster]",
		Short: "Show what Azure holds for each Service and private endpoint, with conditions",
		Long: `Read Azure once and show, for each Service of the input, what Azure holds of
what it needs: its load balancers and frontend IPs (public address and DNS
name, or private address), public IPs, rules and probes, the NSG rules that
admit its traffic, backend pool members, and its private link service with
its alias and connections; for each PrivateEndpoint, the endpoint's private
IP and connection state, its zones, links and records. Nothing is changed.

Each Service and endpoint has conditions, as HyperShift shows them: True,
False or Unknown, with a reason and a message. LoadBalancerReady,
PublicIPReady, SecurityRulesReady and PrivateLinkServiceReady say that what
the Service needs is in Azure, with the addresses Azure assigns;
PrivateEndpointApproved and PrivateDNSReady the same of an endpoint. InSync
is False when a plan would change anything for it: status plans from the same
read, so it never disagrees with azsvc plan. Only the conditions that apply
are shown (a Service without a private link service has no
PrivateLinkServiceReady).

` + engine.TargetRule + `

Services without metadata.uid (a GitOps repository, helm template) are found
in Azure by the names CCM gave them, as plan finds them; one Azure holds
nothing for yet says so. --service, -n and -l show some Services only; with
--from-cluster, -n and -l choose what is read.

Exit status: 0 when every condition is True, 3 when any is False or Unknown
(azsvc help exit-codes).

Output formats: text (the default), wide (every detail: ARM IDs, rule and
probe settings, every NSG prefix and pool member, the private link service's
settings) and json (a versioned document).`,
		Example: `  # What Azure holds for every Service under deploy/, and whether it is ready
  azsvc status -f deploy/ --config azure.json

  # One Service, with every detail
  azsvc status -f deploy/ --config azure.json --service shop/web -o wide

  # In CI or a script: wait until a private endpoint is approved
  until azsvc status -f deploy/ --config azure.json -o json > status.json; do sleep 30; done

  # The Services of namespace web in the live cluster
  azsvc status --from-cluster -n web --config azure.json`,
		Args: inputArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Kube.check(opts.Files, false); err != nil {
				return err
			}
			opts.Focus = opts.Kube.focus()
			opts.Target.Origins = a.resolved.origins(cmd)
			if err := opts.Target.complete(a); err != nil {
				return err
			}
			return runCommand(a, cmd, opts, &opts.Output, runF, runStatus)
		},
	}
	addFileFlag(cmd, &opts.inputOptions)
	addKubeFlags(cmd, &opts.Kube)
	addFocusFlags(cmd, &opts.Kube)
	f := cmd.Flags()
	f.Lookup("service").Usage = "show only this Service (namespace/name; repeatable): the rest is read, not shown"
	f.Lookup("namespace").Usage = "with --from-cluster: the namespace to read (default: the context's); without: show only its Services"
	f.Lookup("selector").Usage = "with --from-cluster: read only Services with these labels; without: show only those (e.g. app=web,tier!=cache)"
	addClusterFlags(cmd, &opts.Cluster)
	addReadTargetFlags(cmd, &opts.Target)
	f.Lookup("target").Usage = "where to read: auto (Azure when a subscription is known, else the local emulator), azure or emulator"
	return cmd
}

func runStatus(ctx context.Context, opts *statusOptions) (err error) {
	if opts.Cluster.AzureConfig == "" { // before reaching the cluster
		return noAzureConfig()
	}
	_, live, err := clusterInput(ctx, opts.IO, opts.Kube, allKinds, opts.Target.Verbose > 0)
	if err != nil {
		return err
	}
	in, err := loadInputs(ctx, opts.IO, opts.inputOptions, opts.Cluster, opts.Target, live)
	if err != nil {
		return err
	}
	if in.HasErrors() { // Services with errors are not planned: their status would be made up
		reportDiagnostics(opts.IO, in)
		return &reported{errInvalidInput}
	}
	tg, err := engine.OpenTarget(ctx, settings(opts.IO, opts.inputOptions, opts.Cluster, opts.Target), in)
	if err != nil {
		return err
	}
	defer func() { err = joinClose(err, closeTarget(tg, opts.IO, opts.Target)) }()
	report, p, err := engine.Status(ctx, in, tg)
	if err != nil {
		return err
	}
	planView := engine.View(p, in, tg, opts.Files)
	view := statusview.Input{Report: report, Header: planView.Header, Sources: planView.Sources, Diagnostics: in.Diagnostics}
	w := opts.IO.Out
	switch opts.Output {
	case "json":
		err = statusview.JSON(w, view)
	default:
		err = statusview.Text(w, view, opts.IO.OutStyle(), statusview.Options{Wide: opts.Output == "wide"})
	}
	if err != nil {
		return fmt.Errorf("write %s output: %w", opts.Output, err)
	}
	reportDiagnostics(opts.IO, in)
	if !report.Ready() {
		return &reported{errNotReady}
	}
	return nil
}
