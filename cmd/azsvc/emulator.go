package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/providers/azure/emulator"
)

type emulatorServeOptions struct {
	IO *IOStreams

	State    string
	Listen   string
	TLS      bool
	CertFile string
	Seed     []string
	Stats    bool
	Polls    int
	Budget   string
}

func newEmulatorCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "emulator",
		Short: "Run the local ARM emulator that plan and apply use without a subscription",
		Long: `The local ARM emulator speaks Azure Resource Manager's REST protocol for the
resource types azsvc manages (load balancers, public IPs, NSGs, Private Link
Services, Private Endpoints, private DNS), enforcing what ARM enforces:
referential integrity, whole-body validation, limits, etags and long-running
operations. plan and apply use it in process when no subscription is set;
"emulator serve" exposes it on loopback for any ARM client.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newEmulatorServeCmd(a))
	return cmd
}

func newEmulatorServeCmd(a *app) *cobra.Command {
	opts := &emulatorServeOptions{IO: a.io}
	cmd := &cobra.Command{
		Use:   "serve --state FILE [--listen 127.0.0.1:PORT] [--tls]",
		Short: "Serve the ARM emulator over HTTP on loopback until interrupted",
		Long: `Serve the emulator's ARM endpoint on a loopback address, print the endpoint,
and run until Ctrl-C or SIGTERM, then save the state and exit.

Any ARM client works against it: a plain curl of an ARM URL, the Azure SDKs
(point the resource manager endpoint at the printed URL), or azsvc itself.
With --tls it serves HTTPS with a freshly generated self-signed certificate
(--cert-file writes it out so clients can trust it).

The state file holds every resource as GET returns it; writes go to a
journal next to it (STATE.journal) as they are made, folded into the state
file on shutdown. --write-budget limits writes as ARM limits a subscription,
--operation-polls makes long-running operations take polls as ARM's do, and
--stats prints the requests served on shutdown.`,
		Example: `  # Serve the state plan and apply use by default
  azsvc emulator serve --state .azsvc/state.json --listen 127.0.0.1:8443

  # ARM's write limit and in-progress operations, with request counts at the end
  azsvc emulator serve --write-budget 1000/5m --operation-polls 1 --stats

  # Then, from another shell
  curl 'http://127.0.0.1:8443/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Network/loadBalancers?api-version=2025-05-01'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEmulatorServe(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.State, "state", ".azsvc/state.json", "the emulator's state file (created when missing)")
	f.StringVar(&opts.Listen, "listen", "127.0.0.1:0", "loopback address to listen on (port 0 picks a free one)")
	f.BoolVar(&opts.TLS, "tls", false, "serve HTTPS with a generated self-signed certificate")
	f.StringVar(&opts.CertFile, "cert-file", "", "with --tls, write the certificate (PEM) to this file")
	f.StringSliceVar(&opts.Seed, "seed", nil, "ARM resource bodies to add first (e.g. az network ... show -o json output)")
	f.BoolVar(&opts.Stats, "stats", false, "print the request counts by method on shutdown")
	f.StringVar(&opts.Budget, "write-budget", "", "allow WRITES per WINDOW, e.g. 1000/5m as ARM allows Microsoft.Network, answering 429 past it (default: no limit)")
	f.IntVar(&opts.Polls, "operation-polls", 0, "status polls a long-running operation answers InProgress before it ends (0: writes end within their request)")
	_ = cmd.MarkFlagFilename("state", "json")
	return cmd
}

func runEmulatorServe(ctx context.Context, opts *emulatorServeOptions) error {
	if err := requireLoopback(opts.Listen); err != nil {
		return err
	}
	if opts.Polls < 0 {
		return usageErrorf("--operation-polls %d: want 0 or more", opts.Polls)
	}
	budget, err := parseWriteBudget("write-budget", opts.Budget)
	if err != nil {
		return err
	}
	if len(opts.Seed) > 0 {
		if err := seedState(opts.State, opts.Seed); err != nil {
			return err
		}
	}
	err = emulator.Serve(ctx, emulator.ServeOptions{
		Options: emulator.Options{StatePath: opts.State, InProgressPolls: opts.Polls, InstantOperations: opts.Polls <= 0,
			WriteBudget: budget.Writes, WriteWindow: budget.Window},
		Listen:   opts.Listen,
		TLS:      opts.TLS,
		CertFile: opts.CertFile,
		Stats:    opts.Stats,
	}, opts.IO.ErrOut)
	if ctx.Err() != nil && err == nil {
		// A clean shutdown on Ctrl-C is success: the state was saved.
		return nil
	}
	return err
}

// seedState adds bodies to the state file before serving.
func seedState(state string, files []string) error {
	emu, err := emulator.Open(emulator.Options{StatePath: state})
	if err != nil {
		return err
	}
	defer emu.Close()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read seed: %w", err)
		}
		if err := emu.Seed(data); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}

// requireLoopback refuses to serve the emulator beyond this machine: it
// accepts any bearer token, so on a network it would be a writable ARM
// endpoint for anyone.
func requireLoopback(listen string) error {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return usageErrorf("--listen %q: want HOST:PORT, e.g. 127.0.0.1:8443", listen)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return usageErrorf("--listen %q: port %q is not a port number", listen, port)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return usageErrorf("--listen %q: the emulator only serves on a loopback address (127.0.0.1, ::1 or localhost)", listen)
	}
	return nil
}
