package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/scalegen"
)

type benchFixtureOptions struct {
	IO *IOStreams

	Services     int
	BaseConfig   string
	Out          string
	ChangedEvery int
}

// newBenchFixtureCmd is hidden: it writes the inputs of scripts/bench.sh,
// so the scale table is measured through the CLI like any user run.
func newBenchFixtureCmd(a *app) *cobra.Command {
	opts := &benchFixtureOptions{IO: a.io}
	cmd := &cobra.Command{
		Use:    "bench-fixture -n N --out DIR",
		Short:  "Write N generated Services and a 20-LB azure.json for the scale benchmark",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return runBenchFixture(opts)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&opts.Services, "services", "n", 1000, "how many Services")
	f.StringVar(&opts.BaseConfig, "config", "examples/azure.json", "the azure.json to extend with 20 standard load balancers")
	f.StringVar(&opts.Out, "out", "", "directory for services.yaml and azure.json (created when missing)")
	f.IntVar(&opts.ChangedEvery, "changed-every", 0, "change the port of every Nth Service (100 is 1% changed)")
	return cmd
}

func runBenchFixture(opts *benchFixtureOptions) error {
	if opts.Out == "" {
		return usageErrorf("--out DIR is required")
	}
	if opts.Services <= 0 {
		return usageErrorf("-n %d: want at least one Service", opts.Services)
	}
	base, err := os.ReadFile(opts.BaseConfig)
	if err != nil {
		return fmt.Errorf("read base configuration: %w", err)
	}
	cfg, err := scalegen.AzureJSON(base)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.BaseConfig, err)
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"azure.json":    append(cfg, '\n'),
		"services.yaml": scalegen.Manifests(opts.Services, opts.ChangedEvery),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(opts.Out, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(opts.IO.ErrOut, "wrote %d Services to %s (cluster name %s)\n", opts.Services, opts.Out, scalegen.ClusterName)
	return nil
}
