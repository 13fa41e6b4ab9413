package apply

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func throttled(after time.Duration) error {
	return &armErr{status: 429, code: "TooManyRequests", msg: "throttled", retryAfter: after}
}

func unavailable() error { return &armErr{status: 503, code: "ServiceUnavailable", msg: "try later"} }

func lockConflict() error {
	return &armErr{status: 409, code: "AnotherOperationInProgress", msg: "Another operation on this or dependent resource is in progress."}
}

func TestRunRetries(t *testing.T) {
	tests := []struct {
		name     string
		faults   []error
		policy   RetryPolicy
		wantErr  error // nil: the step applies in the end
		attempts int
		sleeps   []time.Duration
	}{
		{name: "429 honours Retry-After", faults: []error{throttled(7 * time.Second)},
			attempts: 2, sleeps: []time.Duration{7 * time.Second}},
		{name: "Retry-After is clamped", faults: []error{throttled(10 * time.Minute)},
			attempts: 2, sleeps: []time.Duration{60 * time.Second}},
		{name: "503 backs off deterministically", faults: []error{unavailable(), unavailable(), unavailable()},
			attempts: 4, sleeps: []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}},
		{name: "409 AnotherOperationInProgress", faults: []error{lockConflict(), throttled(3 * time.Second)},
			attempts: 3, sleeps: []time.Duration{2 * time.Second, 3 * time.Second}},
		{name: "attempts run out", faults: []error{unavailable(), unavailable(), unavailable()},
			policy:  RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond},
			wantErr: ErrPartial, attempts: 3, sleeps: []time.Duration{time.Millisecond, 2 * time.Millisecond}},
		{name: "time budget runs out", faults: []error{throttled(40 * time.Second), throttled(40 * time.Second), throttled(40 * time.Second)},
			policy:  RetryPolicy{MaxElapsed: time.Minute},
			wantErr: ErrPartial, attempts: 2, sleeps: []time.Duration{40 * time.Second}},
		{name: "400 is never retried", faults: []error{&armErr{status: 400, code: "InvalidResourceReference", msg: "x"}},
			wantErr: ErrPartial, attempts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, clock := fixtureARM(), newFakeClock()
			f.faults["lb/kubernetes"] = tt.faults
			rec := &recorder{}
			res, err := Run(context.Background(), fixturePlan(), f, Options{Observer: rec, Clock: clock, Retry: tt.policy})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			lb := stepResult(res, "lb/kubernetes")
			if lb.Attempts != tt.attempts || f.writesTo("lb/kubernetes") != tt.attempts {
				t.Errorf("attempts %d (writes %d), want %d", lb.Attempts, f.writesTo("lb/kubernetes"), tt.attempts)
			}
			if !cmp.Equal(clock.sleeps, tt.sleeps) {
				t.Errorf("sleeps %v, want %v", clock.sleeps, tt.sleeps)
			}
			if retries := countEvents(rec, EventProgress); retries != len(tt.sleeps) {
				t.Errorf("%d retry events, want %d", retries, len(tt.sleeps))
			}
		})
	}
}

func TestRunStopsAtFirstHardFailure(t *testing.T) {
	badRequest := &armErr{status: 400, code: "InvalidResourceReference", msg: "Resource probe was not found."}
	tests := []struct {
		name         string
		failAt       string
		err          error
		want         error
		applied      []string
		failed       string
		notAttempted []string
	}{
		{"first step", "pip/kubernetes-a1", badRequest, ErrFailed,
			[]string{}, "pip/kubernetes-a1", []string{"lb/kubernetes", "nsg/aks-agentpool-nsg"}},
		{"middle step", "lb/kubernetes", badRequest, ErrPartial,
			[]string{"pip/kubernetes-a1"}, "lb/kubernetes", []string{"nsg/aks-agentpool-nsg"}},
		{"last step, no ARM response", "nsg/aks-agentpool-nsg", errTestWrite, ErrPartial,
			[]string{"pip/kubernetes-a1", "lb/kubernetes"}, "nsg/aks-agentpool-nsg", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fixtureARM()
			f.faults[tt.failAt] = []error{tt.err}
			res, rec, err := run(t, context.Background(), fixturePlan(), f, newFakeClock())
			var ae *Error
			if !errors.Is(err, tt.want) || !errors.As(err, &ae) || ae.Result != res {
				t.Fatalf("err = %v, want %v carrying the result", err, tt.want)
			}
			got := []any{addresses(res.Applied), addresses(res.Failed), addresses(res.NotAttempted)}
			want := []any{tt.applied, []string{tt.failed}, tt.notAttempted}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("applied/failed/not attempted (-want +got):\n%s", diff)
			}
			if len(f.writes) != len(tt.applied)+1 {
				t.Errorf("%d writes, want %d", len(f.writes), len(tt.applied)+1)
			}
			var wantFailure Failure
			if a, ok := tt.err.(*armErr); ok {
				wantFailure = Failure{Address: tt.failAt, Status: a.status, Code: a.code, Message: a.msg}
			} else {
				wantFailure = Failure{Address: tt.failAt, Message: tt.err.Error()}
			}
			if diff := cmp.Diff(&wantFailure, res.Failed[0].Failure); diff != "" {
				t.Errorf("failure (-want +got):\n%s", diff)
			}
			if s := rec.events[len(rec.events)-1].Summary; s == nil || s.Failed == nil || s.Failed.Address != tt.failAt {
				t.Errorf("summary does not name the failed step: %+v", s)
			}
		})
	}
}

func TestRunStaleOn412(t *testing.T) {
	f := fixtureARM()
	f.resources[lbID.Key()].Etag = `W/"someone-else"`
	res, rec, err := run(t, context.Background(), fixturePlan(), f, newFakeClock())
	if !errors.Is(err, ErrStale) {
		t.Fatalf("err = %v, want ErrStale", err)
	}
	want := "lb/kubernetes: the resource changed since it was planned; run azsvc plan again (1 of 3 steps applied)"
	if err.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", err, want)
	}
	if lb := stepResult(res, "lb/kubernetes"); lb.Attempts != 1 {
		t.Errorf("a 412 was retried: %d attempts", lb.Attempts)
	}
	if len(res.NotAttempted) != 1 || rec.events[len(rec.events)-1].Summary.Outcome != OutcomeStale {
		t.Errorf("not attempted %v, summary %+v", addresses(res.NotAttempted), rec.events[len(rec.events)-1].Summary)
	}
}

func stepResult(res *Result, addr string) *StepResult {
	for _, l := range [][]*StepResult{res.Applied, res.Failed, res.NotAttempted} {
		for _, s := range l {
			if s.Address == addr {
				return s
			}
		}
	}
	return &StepResult{}
}

func (f *fakeARM) writesTo(addr string) int {
	n := 0
	for _, w := range f.writes {
		if w.Target.Address() == addr {
			n++
		}
	}
	return n
}

func countEvents(rec *recorder, t EventType) int {
	n := 0
	for _, e := range rec.events {
		if e.Type == t {
			n++
		}
	}
	return n
}
