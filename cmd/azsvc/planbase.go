package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

// baseConflicts are the flags a base→head plan has no use for: it reads
// neither a cluster nor Azure nor a state file, and a plan made against a
// throwaway emulator is nothing to save or compare drift with.
var baseConflicts = []string{"from-cluster", "kubeconfig", "context", "target", "state", "arm-endpoint", "arm-token", "since", "out", "prune"}

// checkBase refuses --base with a flag given on the command line that
// contradicts it (exit 64). The same settings from the environment or
// azsvc.yaml (target: azure, a state file) are the repository's defaults
// for its other plans, so a base→head plan leaves them aside.
func (opts *planOptions) checkBase(cmd *cobra.Command) error {
	if opts.Base == "" {
		return nil
	}
	var given []string
	for _, name := range baseConflicts {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed && opts.Target.Origins[name].Rank == engine.RankFlag {
			given = append(given, "--"+name)
		}
	}
	if len(given) > 0 {
		return usageErrorf("--base plans against what the base builds in a throwaway emulator (offline, pruning what the head removed), so %s cannot go with it", strings.Join(given, ", "))
	}
	return nil
}
