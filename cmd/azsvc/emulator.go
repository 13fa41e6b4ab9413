package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

type emulatorServeOptions struct {
	IO *IOStreams

	State     string
	Listen    string
	TLS       bool
	CertFile  string
	Seed      []string
	Token     string
	Faults    string
	FaultSeed int64
	Stats     bool
	Polls     int
	Budget    string
	// Files and Cluster, with --config, seed the cluster baseline plan
	// and apply would seed in the embedded emulator.
	inputOptions
	Cluster clusterOptions
}

func newEmulatorCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "emulator",
		Short: "Run the local ARM emulator that plan and apply use without a subscription",
		Long: `The local ARM emulator speaks Azure Resource Manager's REST protocol for the
resource types azsvc manages (load balancers, public IPs, NSGs, Private Link
Services, Private Endpoints, private DNS), enforcing what ARM enforces:
referential integrity, whole-body validation, limits, etags and long-running
operations. plan and apply use it in process when it is the target;
"emulator serve" exposes it on loopback for any ARM client, azsvc included
(--arm-endpoint).`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newEmulatorServeCmd(a))
	return cmd
}

func newEmulatorServeCmd(a *app) *cobra.Command {
	opts := &emulatorServeOptions{IO: a.io}
	cmd := &cobra.Command{
		Use:   "serve [--state FILE] [--listen 127.0.0.1:PORT] [--token T] [--faults SPEC] [--config azure.json]",
		Short: "Serve the ARM emulator over HTTP on loopback until interrupted",
		Long: `Serve the emulator's ARM endpoint on a loopback address and print two lines
on stdout, "endpoint: URL" and "token: T"; run until Ctrl-C or SIGTERM, then
save the state and exit.

Every request must carry "Authorization: Bearer T" (401 otherwise), name a
loopback host in its Host header (DNS rebinding), and send JSON bodies as
application/json. The token is random unless --token fixes it. Any ARM client
works against it: curl, the Azure SDKs (point the resource manager endpoint at
the printed URL), or azsvc plan and apply with --arm-endpoint and --arm-token,
so several tools can share one emulator.

With --config (and -f), the cluster's resource group, VNet, subnet and NSG
(and the resource groups the Services name) are created first when missing,
as plan and apply do in the embedded emulator; any other subnet comes from
--seed (examples/emulator-seed.json holds the examples').
With --tls it serves HTTPS with a freshly generated self-signed certificate
(--cert-file writes it out so clients can trust it: SSL_CERT_FILE=FILE for Go
programs such as azsvc, NODE_EXTRA_CA_CERTS=FILE for Node.js ones such as the
Azure SDK for JavaScript).

Like ARM, it refuses a body with a member or value the resource provider does
not know (400 InvalidRequestFormat), an api-version the provider does not
serve, a body over 4 MB (413) and tags past ARM's limits; it holds at most 8
requests at once and answers more with 429 and Retry-After.

The state file holds every resource as GET returns it; writes go to a
journal next to it (STATE.journal) as they are made, folded into the state
file on shutdown. --write-budget limits writes as ARM limits a subscription,
--operation-polls makes long-running operations take polls as ARM's do, and
--stats prints the requests served on shutdown.

--faults injects failures into every request, to rehearse a pipeline against
throttling and transient errors: ` + emulator.FaultSpecHelp,
		Example: `  # Serve the example cluster, then plan and apply against it from another shell
  azsvc emulator serve --config examples/azure.json --listen 127.0.0.1:8443 --token dev-token
  AZSVC_ARM_TOKEN=dev-token azsvc --settings examples/azsvc.yaml apply -f examples/public-basic \
    --arm-endpoint http://127.0.0.1:8443 --auto-approve

  # Any ARM client: curl
  curl -H 'Authorization: Bearer dev-token' 'http://127.0.0.1:8443/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Network/loadBalancers?api-version=2025-05-01'

  # Rehearse against throttling and failing operations
  azsvc emulator serve --config examples/azure.json --faults 429:0.1,500:0.05,lro-fail:0.05,latency:50ms

  # ARM's write limit and in-progress operations, with request counts at the end
  azsvc emulator serve --write-budget 1000/5m --operation-polls 1 --stats`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEmulatorServe(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.State, "state", engine.DefaultStatePath, "the emulator's state file (created when missing)")
	f.StringVar(&opts.Listen, "listen", "127.0.0.1:0", "loopback address to listen on (port 0 picks a free one)")
	f.BoolVar(&opts.TLS, "tls", false, "serve HTTPS with a generated self-signed certificate")
	f.StringVar(&opts.CertFile, "cert-file", "", "with --tls, write the certificate (PEM) to this file")
	f.StringSliceVar(&opts.Seed, "seed", nil, "ARM resource bodies to add first (e.g. az network ... show -o json output)")
	f.StringVar(&opts.Token, "token", "", "the bearer token clients must send (default: a random one, printed)")
	f.StringVar(&opts.Faults, "faults", "", "inject faults, e.g. 429:0.1,500:0.05,lro-fail:0.05,latency:50ms")
	f.Int64Var(&opts.FaultSeed, "fault-seed", 1, "seed of the fault draws: the same seed and requests give the same faults")
	addFileFlag(cmd, &opts.inputOptions)
	f.StringVar(&opts.Cluster.AzureConfig, "config", "", "the cloud provider's azure.json: seed its resource group, VNet, subnet and NSG")
	f.StringVar(&opts.Cluster.ClusterName, "cluster-name", "", `cluster name, as the cloud provider's --cluster-name (default "kubernetes")`)
	f.StringVar(&opts.Cluster.Subscription, "subscription", "", "subscription to seed the baseline in (default: azure.json's subscriptionId)")
	f.BoolVar(&opts.Stats, "stats", false, "print the request counts by method on shutdown")
	f.StringVar(&opts.Budget, "write-budget", "", "allow WRITES per WINDOW, e.g. 1000/5m as ARM allows Microsoft.Network, answering 429 past it (default: no limit)")
	f.IntVar(&opts.Polls, "operation-polls", 0, "status polls a long-running operation answers InProgress before it ends (0: writes end within their request)")
	_ = cmd.MarkFlagFilename("state", "json")
	_ = cmd.MarkFlagFilename("config", "json")
	return cmd
}

func runEmulatorServe(ctx context.Context, opts *emulatorServeOptions) error {
	if err := requireLoopback(opts.Listen); err != nil {
		return err
	}
	faults, err := emulator.ParseFaults(opts.Faults)
	if err != nil {
		return usageErrorf("--faults: %w", err)
	}
	if opts.Polls < 0 {
		return usageErrorf("--operation-polls %d: want 0 or more", opts.Polls)
	}
	budget, err := parseWriteBudget("write-budget", opts.Budget)
	if err != nil {
		return err
	}
	if len(opts.Files) > 0 && opts.Cluster.AzureConfig == "" {
		return usageErrorf("-f seeds the resource groups the Services name, and needs --config azure.json for the rest")
	}
	var in *engine.Inputs
	if opts.Cluster.AzureConfig != "" {
		if in, err = loadInputs(ctx, opts.IO, opts.inputOptions, opts.Cluster, targetOptions{}, nil); err != nil {
			return err
		}
	}
	if dir := filepath.Dir(opts.State); opts.State != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create emulator state directory: %w", err)
		}
	}
	err = emulator.Serve(ctx, emulator.ServeOptions{
		Options: emulator.Options{StatePath: opts.State, Faults: faults, Seed: opts.FaultSeed,
			InProgressPolls: opts.Polls, InstantOperations: opts.Polls <= 0, WriteBudget: budget.Writes, WriteWindow: budget.Window},
		Listen:   opts.Listen,
		TLS:      opts.TLS,
		CertFile: opts.CertFile,
		Token:    opts.Token,
		Stats:    opts.Stats,
		Setup:    func(e *emulator.Emulator) error { return seed(e, in, opts.Seed) },
		Ready: func(s emulator.Served) {
			fmt.Fprintf(opts.IO.Out, "endpoint: %s\ntoken: %s\n", s.Endpoint, s.Token)
		},
	}, opts.IO.ErrOut)
	if ctx.Err() != nil && err == nil {
		// A clean shutdown on Ctrl-C is success: the state was saved.
		return nil
	}
	return err
}

// seed adds the cluster baseline (with --config) and the --seed bodies.
func seed(e *emulator.Emulator, in *engine.Inputs, files []string) error {
	if in != nil {
		if err := engine.SeedBaseline(e, in); err != nil {
			return err
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read seed: %w", err)
		}
		if err := e.Seed(data); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}

// requireLoopback refuses to serve the emulator beyond this machine: it
// is a writable ARM endpoint, and a bearer token over plain http is no
// protection on a network.
func requireLoopback(listen string) error {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return usageErrorf("--listen %q: want HOST:PORT, e.g. 127.0.0.1:8443", listen)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return usageErrorf("--listen %q: port %q is not a port number", listen, port)
	}
	if !cluster.IsLoopbackHost(host) {
		return usageErrorf("--listen %q: the emulator only serves on a loopback address (127.0.0.1, ::1 or localhost)", listen)
	}
	return nil
}
