package apply

import (
	"time"

	"github.com/azsvc/azsvc/plan"
)

// EventType names an event; the names are the JSON Lines "type" values
// (ux-anchors §8.2).
type EventType string

const (
	EventStart    EventType = "apply_start"
	EventProgress EventType = "apply_progress" // a tick while in flight, or a retry
	EventComplete EventType = "apply_complete"
	EventErrored  EventType = "apply_errored"
	EventSummary  EventType = "summary"
)

// Event is one thing that happened during a run. Step events carry the
// step's position and address; the summary event carries Summary.
type Event struct {
	Type EventType
	Time time.Time
	// Step is the 1-based position of the step; Steps the plan's step count.
	Step, Steps int
	Address     string
	Action      plan.Action
	Changes     int // resource changes the step carries
	// Elapsed is the time since the step started (or the run, for summary).
	Elapsed time.Duration
	// Attempt is the try that just failed and RetryIn the wait before the
	// next one, on a retry's apply_progress event.
	Attempt, MaxAttempts int
	RetryIn              time.Duration
	Failure              *Failure // apply_errored, and retries
	Summary              *Summary
	// ETA is the expected time until the run ends (apply_complete, and a
	// budget wait); zero when unknown.
	ETA time.Duration
	// BudgetWait is set on the apply_progress event of a wait for ARM's
	// write budget before the step: how long, how many writes ARM's Window
	// was estimated to hold when it began (BudgetLeft, -1 unknown).
	BudgetWait time.Duration
	BudgetLeft int
	Window     time.Duration
}

// stepEvents emits the events of one step.
type stepEvents struct {
	opts  Options
	base  Event
	start time.Time
}

func newStepEvents(opts Options, i, n int, step *plan.Step) *stepEvents {
	return &stepEvents{opts: opts, start: opts.Clock.Now(), base: Event{
		Step: i + 1, Steps: n, Address: step.Target.Address(),
		Action: stepAction(step), Changes: len(step.Changes),
	}}
}

func (s *stepEvents) emit(t EventType, edit func(*Event)) {
	s.emitAt(s.opts.Clock.Now(), t, edit)
}

func (s *stepEvents) emitAt(now time.Time, t EventType, edit func(*Event)) {
	e := s.base
	e.Type, e.Time = t, now
	e.Elapsed = e.Time.Sub(s.start)
	if edit != nil {
		edit(&e)
	}
	s.opts.Observer.Event(e)
}

// inFlight emits apply_progress on every tick until the returned stop is
// called; stop returns once the last tick's event is delivered, so events
// never interleave with the caller's.
func (s *stepEvents) inFlight() (stop func()) {
	ticks, stopTicker := s.opts.Clock.Ticker(s.opts.ProgressInterval)
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-done:
				return
			case now := <-ticks:
				s.emitAt(now, EventProgress, nil)
			}
		}
	}()
	return func() {
		stopTicker()
		close(done)
		<-exited
	}
}

// stepAction is what the step does to its target: a delete, the create or
// update named by the target's own change, or, for a parent written only for
// its children, an update when it has an etag to match and a create otherwise.
func stepAction(step *plan.Step) plan.Action {
	if step.Op == plan.OpDelete {
		return plan.ActionDelete
	}
	for _, c := range step.Changes {
		if c.Before == nil && c.After == nil {
			continue
		}
		if c.Key() == step.Target.Key() && len(c.Actions) > 0 {
			if c.Actions[len(c.Actions)-1] == plan.ActionCreate {
				return plan.ActionCreate
			}
			return plan.ActionUpdate
		}
	}
	if step.IfMatch == "" {
		return plan.ActionCreate
	}
	return plan.ActionUpdate
}
