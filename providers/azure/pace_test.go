package azure_test

import (
	"context"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// Apply reads the emulator's x-ms-ratelimit-remaining-subscription-writes
// through the provider and paces itself: every write goes out once, none
// into a 429, and the run takes the windows the budget imposes.
func TestApplyPacesToTheWriteBudget(t *testing.T) {
	const budget, window, writes = 10, 400 * time.Millisecond, 25
	e := newEnv(t, emulator.Options{InstantOperations: true, WriteBudget: budget, WriteWindow: window})
	time.Sleep(window) // the baseline's writes leave the window
	p := &plan.Plan{}
	for _, s := range services("kubernetes", "nsg", 0, writes) {
		if s.Target.Kind == plan.KindPublicIP {
			p.Steps = append(p.Steps, s)
		}
	}
	c := e.emu.Counters()
	c.Reset()
	start := time.Now()
	_, err := apply.Run(context.Background(), p, e.p, apply.Options{Pacing: apply.Pacing{Window: window},
		Retry: apply.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatalf("apply under a write budget: %v\n%s", err, c)
	}
	if n := c.Writes(""); n != writes {
		t.Errorf("%d write requests for %d writes: pacing let some run into 429\n%s", n, writes, c)
	}
	if d, least := time.Since(start), 2*window; d < least {
		t.Errorf("%d writes under %d per %s took %s, want at least %s", writes, budget, window, d, least)
	}
	if left, ok := e.p.RemainingWrites(); !ok || left < 0 || left >= budget {
		t.Errorf("RemainingWrites() = %d, %v", left, ok)
	}
}
