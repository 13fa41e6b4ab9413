package main

import (
	"context"
	"fmt"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/render/diag"
)

// settings turns the shared flags into the engine's settings.
func settings(io *IOStreams, in inputOptions, c clusterOptions, t targetOptions) engine.Settings {
	return engine.Settings{
		Files:           in.Files,
		Focus:           in.Focus,
		MaxInputSize:    int64(in.MaxInputSize),
		Emulator:        t.emulator,
		Stdin:           io.In,
		AzureConfig:     c.AzureConfig,
		ClusterName:     c.ClusterName,
		Subscription:    c.Subscription,
		StatePath:       t.State,
		Prune:           t.Prune,
		AllowEmptyPrune: t.AllowEmptyInput,
		Seeds:           t.Seeds,
		Target:          t.Target,
		ARMEndpoint:     t.ARMEndpoint,
		ARMToken:        t.ARMToken,
		Origins:         t.Origins,

		EmulatorWriteBudget: t.Budget.Writes,
		EmulatorWriteWindow: t.Budget.Window,
	}
}

// loadInputs reads manifests and configuration and builds the desired
// state; reading stdin gives up on Ctrl-C like validate does.
func loadInputs(ctx context.Context, io *IOStreams, in inputOptions, c clusterOptions, t targetOptions, live *engine.Cluster) (*engine.Inputs, error) {
	if c.AzureConfig == "" {
		return nil, noAzureConfig()
	}
	loaded, err := interruptible(ctx, func() (*engine.Inputs, error) {
		s := settings(io, in, c, t)
		s.Cluster = live
		return engine.LoadInputs(s)
	})
	if err != nil {
		return nil, err
	}
	printNotes(io, loaded.Notes)
	return loaded, nil
}

// printNotes prints remarks about the configuration (ignored keys) on
// stderr.
func printNotes(io *IOStreams, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(io.ErrOut, "%s %s\n", io.ErrStyle().Dim("note:"), quote.Text(n))
	}
}

// noAzureConfig is the usage error of render, plan and apply without
// azure.json, checked before any cluster is read.
func noAzureConfig() error {
	return usageErrorf("no cluster configuration: pass --config azure.json (the cloud provider's config file), or set config: in azsvc.yaml")
}

// reportDiagnostics prints findings on stderr in validate's text form, so
// render, plan and apply show the same messages validate does.
func reportDiagnostics(io *IOStreams, in *engine.Inputs) {
	if len(in.Diagnostics) == 0 {
		return
	}
	_ = diag.Text(io.ErrOut, diag.Report{Diagnostics: in.Diagnostics, Sources: in.Service.Sources}, io.ErrStyle())
}
