package apply

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
)

// fakeLock records calls; its errors are set per method.
type fakeLock struct {
	mu                           sync.Mutex
	calls                        []string
	acquireErr, renewErr, relErr error
	releaseCtxErr                error // ctx.Err() seen by Release
	renewed                      chan struct{}
}

func newFakeLock() *fakeLock { return &fakeLock{renewed: make(chan struct{}, 10)} }

func (l *fakeLock) record(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, s)
}

func (l *fakeLock) Acquire(context.Context) error { l.record("acquire"); return l.acquireErr }
func (l *fakeLock) Renew(context.Context) error {
	l.record("renew")
	l.mu.Lock()
	err := l.renewErr
	l.mu.Unlock()
	l.renewed <- struct{}{}
	return err
}
func (l *fakeLock) Release(ctx context.Context) error {
	l.record("release")
	l.releaseCtxErr = ctx.Err()
	return l.relErr
}
func (l *fakeLock) Name() string { return "kube-system/test-lease" }

func (l *fakeLock) Calls() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

type heldErr struct{}

func (heldErr) Error() string      { return "held by cloud-controller-manager" }
func (heldErr) Holder() string     { return "cloud-controller-manager" }
func (heldErr) Expires() time.Time { return time.Time{} }

func TestWithLock(t *testing.T) {
	errFn := errors.New("fn failed")
	tests := []struct {
		name      string
		lock      func() *fakeLock
		fn        error
		wantCalls []string
		wantRan   bool
		wantRel   string // Released's error; "" for a release that worked
		check     func(t *testing.T, err error)
	}{
		{
			name:      "held: nothing runs, nothing released",
			lock:      func() *fakeLock { l := newFakeLock(); l.acquireErr = heldErr{}; return l },
			wantCalls: []string{"acquire"},
			check: func(t *testing.T, err error) {
				var h Held
				if !errors.As(err, &h) || h.Holder() != "cloud-controller-manager" {
					t.Errorf("err = %v, want a Held error", err)
				}
			},
		},
		{
			name:      "success releases",
			lock:      newFakeLock,
			wantCalls: []string{"acquire", "release"},
			wantRan:   true,
			check: func(t *testing.T, err error) {
				if err != nil {
					t.Errorf("err = %v", err)
				}
			},
		},
		{
			name:      "failure releases and keeps fn's error",
			lock:      newFakeLock,
			fn:        errFn,
			wantCalls: []string{"acquire", "release"},
			wantRan:   true,
			check: func(t *testing.T, err error) {
				if !errors.Is(err, errFn) {
					t.Errorf("err = %v, want fn's", err)
				}
			},
		},
		{
			name:      "release failure is reported apart",
			lock:      func() *fakeLock { l := newFakeLock(); l.relErr = errors.New("503"); return l },
			fn:        errFn,
			wantCalls: []string{"acquire", "release"},
			wantRan:   true,
			wantRel:   "could not release the lease kube-system/test-lease: 503; the cloud controller manager waits until it expires",
			check: func(t *testing.T, err error) {
				var re *ReleaseError
				if !errors.Is(err, errFn) || errors.As(err, &re) {
					t.Errorf("err = %v, want fn's error alone", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.lock()
			ran := false
			released := "not called"
			o := LockOptions{Lock: l, Clock: newFakeClock(), Released: func(err error) {
				released = ""
				if err != nil {
					released = err.Error()
				}
			}}
			err := WithLock(context.Background(), o, func(context.Context) error {
				ran = true
				return tt.fn
			})
			if tt.wantRan && released != tt.wantRel {
				t.Errorf("Released told %q, want %q", released, tt.wantRel)
			}
			if ran != tt.wantRan {
				t.Errorf("fn ran = %v, want %v", ran, tt.wantRan)
			}
			if diff := cmp.Diff(tt.wantCalls, l.Calls()); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			tt.check(t, err)
		})
	}
}

// TestWithLockCtrlC: an interrupted apply still releases the lease, with a
// context that is not the cancelled one.
func TestWithLockCtrlC(t *testing.T) {
	l := newFakeLock()
	ctx, cancel := context.WithCancel(context.Background())
	f := fixtureARM()
	f.onWrite = func(n int, _ *plan.Step) {
		if n == 1 {
			cancel()
		}
	}
	err := WithLock(ctx, LockOptions{Lock: l, Clock: newFakeClock()}, func(ctx context.Context) error {
		_, err := Run(ctx, fixturePlan(), f, Options{Clock: newFakeClock()})
		return err
	})
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want an interrupted run", err)
	}
	if diff := cmp.Diff([]string{"acquire", "release"}, l.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if l.releaseCtxErr != nil {
		t.Errorf("release ran with a cancelled context: %v", l.releaseCtxErr)
	}
}

// TestWithLockRenewal: the lease is renewed on every tick; a failed renewal
// stops the run after the write in flight with ErrLockLost, not as Ctrl-C.
func TestWithLockRenewal(t *testing.T) {
	l := newFakeLock()
	clock := newFakeClock()
	f := fixtureARM()
	step := make(chan struct{})
	f.onWrite = func(n int, _ *plan.Step) {
		if n == 1 {
			step <- struct{}{} // let the test tick while write 1 is in flight
			<-step
		}
	}
	done := make(chan error, 1)
	lost := make(chan error, 1)
	var res *Result
	go func() {
		o := LockOptions{Lock: l, Clock: clock, Lost: func(err error) { lost <- err }}
		done <- WithLock(context.Background(), o, func(ctx context.Context) error {
			var err error
			res, err = Run(ctx, fixturePlan(), f, Options{Clock: newFakeClock()})
			return err
		})
	}()
	<-step
	waitTicker(t, clock)
	clock.tick()
	<-l.renewed
	l.mu.Lock()
	l.renewErr = fmt.Errorf("lease taken by cloud-controller-manager")
	l.mu.Unlock()
	clock.tick()
	<-l.renewed
	if err := <-lost; !errors.Is(err, ErrLockLost) {
		t.Errorf("Lost was told %v", err)
	}
	step <- struct{}{}
	err := <-done
	if !errors.Is(err, ErrLockLost) || errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrLockLost and not context.Canceled", err)
	}
	if got := addresses(res.Applied); !cmp.Equal(got, []string{"pip/kubernetes-a1"}) {
		t.Errorf("applied %v, want only the write in flight", got)
	}
	if diff := cmp.Diff([]string{"acquire", "renew", "renew", "release"}, l.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// waitTicker waits until WithLock has started its renewal ticker.
func waitTicker(t *testing.T, c *fakeClock) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		c.mu.Lock()
		ok := c.ticks != nil
		c.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the renewal ticker never started")
}
