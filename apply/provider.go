// Package apply runs a plan against ARM: serially, in plan order, one write
// at a time, with If-Match on every update, bounded retries of throttling and
// transient failures, and a report of what was and was not applied when it
// stops early (DESIGN.md "Apply").
package apply

import (
	"context"
	"time"

	"github.com/azsvc/azsvc/plan"
)

// Provider performs one plan step: a PUT of the step's Body (joined with its
// Children for a load balancer or NSG, long-running operation awaited) or a
// DELETE. It returns the resource and children as ARM returned them, with
// their new etags. providers/azure's Write satisfies it.
type Provider interface {
	Write(ctx context.Context, step *plan.Step) (*plan.Resource, []*plan.Resource, error)
}

// ARMError is what apply reads from a failed Write to decide whether to retry
// and what to report. Errors anywhere in the chain (errors.As) may implement it.
type ARMError interface {
	error
	StatusCode() int
	ErrorCode() string
	Message() string
	// RetryAfter is the server's Retry-After (zero when absent).
	RetryAfter() time.Duration
}

// operationFailer is implemented by errors of writes that ARM accepted and
// whose long-running operation then ended Failed (providers/azure.Error).
// Their HTTP status is the final poll's 200, which says nothing.
type operationFailer interface {
	OperationFailed() bool
}

// Observer receives apply's events. Events are delivered one at a time, never
// concurrently, in the order they happen.
type Observer interface {
	Event(Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(Event)

// Event calls f(e).
func (f ObserverFunc) Event(e Event) { f(e) }

// Clock is apply's view of time, injectable so tests run retries and progress
// ticks without waiting.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, returning ctx's error in that case.
	Sleep(ctx context.Context, d time.Duration) error
	// Ticker delivers a tick every d until stop is called.
	Ticker(d time.Duration) (ticks <-chan time.Time, stop func())
}

// Options tune Run. The zero value is usable.
type Options struct {
	Observer Observer
	Retry    RetryPolicy
	// ProgressInterval is how often apply_progress is emitted while a write
	// is in flight (default 10s, ux-anchors §8.2).
	ProgressInterval time.Duration
	Clock            Clock
	// Pacing spends ARM's write budget without running into 429s, when the
	// provider reports it (RateLimited).
	Pacing Pacing
}

const defaultProgressInterval = 10 * time.Second

func (o Options) withDefaults() Options {
	if o.Observer == nil {
		o.Observer = ObserverFunc(func(Event) {})
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = defaultProgressInterval
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	o.Retry = o.Retry.withDefaults()
	return o
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (realClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}
