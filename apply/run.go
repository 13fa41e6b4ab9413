package apply

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/azsvc/azsvc/plan"
)

// Run applies p's steps in order, one provider Write per step (plus
// retries), and stops at the first step that fails for good, at a 412, or
// when ctx is cancelled. A cancelled ctx never cuts a write short: the write
// in flight finishes (ARM would carry on with it anyway) and the run stops
// before the next step. Result is always returned; the error, if any, is an
// *Error whose Kind is ErrStale, ErrPartial, ErrFailed or ErrInterrupted.
func Run(ctx context.Context, p *plan.Plan, prov Provider, opts Options) (*Result, error) {
	r := &runner{prov: prov, opts: opts.withDefaults(), written: newWritten(), result: &Result{}}
	r.pacer = newPacer(r.opts.Pacing, prov)
	start := r.opts.Clock.Now()
	r.start = start
	var stop *Error
	for i, step := range p.Steps {
		if stop == nil && ctx.Err() != nil {
			// The cause says why: Ctrl-C, or a lease lost (WithLock).
			stop = &Error{Kind: ErrInterrupted, Err: context.Cause(ctx)}
		}
		if stop != nil {
			r.result.NotAttempted = append(r.result.NotAttempted, r.newStepResult(i, step))
			continue
		}
		stop = r.step(ctx, i, len(p.Steps), step)
	}
	r.result.Elapsed = r.opts.Clock.Now().Sub(start)
	sum := r.result.summary(outcomeOf(stop), len(p.Steps))
	r.opts.Observer.Event(Event{Type: EventSummary, Time: r.opts.Clock.Now(), Steps: len(p.Steps), Elapsed: sum.Elapsed, Summary: sum})
	if stop == nil {
		return r.result, nil
	}
	stop.Result = r.result
	return r.result, stop
}

type runner struct {
	prov    Provider
	opts    Options
	written *written
	result  *Result
	pacer   *pacer
	start   time.Time
}

func (r *runner) newStepResult(i int, step *plan.Step) *StepResult {
	return &StepResult{Index: i, Step: step, Address: step.Target.Address(), Action: stepAction(step), Outcome: StepNotAttempted}
}

// step runs one step and files its result; it returns the error that stops
// the run, or nil to go on.
func (r *runner) step(ctx context.Context, i, n int, step *plan.Step) *Error {
	if err := r.pace(ctx, i, n, step); err != nil {
		r.result.NotAttempted = append(r.result.NotAttempted, r.newStepResult(i, step))
		return &Error{Kind: ErrInterrupted, Err: err}
	}
	ev := newStepEvents(r.opts, i, n, step)
	sr := r.newStepResult(i, step)
	ev.emit(EventStart, nil)
	sent, err := r.written.prepare(step)
	var res *plan.Resource
	var children []*plan.Resource
	if err == nil {
		res, children, err = r.writeWithRetry(ctx, ev, sent, sr)
	}
	sr.Duration = r.opts.Clock.Now().Sub(ev.start)
	if err != nil {
		return r.fail(ev, sr, err)
	}
	sr.Resource, sr.Children, sr.Outcome = res, children, StepApplied
	r.written.record(step, res, children)
	r.result.Applied = append(r.result.Applied, sr)
	r.result.Outputs = append(r.result.Outputs, outputs(step, res, children)...)
	ev.emit(EventComplete, func(e *Event) { e.ETA = r.eta(i+1, n) })
	return nil
}

// pace waits, before step i, for ARM's write budget to hold a write
// (pace.go), telling the observer how long and why.
func (r *runner) pace(ctx context.Context, i, n int, step *plan.Step) error {
	now := r.opts.Clock.Now()
	wait, left := r.pacer.wait(now)
	if wait <= 0 {
		return nil
	}
	ev := newStepEvents(r.opts, i, n, step)
	ev.emit(EventProgress, func(e *Event) {
		e.BudgetWait, e.BudgetLeft, e.Window = wait, left, r.pacer.opts.Window
		e.ETA = r.eta(i, n) + wait
	})
	if r.opts.Clock.Sleep(ctx, wait) != nil {
		return ctx.Err()
	}
	return nil
}

