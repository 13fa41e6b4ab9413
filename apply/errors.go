package apply

import (
	"errors"
	"fmt"
	"strings"
)

// Error kinds, for errors.Is. The CLI maps them to exit codes
// (ux-anchors §8.5): ErrStale → 5, ErrPartial → 7, ErrFailed → 1,
// ErrInterrupted → 130.
var (
	// ErrStale: ARM answered 412 to an If-Match, or a saved plan's
	// resources changed since it was planned.
	ErrStale = errors.New("the resource changed since it was planned; run azsvc plan again")
	// ErrPartial: Azure has changed, or may have: some steps were applied
	// then a step failed, or a write was accepted and its operation failed.
	ErrPartial = errors.New("apply stopped part-way")
	// ErrFailed: the first step failed before ARM accepted it; nothing
	// was applied.
	ErrFailed = errors.New("apply failed; nothing was applied")
	// ErrInterrupted: the context was cancelled (Ctrl-C); the run stopped
	// after the write in flight.
	ErrInterrupted = errors.New("apply interrupted")
)

// Error is a run that stopped early. Result says what was applied, what
// failed and what was not attempted.
type Error struct {
	Kind   error // ErrStale, ErrPartial, ErrFailed or ErrInterrupted
	Result *Result
	// Step is the failed step (nil when interrupted between steps).
	Step *StepResult
	Err  error // the cause
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Step != nil {
		fmt.Fprintf(&b, "%s: ", e.Step.Address)
	}
	switch {
	case e.Kind == ErrStale || e.Kind == ErrInterrupted || e.Err == nil:
		b.WriteString(e.Kind.Error())
	case e.Step != nil && e.Step.Failure != nil && e.Step.Failure.Code != "":
		b.WriteString(e.Step.Failure.String())
	default:
		b.WriteString(e.Err.Error())
	}
	var notes []string
	if e.Step != nil && e.Step.Attempts > 1 {
		notes = append(notes, fmt.Sprintf("gave up after %d attempts", e.Step.Attempts))
	}
	if r := e.Result; r != nil {
		total := len(r.Applied) + len(r.Failed) + len(r.NotAttempted)
		steps := "steps"
		if total == 1 {
			steps = "step"
		}
		notes = append(notes, fmt.Sprintf("%d of %d %s applied", len(r.Applied), total, steps))
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(notes, "; "))
	}
	return b.String()
}

// Is matches the error's kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

func (e *Error) Unwrap() error { return e.Err }

// StaleError is a saved plan whose resources changed since it was planned.
type StaleError struct {
	Changed []Drift
}

// Drift is one resource that changed since plan time.
type Drift struct {
	Address string
	Detail  string // e.g. `etag W/"1" is now W/"2"`, "deleted since planned"
}

func (e *StaleError) Error() string {
	var b strings.Builder
	what := "resources"
	if len(e.Changed) == 1 {
		what = "resource"
	}
	// Resources have plan addresses; the target, inputs and configuration
	// are not resources: their detail says what no longer holds.
	if len(e.Changed) == 1 && !strings.Contains(e.Changed[0].Address, "/") {
		return "the plan is stale: " + e.Changed[0].Detail + "; run azsvc plan again"
	}
	fmt.Fprintf(&b, "the plan is stale: %d %s changed since it was planned; run azsvc plan again", len(e.Changed), what)
	for _, d := range e.Changed {
		fmt.Fprintf(&b, "\n  %s: %s", d.Address, d.Detail)
	}
	return b.String()
}

// Is makes a StaleError match ErrStale.
func (e *StaleError) Is(target error) bool { return target == ErrStale }
