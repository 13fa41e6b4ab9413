package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/status"
	"github.com/azsvc/azsvc/providers/kube"
)

// applyWork is one confirmed apply: the plan, where it goes, and the
// cluster (nil when none is configured) it takes turns with.
type applyWork struct {
	opts *applyOptions
	plan *plan.Plan
	// fresh checks, once the lease is held, that the plan is still what
	// planning now would make (engine.CheckFresh, engine.CheckSaved).
	fresh  func(context.Context) error
	in     *engine.Inputs
	target *engine.Target
	kube   *kube.Client
}

// run makes the changes: under CCM's lease when a cluster is configured
// (ccm-semantics §7.1), checking first that nothing changed since the plan,
// then writing the Services' status when asked.
func (w *applyWork) run(ctx context.Context) error {
	if err := w.canUpdateStatus(ctx); err != nil {
		return err
	}
	if w.kube == nil {
		return w.execute(ctx, false)
	}
	lease := w.kube.Lease(kube.Holder())
	if w.opts.NoLock {
		w.warnHeld(ctx, lease)
		return w.execute(ctx, false)
	}
	errOut, st := w.opts.IO.ErrOut, w.opts.IO.ErrStyle()
	err := apply.WithLock(ctx, apply.LockOptions{
		Lock: lease,
		Lost: func(err error) {
			fmt.Fprintf(errOut, "%s %v; stopping after the write in flight\n", st.BoldRed("azsvc: error:"), err)
		},
		Released: func(err error) {
			if err != nil {
				fmt.Fprintf(errOut, "%s %v\n", st.BoldYellow("warning:"), err)
				return
			}
			if w.opts.Target.Verbose > 0 {
				fmt.Fprintf(errOut, "azsvc: released the lease %s\n", lease.Name())
			}
		},
	}, func(ctx context.Context) error {
		if w.opts.Target.Verbose > 0 {
			fmt.Fprintf(errOut, "azsvc: took the lease %s on %s as %s\n", lease.Name(), w.kube.Where(), kube.Holder())
		}
		return w.execute(ctx, true)
	})
	var held apply.Held
	if errors.As(err, &held) {
		return fmt.Errorf("not applying: %w", err)
	}
	return err
}

// execute runs the steps; with the lease held it first re-reads what the
// plan touches, so a change made before the lease was taken (by CCM, or an
// apply that just finished) is never overwritten (exit 5, nothing written).
// The cluster's Services are compared under --no-lock too, when the
// cluster can be read.
func (w *applyWork) execute(ctx context.Context, locked bool) error {
	if err := w.clusterFresh(ctx, locked); err != nil {
		return err
	}
	if locked {
		if err := w.fresh(ctx); err != nil {
			return err
		}
	}
	if err := execute(ctx, w.plan, w.target, w.opts); err != nil {
		return err
	}
	return w.updateStatus(ctx, len(w.plan.Steps) > 0)
}

// updateStatus writes status.loadBalancer.ingress of every cluster Service
// in the input whose ingress differs from what Azure now has, as CCM's
// service controller does after a reconcile. changed says Azure was
// written, which makes a failure here a partial apply (exit 7).
func (w *applyWork) updateStatus(ctx context.Context, changed bool) error {
	if !w.opts.UpdateStatus {
		return nil
	}
	if w.in.Cluster == nil {
		fmt.Fprintln(w.opts.IO.ErrOut, "note: --update-status without --from-cluster: the Services are not the cluster's, so no status is written")
		return nil
	}
	observed, err := w.target.Provider.Read(ctx, w.target.Read)
	if err != nil {
		return statusError(changed, fmt.Errorf("read %s for the Services' status: %w", w.target.Describe(), err))
	}
	u := statusUpdate{client: w.kube, ingress: status.New(w.in.Desired, observed)}
	u.run(ctx, w.in)
	errOut, st := w.opts.IO.ErrOut, w.opts.IO.ErrStyle()
	for _, n := range u.notes {
		fmt.Fprintf(errOut, "%s %s\n", st.Dim("note:"), n)
	}
	if u.written > 0 || w.opts.Target.Verbose > 0 {
		fmt.Fprintf(errOut, "Updated status.loadBalancer.ingress of %d Service(s); %d already up to date.\n", u.written, u.same)
	}
	if len(u.failed) > 0 {
		for _, f := range u.failed {
			fmt.Fprintf(errOut, "%s %v\n", st.BoldRed("azsvc: error:"), f)
		}
		return statusError(changed, fmt.Errorf("could not write the status of %d Service(s)", len(u.failed)))
	}
	return nil
}

// statusError is exit 7 when Azure was changed before the status failed
// (the apply is then partial), else exit 1.
func statusError(changed bool, err error) error {
	if changed {
		return &partialApply{err}
	}
	return err
}
