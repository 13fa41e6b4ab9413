package main

import (
	"github.com/spf13/cobra"
)

// addFileFlag adds -f, the manifest input every command that reads
// Services shares, in kubectl's spelling.
func addFileFlag(cmd *cobra.Command, files *[]string) {
	cmd.Flags().StringSliceVarP(files, "filename", "f", nil,
		"manifest files or directories (recursive: *.yaml, *.yml, *.json); - reads stdin; repeatable")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
}

// requireFiles is the usage check for a missing -f.
func requireFiles(files []string) error {
	if len(files) == 0 {
		return usageErrorf("no input: give manifests with -f FILE|DIR|- (e.g. -f deploy/)")
	}
	return nil
}

// clusterOptions say which cluster and subscription the Services belong to;
// render, plan and apply share them.
type clusterOptions struct {
	AzureConfig  string
	ClusterName  string
	Subscription string
}

func addClusterFlags(cmd *cobra.Command, o *clusterOptions) {
	f := cmd.Flags()
	f.StringVar(&o.AzureConfig, "config", "", "the cloud provider's azure.json (resource group, location, VNet, LB SKU, ...)")
	// --azure-config is the name early builds used; kept so scripts work.
	f.StringVar(&o.AzureConfig, "azure-config", "", "")
	_ = f.MarkHidden("azure-config")
	f.StringVar(&o.ClusterName, "cluster-name", "", `cluster name, as the cloud provider's --cluster-name (default "kubernetes")`)
	f.StringVar(&o.Subscription, "subscription", "", "Azure subscription ID (default: azure.json's subscriptionId)")
	_ = cmd.MarkFlagFilename("config", "json")
}

// targetOptions say where the current Azure state is read from and written to.
type targetOptions struct {
	// State is the local emulator's state file, used when no subscription
	// is configured.
	State string
	// Prune allows deleting azsvc-owned resources of Services absent from
	// the input.
	Prune bool
	// EmulatorBudget limits the local emulator's writes (WRITES/WINDOW),
	// as ARM limits a subscription's: apply paces itself to it.
	EmulatorBudget string
	Budget         writeBudget // EmulatorBudget parsed, by complete
	// Verbose is the global -v count: at 1 or more the local emulator's
	// request counts are printed when the command is done.
	Verbose int
}

func addTargetFlags(cmd *cobra.Command, o *targetOptions) {
	f := cmd.Flags()
	f.StringVar(&o.State, "state", "", "state file of the local ARM emulator, the target when no subscription is set (default .azsvc/state.json)")
	f.BoolVar(&o.Prune, "prune", false, "also delete azsvc-owned resources of Services that are not in the input")
	f.StringVar(&o.EmulatorBudget, "emulator-write-budget", "", "limit the local emulator to WRITES per WINDOW, e.g. 1000/5m, as ARM limits a subscription (default: no limit)")
	_ = cmd.MarkFlagFilename("state", "json")
}

// complete takes what the flags alone do not say: the global -v, and the
// parsed --emulator-write-budget.
func (o *targetOptions) complete(a *app) error {
	o.Verbose = a.global.Verbose
	b, err := parseWriteBudget("emulator-write-budget", o.EmulatorBudget)
	o.Budget = b
	return err
}
