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
	Kube        kubeOptions
	Cluster     clusterOptions
	Target      targetOptions
	AutoApprove bool
	// AllowBlocked applies a plan whose blocked changes leave Services
	// without what they ask for (plan.BlockCode.Fails): the rest of it.
	AllowBlocked bool
	// NoLock skips the lease CCM takes turns on.
	NoLock bool
	// UpdateStatus writes status.loadBalancer.ingress after a successful apply.
	UpdateStatus bool
	Output       string
	FailOn       failOn
}

func newApplyCmd(a *app, runF func(context.Context, *applyOptions) error) *cobra.Command {
	opts := &applyOptions{IO: a.io}
	opts.Target.emulator = a.emulator
	cmd := &cobra.Command{
		Use:   "apply [PLAN_FILE | -f FILE|DIR|- ... | --from-cluster]",
		Short: "Make the Azure changes the Services need",
		Long: `Plan, show the plan, ask for confirmation, then make the changes one Azure
operation at a time, in plan order, with progress on stderr.

Given a plan saved by "azsvc plan --out FILE", apply makes exactly those
changes, after checking that nothing they touch changed since; if something
did, it refuses (exit 5) and you plan again. Manifests go with -f, never as
the FILE argument.

` + engine.TargetRule + `

A plan with blocked changes that leave a Service without what its manifest
asks for (marked ✗: a missing subnet or public IP, a port taken on a shared
frontend, ...) is not applied (exit 4) unless --allow-blocked, which applies
the rest.

Without a terminal to confirm on, apply needs --auto-approve; any answer but
"yes" at the prompt writes nothing and exits 1 ("Apply cancelled."). A
failure half way stops at once and reports what was done (exit 7); running
apply again finishes the job.

ARM allows 1,000 Microsoft.Network writes per 5 minutes per subscription.
apply reads what is left after every write and, once the budget is spent,
waits for its earlier writes to leave the window instead of running into
429s; progress shows the waits and the expected time left.

When a cluster is configured (--from-cluster, --kubeconfig or --context),
apply takes turns with the cloud controller manager: before the first write it
takes CCM's own lock, the Lease kube-system/aks-managed-resource-locker, as
azsvc-<user>@<host>, renews it while applying, and releases it at the end,
also after a failure or Ctrl-C. If someone else holds it, apply refuses
(exit 1) and names the holder; --no-lock skips the lease. Once the lease is
held, apply checks that nothing it is about to change changed since the plan
(exit 5 otherwise). --update-status then writes status.loadBalancer.ingress
of the cluster's Services, as CCM would; the permission for it is checked
before the first write. With --no-lock, apply warns when someone holds the
lease, and still compares the cluster's Services when it can read them.

A plan saved --from-cluster goes back to the cluster it read: its recorded
context (or --context) in the kubeconfig found as for plan (--kubeconfig,
KUBECONFIG, ~/.kube/config, the Pod's service account). apply takes the lease
there and refuses the plan (exit 5) if a Service in the scope it read was
added, removed or changed since (UID, resourceVersion).

--prune with --from-cluster needs -A and no -l: with one namespace or a
selector, a Service outside the read looks deleted, so that is refused
(exit 64).

Output formats: text (the default) and json (JSON Lines progress events).`,
		Example: `  # Plan, confirm, and apply the Services under deploy/
  azsvc apply -f deploy/ --config azure.json

  # Apply a plan reviewed in a pull request
  azsvc apply plan.json

  # In automation
  azsvc apply -f deploy/ --auto-approve -o json

  # Against a served emulator (azsvc emulator serve prints the endpoint and token)
  AZSVC_ARM_TOKEN=$TOKEN azsvc apply -f deploy/ --arm-endpoint http://127.0.0.1:8443 --auto-approve

  # Take over from CCM on the live cluster, and publish the addresses
  azsvc apply --from-cluster -A --config azure.json --update-status`,
		Args: optionalPlanArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.PlanFile = args[0]
			}
			if err := opts.checkArgs(); err != nil {
				return err
			}
			if err := savedPlanFlags(a.resolved.origins(cmd), opts.PlanFile); err != nil {
				return err
			}
			opts.Focus = opts.Kube.focus()
			opts.Target.Origins = a.resolved.origins(cmd)
			if err := opts.Target.complete(a); err != nil {
				return err
			}
			return runCommand(a, cmd, opts, &opts.Output, runF, runApply)
		},
	}
	addFileFlag(cmd, &opts.inputOptions)
	addKubeFlags(cmd, &opts.Kube)
	addFocusFlags(cmd, &opts.Kube)
	addClusterFlags(cmd, &opts.Cluster)
	addTargetFlags(cmd, &opts.Target)
	addFailOnFlag(cmd, &opts.FailOn)
	f := cmd.Flags()
	f.BoolVar(&opts.AutoApprove, "auto-approve", false, "apply without asking for confirmation")
	f.BoolVar(&opts.AllowBlocked, "allow-blocked", false, "apply the rest of a plan whose blocked changes leave Services without what they ask for (exit 4 otherwise)")
	f.BoolVar(&opts.NoLock, "no-lock", false, "do not take the cloud controller manager's lease (kube-system/aks-managed-resource-locker)")
	f.BoolVar(&opts.UpdateStatus, "update-status", false, "after a successful apply, write status.loadBalancer.ingress of the cluster's Services, as CCM does")
	return cmd
}

// checkArgs is apply's usage check: a saved plan, or manifests and/or a
// cluster to read, and --update-status only where there are cluster
// Services to write.
func (o *applyOptions) checkArgs() error {
	switch {
	case o.PlanFile != "" && len(o.Files) > 0:
		return usageErrorf("give either a saved plan file or -f manifests, not both")
	case o.PlanFile != "" && o.Kube.FromCluster:
		return usageErrorf("a saved plan already has its Services (a plan made --from-cluster records the cluster's): --from-cluster does not apply to it")
	case o.UpdateStatus && !o.Kube.configured() && o.PlanFile == "":
		return usageErrorf("--update-status writes to a cluster: add --from-cluster (or --kubeconfig or --context)")
	case o.PlanFile != "":
		return o.Kube.check([]string{o.PlanFile}, true)
	}
	if err := o.Kube.check(o.Files, true); err != nil {
		return err
	}
	return o.Kube.checkPrune(o.Target.Prune)
}

// savedPlanFlags refuses, with a saved plan, the flags that shape a plan
// when given on the command line: the file records the ones it was made
// with, and apply makes exactly that plan again (a different --prune would
// be a different plan). The same settings from azsvc.yaml or the
// environment are for fresh plans and are not used.
func savedPlanFlags(origins map[string]engine.Origin, file string) error {
	if file == "" {
		return nil
	}
	for _, name := range []string{"prune", "allow-empty-input", "cluster-name", "service", "namespace", "selector", "max-input-size"} {
		if o, ok := origins[name]; ok && o.Rank == engine.RankFlag {
			return usageErrorf("--%s shapes a plan, and %s was made with its own: plan again with --%s instead", name, file, name)
		}
	}
	return nil
}
