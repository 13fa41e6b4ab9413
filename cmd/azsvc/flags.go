package main

import (
	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/providers/azure/emulator"
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
	// emulator, set by tests only, is an open emulator shared between
	// runs in one process (two applies racing for the lease).
	emulator *emulator.Emulator
}

func addTargetFlags(cmd *cobra.Command, o *targetOptions) {
	f := cmd.Flags()
	f.StringVar(&o.State, "state", "", "state file of the local ARM emulator, the target when no subscription is set (default .azsvc/state.json)")
	f.BoolVar(&o.Prune, "prune", false, "also delete azsvc-owned resources of Services that are not in the input")
	_ = cmd.MarkFlagFilename("state", "json")
}
