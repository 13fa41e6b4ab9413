package main

import (
	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// inputOptions are the manifest inputs every command that reads Services
// shares.
type inputOptions struct {
	Files []string
	// Focus narrows plan and apply to some Services (--service, -n, -l).
	Focus engine.Focus
	// MaxInputSize bounds each file and standard input, in bytes.
	MaxInputSize byteSize
}

// addFileFlag adds -f, in kubectl's spelling, and --max-input-size.
func addFileFlag(cmd *cobra.Command, o *inputOptions) {
	cmd.Flags().StringSliceVarP(&o.Files, "filename", "f", nil,
		"manifest files or directories (recursive: *.yaml, *.yml, *.json); - reads stdin; repeatable")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	o.MaxInputSize = byteSize(service.DefaultMaxInputSize)
	cmd.Flags().Var(&o.MaxInputSize, "max-input-size",
		"refuse any manifest file or stdin larger than this (e.g. 64Mi, 200M, 1Gi)")
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

// targetOptions say where the current Azure state is read from and written
// to (engine.TargetRule).
type targetOptions struct {
	// Target is auto, azure or emulator.
	Target string
	// State is the local emulator's state file; set, it selects the
	// emulator.
	State string
	// ARMEndpoint and ARMToken target any ARM-compatible endpoint.
	ARMEndpoint string
	ARMToken    string
	// Prune allows deleting azsvc-owned resources of Services absent from
	// the input.
	Prune bool
	// AllowEmptyInput lets --prune run on an input without Services.
	AllowEmptyInput bool
	// Seeds are ARM resource bodies the local emulator starts from
	// (subnets and public IPs the manifests reference): added when missing.
	Seeds []string
	// Origins says where each setting came from (command line, environment
	// or settings file), set when the command runs.
	Origins map[string]engine.Origin
	// EmulatorBudget limits the local emulator's writes (WRITES/WINDOW),
	// as ARM limits a subscription's: apply paces itself to it.
	EmulatorBudget string
	Budget         writeBudget // EmulatorBudget parsed, by complete
	// Verbose is the global -v count: at 1 or more the local emulator's
	// request counts are printed when the command is done.
	Verbose int
	// emulator, set by tests only, is an open emulator shared between
	// runs in one process (two applies racing for the lease).
	emulator *emulator.Emulator
}

func addTargetFlags(cmd *cobra.Command, o *targetOptions) {
	addReadTargetFlags(cmd, o)
	f := cmd.Flags()
	f.BoolVar(&o.Prune, "prune", false, "also delete azsvc-owned resources of Services that are not in the input")
	f.BoolVar(&o.AllowEmptyInput, "allow-empty-input", false, "with --prune, accept an input without any LoadBalancer Service or PrivateEndpoint (which deletes everything azsvc owns in scope)")
	f.StringArrayVar(&o.Seeds, "seed", nil, "on the local emulator: add these ARM resource bodies when missing (subnets, public IPs the manifests reference; az ... show -o json output); repeatable")
	_ = cmd.MarkFlagFilename("seed", "json")
	f.StringVar(&o.EmulatorBudget, "emulator-write-budget", "", "limit the local emulator to WRITES per WINDOW, e.g. 1000/5m, as ARM limits a subscription (default: no limit)")
}

// addReadTargetFlags adds the flags that choose the target alone: what a
// command that only reads it (status) takes.
func addReadTargetFlags(cmd *cobra.Command, o *targetOptions) {
	f := cmd.Flags()
	f.StringVar(&o.Target, "target", engine.TargetAuto, "where to plan and apply: auto (Azure when a subscription is known, else the local emulator), azure or emulator")
	f.StringVar(&o.State, "state", "", "state file of the local ARM emulator; selects the emulator (default .azsvc/state.json when the emulator is the target)")
	f.StringVar(&o.ARMEndpoint, "arm-endpoint", "", "target an ARM-compatible endpoint at this URL instead, e.g. the endpoint: azsvc emulator serve prints")
	f.StringVar(&o.ARMToken, "arm-token", "", "bearer token for --arm-endpoint (better: env AZSVC_ARM_TOKEN, which stays out of the process list)")
	_ = cmd.MarkFlagFilename("state", "json")
	_ = cmd.RegisterFlagCompletionFunc("target", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{engine.TargetAuto, engine.TargetAzure, engine.TargetEmulator}, cobra.ShellCompDirectiveNoFileComp
	})
}

// complete takes what the flags alone do not say: the global -v, and the
// parsed --emulator-write-budget.
func (o *targetOptions) complete(a *app) error {
	o.Verbose = a.global.Verbose
	b, err := parseWriteBudget("emulator-write-budget", o.EmulatorBudget)
	o.Budget = b
	return err
}
