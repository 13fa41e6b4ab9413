package apply

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
)

// budgetARM is fakeARM behind a sliding-window write budget, as ARM counts
// Microsoft.Network writes (arm-rules §2.3): a write beyond the budget gets
// 429 with Retry-After, every write answer says how many are left.
type budgetARM struct {
	*fakeARM
	clock     *fakeClock
	budget    int
	window    time.Duration
	sent      []time.Time
	left      int
	throttled int
	writes    int
	// took is how long write n takes once ARM has counted it (default
	// 100ms), lag how long a request travels before ARM counts it.
	took func(n int) time.Duration
	lag  time.Duration
}

func (b *budgetARM) Write(ctx context.Context, step *plan.Step) (*plan.Resource, []*plan.Resource, error) {
	b.clock.advance(b.lag)
	now := b.clock.Now()
	for len(b.sent) > 0 && !b.sent[0].Add(b.window).After(now) {
		b.sent = b.sent[1:]
	}
	if len(b.sent) >= b.budget {
		b.throttled++
		b.left = 0
		return nil, nil, &armErr{status: 429, code: "TooManyRequests", retryAfter: b.sent[0].Add(b.window).Sub(now)}
	}
	b.sent = append(b.sent, now)
	b.left = b.budget - len(b.sent)
	b.writes++
	took := 100 * time.Millisecond
	if b.took != nil {
		took = b.took(b.writes)
	}
	b.clock.advance(took) // the rest of the write, after ARM counted it
	return b.fakeARM.Write(ctx, step)
}

func (b *budgetARM) RemainingWrites() (int, bool) { return b.left, true }

func pipSteps(n int) *plan.Plan {
	p := &plan.Plan{}
	for i := range n {
		id := plan.NewID("sub", "rg", plan.KindPublicIP, fmt.Sprintf("pip-%03d", i))
		pip := &plan.Resource{ID: id, Location: "westeurope", Properties: map[string]any{"ipAddress": plan.Unknown}}
		p.Steps = append(p.Steps, &plan.Step{Op: plan.OpPut, Target: id, Body: pip, Changes: []*plan.Change{created(pip)}})
	}
	return p
}

// Apply spends the budget, then waits for its own writes to leave the
// window instead of running into 429s: one long wait per spent budget, then
// short ones as the window's slots free one by one.
func TestPacingAvoidsThrottling(t *testing.T) {
	tests := []struct {
		name          string
		steps         int
		reserve       int
		wantLongWaits int
	}{
		{"fits the budget", 10, 0, 0},
		{"three and a half budgets", 35, 0, 3},
		{"with a reserve", 25, 2, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			arm := &budgetARM{fakeARM: newFakeARM(), clock: clock, budget: 10, window: time.Minute}
			rec := &recorder{}
			_, err := Run(context.Background(), pipSteps(tc.steps), arm, Options{Clock: clock, Observer: rec,
				Pacing: Pacing{Window: time.Minute, Reserve: tc.reserve}})
			if err != nil {
				t.Fatal(err)
			}
			if arm.throttled > 0 {
				t.Errorf("%d writes ran into 429", arm.throttled)
			}
			long := 0
			for _, w := range rec.events {
				if w.BudgetWait == 0 {
					continue
				}
				if w.BudgetWait > time.Second {
					long++
				}
				if w.BudgetWait > time.Minute || w.BudgetLeft > tc.reserve || w.ETA < w.BudgetWait {
					t.Errorf("wait before step %d: %s with %d left, ETA %s", w.Step, w.BudgetWait, w.BudgetLeft, w.ETA)
				}
			}
			if long != tc.wantLongWaits {
				t.Errorf("%d long budget waits, want %d", long, tc.wantLongWaits)
			}
			total := clock.Now().Sub(newFakeClock().Now())
			if minimum := time.Duration(tc.wantLongWaits) * time.Minute; total < minimum || total > minimum+10*time.Second {
				t.Errorf("%d writes took %s", tc.steps, total)
			}
		})
	}
}

// ARM counts a write some time after apply sends it and answers some time
// after that (a large LB PUT takes long), so writes leave ARM's window
// earlier than apply can tell from their answers, several at once after a
// wait; what ARM then says is left realigns apply's count, so it still never
// runs into a 429.
func TestPacingWithUnevenWrites(t *testing.T) {
	clock := newFakeClock()
	arm := &budgetARM{fakeARM: newFakeARM(), clock: clock, budget: 10, window: time.Minute, lag: 50 * time.Millisecond,
		took: func(n int) time.Duration { return time.Duration(n%7) * 300 * time.Millisecond }}
	if _, err := Run(context.Background(), pipSteps(60), arm, Options{Clock: clock, Pacing: Pacing{Window: time.Minute}}); err != nil {
		t.Fatal(err)
	}
	if arm.throttled > 0 {
		t.Errorf("%d writes ran into 429", arm.throttled)
	}
}

// Without pacing (or without rate-limit headers) the same run meets 429s
// and gets through on Retry-After alone.
func TestUnpacedRunsIntoThrottling(t *testing.T) {
	clock := newFakeClock()
	arm := &budgetARM{fakeARM: newFakeARM(), clock: clock, budget: 10, window: time.Minute}
	_, err := Run(context.Background(), pipSteps(15), arm, Options{Clock: clock, Pacing: Pacing{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	if arm.throttled == 0 {
		t.Fatal("no 429 without pacing: the test's budget does not bite")
	}
}

// The ETA of a long paced run counts the windows it still has to wait.
func TestETAUnderBudget(t *testing.T) {
	clock := newFakeClock()
	arm := &budgetARM{fakeARM: newFakeARM(), clock: clock, budget: 10, window: time.Minute}
	rec := &recorder{}
	if _, err := Run(context.Background(), pipSteps(40), arm, Options{Clock: clock, Observer: rec, Pacing: Pacing{Window: time.Minute}}); err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.events {
		if e.Type == EventComplete && e.Step == 5 {
			// 35 writes left, 5 of them in this window: 3 more windows.
			if e.ETA < 2*time.Minute || e.ETA > 4*time.Minute {
				t.Errorf("ETA after step 5 of 40: %s", e.ETA)
			}
		}
		if e.Type == EventComplete && e.Step == 40 && e.ETA != 0 {
			t.Errorf("ETA after the last step: %s", e.ETA)
		}
	}
}

// Ctrl-C during a wait for the budget stops the run before the step: it is
// not attempted, and the run reports an interruption.
func TestInterruptedWhilePacing(t *testing.T) {
	clock := newFakeClock()
	arm := &budgetARM{fakeARM: newFakeARM(), clock: clock, budget: 3, window: time.Minute}
	ctx, cancel := context.WithCancel(context.Background())
	clock.onSleep = cancel
	res, err := Run(ctx, pipSteps(5), arm, Options{Clock: clock, Pacing: Pacing{Window: time.Minute}})
	if !errors.Is(err, ErrInterrupted) || len(res.Applied) != 3 || len(res.NotAttempted) != 2 || arm.writes != 3 {
		t.Fatalf("err %v, %d applied, %d not attempted, %d writes; want interrupted after 3", err, len(res.Applied), len(res.NotAttempted), arm.writes)
	}
}
