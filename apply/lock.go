package apply

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Lock is the cluster-wide lease that the cloud controller manager and azsvc
// take turns on, so that apply never races CCM's reconcile of the same load
// balancers (ccm-semantics §7.1). providers/kube's Lease satisfies it.
type Lock interface {
	// Acquire takes the lease. When someone else holds it and it has not
	// expired, the error satisfies Held.
	Acquire(ctx context.Context) error
	// Renew extends the lease; an error means it may be lost.
	Renew(ctx context.Context) error
	// Release gives the lease back.
	Release(ctx context.Context) error
	// Name says which lease this is, for messages: "kube-system/aks-managed-resource-locker".
	Name() string
}

// Held is the error of Acquire when another holder has the lease.
type Held interface {
	error
	Holder() string
	Expires() time.Time
}

// ErrLockLost stops a run whose lease could not be renewed: another writer
// may take it, so the run stops after the write in flight.
var ErrLockLost = errors.New("lost the lease while applying")

// LockOptions tune WithLock. Lock is required.
type LockOptions struct {
	Lock Lock
	// RenewEvery is how often the lease is renewed while fn runs; default
	// one minute, well inside CCM's 900 s lease.
	RenewEvery time.Duration
	// ReleaseTimeout bounds the release, which runs even after ctx is
	// cancelled (Ctrl-C); default 15 s.
	ReleaseTimeout time.Duration
	Clock          Clock
	// Lost, when set, is told at once when a renewal fails (the run then
	// stops after the write in flight), so the user hears it then.
	Lost func(error)
	// Released, when set, is told how releasing went: nil, or a
	// *ReleaseError. A failed release does not change WithLock's error:
	// the changes fn made stand; the lease blocks CCM until it expires.
	Released func(error)
}

const (
	defaultRenewEvery     = time.Minute
	defaultReleaseTimeout = 15 * time.Second
)

// ReleaseError is a lease that could not be released after fn ran. The
// changes fn made stand; the lease blocks CCM until it expires.
type ReleaseError struct {
	Lock string
	Err  error
}

func (e *ReleaseError) Error() string {
	return fmt.Sprintf("could not release the lease %s: %v; the cloud controller manager waits until it expires", e.Lock, e.Err)
}

func (e *ReleaseError) Unwrap() error { return e.Err }

// WithLock takes the lock, runs fn while renewing the lock every
// RenewEvery, and releases it when fn returns, whatever fn returned: after
// a failure, and after ctx is cancelled too. If a renewal fails, fn's
// context is cancelled with ErrLockLost as its cause, so Run stops after
// the write in flight and its error wraps ErrLockLost.
//
// The error is Acquire's when the lock was not taken (nothing ran), else
// fn's; how the release went goes to o.Released.
func WithLock(ctx context.Context, o LockOptions, fn func(ctx context.Context) error) error {
	if o.RenewEvery <= 0 {
		o.RenewEvery = defaultRenewEvery
	}
	if o.ReleaseTimeout <= 0 {
		o.ReleaseTimeout = defaultReleaseTimeout
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if err := o.Lock.Acquire(ctx); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	renewDone := make(chan struct{})
	stopRenew := make(chan struct{})
	go func() {
		defer close(renewDone)
		renew(runCtx, o, stopRenew, cancel)
	}()
	err := fn(runCtx)
	close(stopRenew)
	<-renewDone
	if lost := context.Cause(runCtx); errors.Is(lost, ErrLockLost) && !errors.Is(err, ErrLockLost) {
		err = errors.Join(lost, err)
	}
	cancel(nil)
	relCtx, relCancel := context.WithTimeout(context.WithoutCancel(ctx), o.ReleaseTimeout)
	defer relCancel()
	var released error
	if rerr := o.Lock.Release(relCtx); rerr != nil {
		released = &ReleaseError{Lock: o.Lock.Name(), Err: rerr}
	}
	if o.Released != nil {
		o.Released(released)
	}
	return err
}

// renew renews the lock every o.RenewEvery until stop is closed; a failed
// renewal cancels the run with ErrLockLost.
func renew(ctx context.Context, o LockOptions, stop <-chan struct{}, cancel context.CancelCauseFunc) {
	ticks, stopTicks := o.Clock.Ticker(o.RenewEvery)
	defer stopTicks()
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-ticks:
			if err := o.Lock.Renew(ctx); err != nil {
				lost := fmt.Errorf("%w %s: %w", ErrLockLost, o.Lock.Name(), err)
				cancel(lost)
				if o.Lost != nil {
					o.Lost(lost)
				}
				return
			}
		}
	}
}
