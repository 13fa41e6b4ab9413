package apply

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// CheckFresh compares what a saved plan touches with a fresh read of ARM
// (current) and returns a *StaleError (errors.Is ErrStale) listing every
// resource that appeared, vanished or whose owned content changed since the
// plan was made (ux-anchors §8.6; the comparison is plan.CheckPreconditions).
//
// An etag that moved while the owned content did not passes this check, as
// §8.6 asks. The write still carries the plan-time If-Match, so ARM answers
// 412 and Run stops with ErrStale before anything is overwritten: the body
// carries the parent's unowned children as read at plan time, and sending it
// over a newer etag would undo someone else's change.
func CheckFresh(saved *plan.SavedPlan, current *plan.State) error {
	if len(saved.Preconditions) == 0 && len(saved.Steps) > 0 {
		return &StaleError{Changed: []Drift{{Address: "(plan)", Detail: "the saved plan records no preconditions to check"}}}
	}
	var drift []Drift
	for _, line := range plan.CheckPreconditions(saved, current) {
		addr, detail, _ := strings.Cut(line, ": ")
		drift = append(drift, Drift{Address: addr, Detail: detail})
	}
	if len(drift) == 0 {
		return nil
	}
	return &StaleError{Changed: drift}
}
