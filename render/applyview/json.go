package applyview

import (
	"encoding/json"
	"io"
	"time"

	"github.com/azsvc/azsvc/apply"
)

// JSON writes one JSON object per event (JSON Lines). Field names are part
// of azsvc's output contract: add fields, never rename them.
type JSON struct {
	enc *json.Encoder
	err error
}

// NewJSON returns a renderer writing to w.
func NewJSON(w io.Writer) *JSON {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSON{enc: enc}
}

// Err is the first write error, if any.
func (j *JSON) Err() error { return j.err }

type jsonEvent struct {
	Type        string `json:"type"`
	Timestamp   string `json:"timestamp"`
	Step        int    `json:"step,omitempty"`
	Steps       int    `json:"steps"`
	Address     string `json:"address,omitempty"`
	Action      string `json:"action,omitempty"`
	Changes     int    `json:"changes,omitempty"`
	ElapsedMS   int64  `json:"elapsed_ms"`
	Attempt     int    `json:"attempt,omitempty"`
	MaxAttempts int    `json:"max_attempts,omitempty"`
	RetryInMS   int64  `json:"retry_in_ms,omitempty"`
	ETAMS       int64  `json:"eta_ms,omitempty"`
	// A wait for ARM's write budget before the step: how long, and how
	// many writes ARM's window held then.
	BudgetWaitMS int64        `json:"budget_wait_ms,omitempty"`
	BudgetLeft   *int         `json:"budget_left,omitempty"`
	Error        *jsonError   `json:"error,omitempty"`
	Summary      *jsonSummary `json:"summary,omitempty"`
}

type jsonError struct {
	Address         string `json:"address,omitempty"`
	Status          int    `json:"status,omitempty"`
	Code            string `json:"code,omitempty"`
	Message         string `json:"message"`
	OperationFailed bool   `json:"operation_failed,omitempty"`
}

type jsonSummary struct {
	Outcome      string       `json:"outcome"`
	Steps        int          `json:"steps"`
	Applied      int          `json:"applied"`
	Failed       int          `json:"failed"`
	NotAttempted int          `json:"not_attempted"`
	Created      int          `json:"created"`
	Updated      int          `json:"updated"`
	Replaced     int          `json:"replaced"`
	Deleted      int          `json:"deleted"`
	AppliedAddrs []string     `json:"applied_addresses"`
	FailedStep   *jsonError   `json:"failed_step,omitempty"`
	NotAttAddrs  []string     `json:"not_attempted_addresses"`
	Outputs      []jsonOutput `json:"outputs"`
	// Awaiting are private endpoints left Pending for the PLS owner.
	Awaiting []string `json:"awaiting_approval"`
}

type jsonOutput struct {
	Address string `json:"address"`
	Field   string `json:"field"`
	Value   any    `json:"value"`
}

// Event writes e as one line; it implements apply.Observer.
func (j *JSON) Event(e apply.Event) {
	if j.err != nil {
		return
	}
	out := jsonEvent{
		Type: string(e.Type), Timestamp: e.Time.UTC().Format(time.RFC3339Nano),
		Step: e.Step, Steps: e.Steps, Address: e.Address, Action: string(e.Action), Changes: e.Changes,
		ElapsedMS: e.Elapsed.Milliseconds(), Attempt: e.Attempt, MaxAttempts: e.MaxAttempts,
		RetryInMS: e.RetryIn.Milliseconds(), Error: jsonFailure(e.Failure), Summary: jsonSummaryOf(e.Summary),
	}
	if out.Error != nil {
		out.Error.Address = "" // the event's own address says it
	}
	out.ETAMS = e.ETA.Milliseconds()
	if e.BudgetWait > 0 {
		out.BudgetWaitMS = e.BudgetWait.Milliseconds()
		if e.BudgetLeft >= 0 {
			left := e.BudgetLeft
			out.BudgetLeft = &left
		}
	}
	j.err = j.enc.Encode(out)
}

func jsonFailure(f *apply.Failure) *jsonError {
	if f == nil {
		return nil
	}
	return &jsonError{Address: f.Address, Status: f.Status, Code: f.Code, Message: f.Message, OperationFailed: f.OperationFailed}
}

func jsonSummaryOf(s *apply.Summary) *jsonSummary {
	if s == nil {
		return nil
	}
	out := &jsonSummary{
		Outcome: string(s.Outcome), Steps: s.Steps,
		Applied: len(s.Applied), NotAttempted: len(s.NotAttempted),
		Created: s.Created, Updated: s.Updated, Replaced: s.Replaced, Deleted: s.Deleted,
		AppliedAddrs: nonNil(s.Applied), NotAttAddrs: nonNil(s.NotAttempted),
		FailedStep: jsonFailure(s.Failed), Outputs: []jsonOutput{}, Awaiting: nonNil(s.Awaiting),
	}
	if s.Failed != nil {
		out.Failed = 1
	}
	for _, o := range s.Outputs {
		out.Outputs = append(out.Outputs, jsonOutput{Address: o.Address, Field: o.Field, Value: o.Value})
	}
	return out
}

// nonNil keeps arrays arrays in JSON, never null (ux-anchors §8.3).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteFailure writes the summary event of an apply that failed before it
// ran (a saved plan refused, invalid input, a target that cannot be
// reached): scripts reading the JSON Lines always get a summary, with the
// outcome (outcome, e.g. "stale_plan"), the exit code and why.
func WriteFailure(w io.Writer, at time.Time, outcome string, exitCode int, message string) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		jsonEvent
		ExitCode int `json:"exit_code"`
	}{jsonEvent{Type: string(apply.EventSummary), Timestamp: at.UTC().Format(time.RFC3339Nano),
		Error: &jsonError{Message: message}, Summary: &jsonSummary{Outcome: outcome, AppliedAddrs: []string{},
			NotAttAddrs: []string{}, Outputs: []jsonOutput{}}}, exitCode})
}