// eta estimates the time the steps after the first done take.
func (r *runner) eta(done, n int) time.Duration {
	now := r.opts.Clock.Now()
	return r.pacer.eta(n-done, done, now.Sub(r.start), now)
}

// fail files a step that did not apply and decides the kind of stop.
func (r *runner) fail(ev *stepEvents, sr *StepResult, err error) *Error {
	sr.Err, sr.Failure = err, failureOf(sr.Address, err)
	stop := &Error{Step: sr, Err: err}
	switch {
	case errors.Is(err, ErrInterrupted):
		// Interrupted while waiting to retry: the step did not apply.
		r.result.NotAttempted = append(r.result.NotAttempted, sr)
		stop.Kind, stop.Step = ErrInterrupted, nil
		return stop
	case preconditionFailed(err):
		stop.Kind = ErrStale
	case len(r.result.Applied) > 0 || sr.Failure.OperationFailed:
		// A failed long-running operation was accepted: Azure may have
		// changed even if no step completed.
		stop.Kind = ErrPartial
	default:
		stop.Kind = ErrFailed
	}
	sr.Outcome = StepFailed
	r.result.Failed = append(r.result.Failed, sr)
	ev.emit(EventErrored, func(e *Event) { e.Failure, e.Attempt = sr.Failure, sr.Attempts })
	return stop
}

// writeWithRetry sends the step, retrying throttling, transient errors and
// lock conflicts within the retry policy's attempts and time budget.
func (r *runner) writeWithRetry(ctx context.Context, ev *stepEvents, step *plan.Step, sr *StepResult) (*plan.Resource, []*plan.Resource, error) {
	pol := r.opts.Retry
	for attempt := 1; ; attempt++ {
		sr.Attempts = attempt
		stopTicks := ev.inFlight()
		// Detached: Ctrl-C must not abandon a write ARM has accepted.
		res, children, err := r.prov.Write(context.WithoutCancel(ctx), step)
		stopTicks()
		if err == nil {
			// Only accepted writes are counted: a refused one says nothing
			// new of the budget, and a throttled one waits Retry-After.
			r.pacer.wrote(r.opts.Clock.Now())
		}
		if err == nil || !retryable(err) {
			return res, children, err
		}
		if attempt >= pol.MaxAttempts {
			return nil, nil, err
		}
		wait := pol.delay(attempt, err)
		if r.opts.Clock.Now().Add(wait).Sub(ev.start) > pol.MaxElapsed {
			return nil, nil, fmt.Errorf("retry time budget of %s spent: %w", pol.MaxElapsed, err)
		}
		ev.emit(EventProgress, func(e *Event) {
			e.Attempt, e.MaxAttempts, e.RetryIn = attempt, pol.MaxAttempts, wait
			e.Failure = failureOf(sr.Address, err)
		})
		if r.opts.Clock.Sleep(ctx, wait) != nil {
			return nil, nil, fmt.Errorf("interrupted while waiting to retry: %w", ErrInterrupted)
		}
	}
}

func failureOf(address string, err error) *Failure {
	f := &Failure{Address: address, Message: err.Error()}
	var ae ARMError
	if errors.As(err, &ae) {
		f.Status, f.Code, f.Message = ae.StatusCode(), ae.ErrorCode(), ae.Message()
	}
	var of operationFailer
	if errors.As(err, &of) && of.OperationFailed() {
		f.Status, f.OperationFailed = 0, true
	}
	return f
}

func outcomeOf(stop *Error) Outcome {
	if stop == nil {
		return OutcomeComplete
	}
	switch stop.Kind {
	case ErrStale:
		return OutcomeStale
	case ErrInterrupted:
		return OutcomeInterrupted
	case ErrPartial:
		return OutcomePartial
	}
	return OutcomeFailed
}
