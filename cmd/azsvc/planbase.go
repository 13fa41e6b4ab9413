package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// baseConflicts are the flags a base→head plan has no use for: it reads
// neither a cluster nor Azure nor a state file, and a plan made against a
// throwaway emulator is nothing to save or compare drift with.
var baseConflicts = []string{"from-cluster", "kubeconfig", "context", "target", "state", "arm-endpoint", "arm-token", "since", "out", "prune"}

// checkBase refuses --base with a flag that contradicts it (exit 64).
func (opts *planOptions) checkBase(cmd *cobra.Command) error {
	if opts.Base == "" {
		return nil
	}
	var given []string
	for _, name := range baseConflicts {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			given = append(given, "--"+name)
		}
	}
	if len(given) > 0 {
		return usageErrorf("--base plans against what the base builds in a throwaway emulator (offline, pruning what the head removed), so %s cannot go with it", strings.Join(given, ", "))
	}
	return nil
}
