package apply

import (
	"fmt"
	"time"

	"github.com/azsvc/azsvc/plan"
)

// Result reports what a run did, step by step, in plan order.
type Result struct {
	Applied      []*StepResult
	Failed       []*StepResult // at most one: the first hard failure stops the run
	NotAttempted []*StepResult
	// Outputs are the values Azure assigned that the plan showed as
	// "(known after apply)", e.g. a new public IP's address.
	Outputs []Output
	Elapsed time.Duration
}

// StepResult is the outcome of one plan step.
type StepResult struct {
	Index   int // position in Plan.Steps
	Step    *plan.Step
	Address string
	Action  plan.Action // create, update or delete
	Outcome StepOutcome
	// Attempts counts the writes sent for this step (retries included).
	Attempts int
	Duration time.Duration
	// Resource and Children are what ARM returned (applied steps only).
	Resource *plan.Resource
	Children []*plan.Resource
	// Err is why the step failed or was not applied; Failure details it.
	Err     error
	Failure *Failure
}

// StepOutcome is what became of one step.
type StepOutcome string

const (
	StepApplied      StepOutcome = "applied"
	StepFailed       StepOutcome = "failed"
	StepNotAttempted StepOutcome = "not_attempted"
)

// Failure is a failed step as ARM described it.
type Failure struct {
	Address string
	// Status is the HTTP status; 0 when no ARM response was involved or
	// when the long-running operation failed (OperationFailed).
	Status          int
	Code            string // ARM error code
	Message         string
	OperationFailed bool // ARM accepted the write, then its operation failed
}

// Output is a value Azure assigned during apply.
type Output struct {
	Address string // e.g. pip/kubernetes-a1b2
	Field   string // property name, e.g. ipAddress
	Value   any
}

// Outcome is how a run ended.
type Outcome string

const (
	OutcomeComplete    Outcome = "complete"
	OutcomeFailed      Outcome = "failed"  // nothing applied
	OutcomePartial     Outcome = "partial" // Azure changed (or may have), then a failure
	OutcomeStale       Outcome = "stale"   // a 412: the plan is out of date
	OutcomeInterrupted Outcome = "interrupted"
)

// Summary condenses a Result for the summary event.
type Summary struct {
	Outcome Outcome
	Steps   int
	// Created..Deleted count the resource changes carried by applied steps.
	Created, Updated, Replaced, Deleted int
	Applied, NotAttempted               []string // addresses, in plan order
	Failed                              *Failure
	Outputs                             []Output
	// Awaiting are the private endpoints whose connection the run left
	// Pending, for the PLS owner to approve.
	Awaiting []string
	Elapsed  time.Duration
}

func (r *Result) summary(outcome Outcome, steps int) *Summary {
	s := &Summary{Outcome: outcome, Steps: steps, Outputs: r.Outputs, Awaiting: awaiting(r.Applied), Elapsed: r.Elapsed}
	seen := map[*plan.Change]bool{}
	for _, sr := range r.Applied {
		s.Applied = append(s.Applied, sr.Address)
		for _, c := range sr.Step.Changes {
			if !seen[c] {
				seen[c] = true
				s.count(c)
			}
		}
	}
	for _, sr := range r.NotAttempted {
		s.NotAttempted = append(s.NotAttempted, sr.Address)
	}
	if len(r.Failed) > 0 {
		s.Failed = r.Failed[0].Failure
	}
	return s
}

func (s *Summary) count(c *plan.Change) {
	switch {
	case len(c.Actions) > 1:
		s.Replaced++
	case len(c.Actions) == 0:
	case c.Actions[0] == plan.ActionCreate:
		s.Created++
	case c.Actions[0] == plan.ActionDelete:
		s.Deleted++
	case c.Actions[0] == plan.ActionUpdate, c.Actions[0] == plan.ActionAdopt:
		s.Updated++
	}
}

// String is "Code (HTTP status): message", as ARM described the failure,
// or just the message when no ARM error was involved.
func (f *Failure) String() string {
	switch {
	case f.Code == "":
		return f.Message
	case f.OperationFailed:
		return fmt.Sprintf("%s (operation failed): %s", f.Code, f.Message)
	case f.Status == 0:
		return fmt.Sprintf("%s: %s", f.Code, f.Message)
	}
	return fmt.Sprintf("%s (HTTP %d): %s", f.Code, f.Status, f.Message)
}
