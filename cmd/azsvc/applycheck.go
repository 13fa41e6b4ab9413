package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/providers/kube"
)

// canUpdateStatus checks, before anything is written, that --update-status
// will be allowed to write services/status in every namespace of the
// cluster's Services: found after the Azure writes, a missing permission
// made a partial apply (exit 7) of a run that could have been refused
// whole (exit 1).
func (w *applyWork) canUpdateStatus(ctx context.Context) error {
	if !w.opts.UpdateStatus || w.kube == nil || w.in.Cluster == nil {
		return nil
	}
	var namespaces []string
	for _, s := range w.in.Cluster.Snapshot.Services {
		if !slices.Contains(namespaces, s.Namespace) {
			namespaces = append(namespaces, s.Namespace)
		}
	}
	if len(namespaces) == 0 {
		return nil
	}
	slices.Sort(namespaces)
	if err := w.kube.CanUpdateStatus(ctx, namespaces); err != nil {
		return fmt.Errorf("not applying (--update-status): %w", err)
	}
	return nil
}

// warnHeld warns, under --no-lock, that someone holds the lease: apply
// goes ahead, but may race them. A lease that cannot be read is no warning:
// --no-lock is for clusters where azsvc may not touch it.
func (w *applyWork) warnHeld(ctx context.Context, lease *kube.Lease) {
	held, err := lease.Peek(ctx)
	if err != nil || held == nil {
		return
	}
	st := w.opts.IO.ErrStyle()
	fmt.Fprintf(w.opts.IO.ErrOut, "%s --no-lock: the lease %s is held by %q until %s (%s from now); applying anyway, while its holder may be changing Azure too\n",
		st.BoldYellow("warning:"), held.Lease, held.By, held.Until.UTC().Format(time.RFC3339), time.Until(held.Until).Round(time.Second))
}

// clusterFresh reads the cluster's Services again, in the scope the plan
// read, and refuses the plan (exit 5) when any of them changed since
// (engine.CheckCluster). Under the lease a failed read is an error; under
// --no-lock it is a warning and the comparison is skipped.
func (w *applyWork) clusterFresh(ctx context.Context, locked bool) error {
	if w.kube == nil || w.in.Cluster == nil {
		return nil
	}
	snap, err := w.kube.Read(ctx, kube.Kinds{})
	if err != nil && !locked {
		st := w.opts.IO.ErrStyle()
		fmt.Fprintf(w.opts.IO.ErrOut, "%s --no-lock: could not read the cluster's Services again to check they are the ones planned: %v\n", st.BoldYellow("warning:"), err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("check the cluster's Services are the ones planned: %w", err)
	}
	return engine.CheckCluster(w.in.Cluster, snap.Services)
}
