package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/kube"
	"github.com/azsvc/azsvc/render/diag"
)

type validateOptions struct {
	IO    *IOStreams
	Build buildInfo
	// WorkDir is the working directory: SARIF reads relative file names
	// from it and makes URIs relative to its git work tree's root.
	WorkDir string

	inputOptions
	Kube    kubeOptions
	Verbose bool
	Output  string
	// AzureConfig, when set, is azure.json, checked as plan reads it.
	AzureConfig string
	FailOn      failOn
}

func newValidateCmd(a *app, runF func(context.Context, *validateOptions) error) *cobra.Command {
	opts := &validateOptions{IO: a.io, Build: a.build, WorkDir: a.dir}
	cmd := &cobra.Command{
		Use:   "validate [-f FILE|DIR|- ...] [--from-cluster]",
		Short: "Check Service manifests for Azure annotation mistakes, offline",
		Long: `Check the Azure settings of Kubernetes Services without any Azure access.

validate reads every Service of type LoadBalancer in the given files and
directories and reports, with file, line and column, every annotation the cloud
provider would ignore, reject or misread: unknown keys (with a suggestion),
values out of range, invalid CIDRs and IP addresses, values ARM would refuse as
names, labels or tags (or that would change a URL), duplicate keys, settings
ignored in context, and combinations that do not work together. PrivateEndpoint
objects (azsvc help private-endpoints) are checked too. Other documents and
other Services are skipped and counted; input with nothing to check at all
(an empty file, a chart that rendered nothing) is a warning, AZSVC3018.

Each file and stdin is read up to --max-input-size (default 64Mi); inside a
directory only regular files are read, and FIFOs, sockets and devices are
skipped with a warning.

With --from-cluster it checks the cluster's Services instead (or as well: -f
manifests replace the cluster's Service of the same namespace/name); their
findings point at cluster:<namespace>/<name>.

With --config azure.json it also reads the cloud provider's configuration as
render, plan and apply do: an azure.json they would stop on stops validate too,
and a cluster in a mode azsvc does not plan (CCM's Service Gateway mode; see
azsvc help config) exits 4.

Findings go to stdout in the chosen format; a one-line summary goes to stderr.
The exit code is 4 when there is any error, 0 when there are only warnings;
with --fail-on warning (for CI, as tflint and kube-linter have it), warnings
exit 4 too.`,
		Example: `  # Validate every manifest under deploy/
  azsvc validate -f deploy/

  # Validate rendered Helm output from stdin
  helm template ./chart | azsvc validate -f -

  # Upload findings to GitHub code scanning
  azsvc validate -f deploy/ -o sarif > azsvc.sarif

  # In CI: fail on warnings as well as errors
  azsvc validate -f deploy/ --fail-on warning

  # Machine-readable findings, in Terraform's validate -json shape
  azsvc validate -f deploy/ -o json

  # The Services of every namespace of the current kubectl context
  azsvc validate --from-cluster -A`,
		Args: inputArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Kube.check(opts.Files, false); err != nil {
				return err
			}
			opts.Verbose = a.global.Verbose > 0
			return runCommand(a, cmd, opts, &opts.Output, runF, runValidate)
		},
	}
	addFileFlag(cmd, &opts.inputOptions)
	addKubeFlags(cmd, &opts.Kube)
	cmd.Flags().StringVar(&opts.AzureConfig, "config", "", "the cloud provider's azure.json, to check it too (optional)")
	_ = cmd.MarkFlagFilename("config", "json")
	addFailOnFlag(cmd, &opts.FailOn)
	return cmd
}

func runValidate(ctx context.Context, opts *validateOptions) error {
	raiseGCTarget(os.LookupEnv, inputGCPercent)
	if err := checkAzureConfig(opts.IO, opts.AzureConfig); err != nil {
		return err
	}
	// Validation needs the Services only: no Nodes or EndpointSlices.
	_, live, err := clusterInput(ctx, opts.IO, opts.Kube, kube.Kinds{}, opts.Verbose)
	if err != nil {
		return err
	}
	in, err := loadServices(ctx, opts.inputOptions, opts.IO.In)
	if err != nil {
		return err
	}
	engine.Overlay(in, live)
	report := diag.Report{
		Diagnostics: append(in.Validate(), in.NothingChecked()...),
		Sources:     in.Sources,
		Checked:     len(in.Services),
		Endpoints:   len(in.Endpoints),
		Skipped:     make(map[string]int, len(in.Skipped)),
	}
	for reason, n := range in.Skipped {
		report.Skipped[string(reason)] = n
	}
	if err := renderReport(opts.IO.Out, report, opts); err != nil {
		return fmt.Errorf("write %s output: %w", opts.Output, err)
	}
	fmt.Fprintln(opts.IO.ErrOut, diag.Summary(report, opts.IO.ErrStyle()))
	if errs, _ := report.Counts(); errs > 0 {
		return &reported{errInvalidInput}
	}
	if opts.FailOn.failsOnWarnings(report.Diagnostics) {
		return failedOnWarnings(opts.IO, report.Diagnostics, "")
	}
	return nil
}

// checkAzureConfig stops validate where render, plan and apply would stop
// on the same azure.json, and prints the same notes; "" checks nothing.
func checkAzureConfig(io *IOStreams, path string) error {
	if path == "" {
		return nil
	}
	notes, err := engine.CheckConfig(path)
	if err != nil {
		return err
	}
	printNotes(io, notes)
	return nil
}

// loadServices is service.Load that gives up when ctx is cancelled: reading
// a terminal or a stalled pipe on stdin must not outlive Ctrl-C. Load has no
// side effects, so abandoning it is safe; the process exits right after.
func loadServices(ctx context.Context, o inputOptions, stdin io.Reader) (*service.Input, error) {
	type loaded struct {
		in  *service.Input
		err error
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	done := make(chan loaded, 1)
	go func() {
		in, err := service.LoadWith(o.Files, stdin, service.Options{MaxInputSize: int64(o.MaxInputSize)})
		done <- loaded{in, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case l := <-done:
		return l.in, l.err
	}
}

func renderReport(w io.Writer, r diag.Report, opts *validateOptions) error {
	switch opts.Output {
	case "json":
		return diag.JSON(w, r)
	case "sarif":
		return diag.SARIF(w, r, diag.SARIFOptions{
			Tool:    diag.Tool{Name: "azsvc", Version: opts.Build.Version, InformationURI: projectURL},
			Rules:   sarifRules(),
			BaseDir: workTreeRoot(opts.WorkDir),
			WorkDir: opts.WorkDir,
		})
	}
	return diag.Text(w, r, opts.IO.OutStyle())
}

// projectURL is where SARIF consumers and --help send people for more.
const projectURL = "https://github.com/azsvc/azsvc"

// sarifRules describes every diagnostic code, so code scanning shows a
// title for each alert.
func sarifRules() []diag.Rule {
	rules := service.Rules()
	out := make([]diag.Rule, len(rules))
	for i, r := range rules {
		out[i] = diag.Rule{ID: r.Code, Summary: r.Title, Description: r.Description, Help: r.Help, Level: r.Severity}
	}
	return out
}
