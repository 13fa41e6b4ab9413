package apply

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
)

// TestRunCtrlC cancels the run while write k is in flight: that write must
// finish (the fake fails a write whose context is cancelled), and nothing
// after it may start.
func TestRunCtrlC(t *testing.T) {
	all := []string{"pip/kubernetes-a1", "lb/kubernetes", "nsg/aks-agentpool-nsg"}
	for k := 1; k <= 3; k++ {
		ctx, cancel := context.WithCancel(context.Background())
		f := fixtureARM()
		f.onWrite = func(n int, _ *plan.Step) {
			if n == k {
				cancel()
			}
		}
		res, rec, err := run(t, ctx, fixturePlan(), f, newFakeClock())
		cancel()
		if got, want := addresses(res.Applied), all[:k]; !cmp.Equal(got, want) {
			t.Errorf("k=%d: applied %v, want %v", k, got, want)
		}
		if len(f.writes) != k || len(res.Failed) != 0 {
			t.Errorf("k=%d: %d writes, failed %v", k, len(f.writes), addresses(res.Failed))
		}
		outcome := rec.events[len(rec.events)-1].Summary.Outcome
		if k == len(all) {
			if err != nil || outcome != OutcomeComplete {
				t.Errorf("k=%d (last step): err %v, outcome %s; want a complete run", k, err, outcome)
			}
			continue
		}
		if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) || outcome != OutcomeInterrupted {
			t.Errorf("k=%d: err %v, outcome %s; want ErrInterrupted wrapping context.Canceled", k, err, outcome)
		}
		if got, want := addresses(res.NotAttempted), all[k:]; !cmp.Equal(got, want) {
			t.Errorf("k=%d: not attempted %v, want %v", k, got, want)
		}
	}
}

func TestRunCtrlCWhileWaitingToRetry(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, clock := fixtureARM(), newFakeClock()
	f.faults["lb/kubernetes"] = []error{throttled(30 * time.Second)}
	clock.onSleep = cancel
	res, _, err := run(t, ctx, fixturePlan(), f, clock)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if got := addresses(res.NotAttempted); !cmp.Equal(got, []string{"lb/kubernetes", "nsg/aks-agentpool-nsg"}) {
		t.Errorf("not attempted %v", got)
	}
	if len(f.writes) != 2 || len(clock.sleeps) != 0 {
		t.Errorf("%d writes, slept %v; want 2 writes and an abandoned wait", len(f.writes), clock.sleeps)
	}
}

func TestRunAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := fixtureARM()
	res, _, err := run(t, ctx, fixturePlan(), f, newFakeClock())
	if !errors.Is(err, ErrInterrupted) || len(f.writes) != 0 || len(res.NotAttempted) != 3 {
		t.Errorf("err %v, %d writes, %d not attempted", err, len(f.writes), len(res.NotAttempted))
	}
}

// TestRunProgressTicks: while a write is in flight apply emits apply_progress
// on each tick, with the elapsed time, between the step's start and end.
func TestRunProgressTicks(t *testing.T) {
	f, clock := fixtureARM(), newFakeClock()
	f.onWrite = func(_ int, s *plan.Step) {
		if s.Target.Kind == plan.KindLoadBalancer {
			for range 3 {
				clock.tick()
			}
			clock.advance(4 * time.Second)
		}
	}
	rec := &recorder{}
	_, err := Run(context.Background(), fixturePlan(), f, Options{Observer: rec, Clock: clock, ProgressInterval: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rec.events {
		if e.Address == "lb/kubernetes" {
			got = append(got, string(e.Type)+" "+e.Elapsed.String())
		}
	}
	want := []string{"apply_start 0s", "apply_progress 10s", "apply_progress 20s", "apply_progress 30s", "apply_complete 34s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lb events (-want +got):\n%s", diff)
	}
}
