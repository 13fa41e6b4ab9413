package apply

import (
	"fmt"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/planfile"
)

// CheckFresh compares what a saved plan touches with a fresh read of ARM
// (current) and returns a *StaleError (errors.Is ErrStale) listing every
// resource that appeared, vanished or whose owned content changed since the
// plan was made (ux-anchors §8.6; the comparison is planfile.Check).
//
// An etag that moved while the owned content did not passes this check, as
// §8.6 asks. The write still carries the plan-time If-Match, so ARM answers
// 412 and Run stops with ErrStale before anything is overwritten: the body
// carries the parent's unowned children as read at plan time, and sending it
// over a newer etag would undo someone else's change.
func CheckFresh(saved *planfile.Plan, current *plan.State) error {
	if len(saved.Preconditions) == 0 && len(saved.Steps) > 0 {
		return &StaleError{Changed: []Drift{{Address: "(plan)", Detail: "the saved plan records no preconditions to check"}}}
	}
	var drift []Drift
	for _, s := range planfile.Check(saved, current) {
		drift = append(drift, Drift{Address: s.Address, Detail: staleDetail(s)})
	}
	if len(drift) == 0 {
		return nil
	}
	return &StaleError{Changed: drift}
}

func staleDetail(s planfile.Stale) string {
	switch s.Change {
	case planfile.StaleCreated:
		return "created since the plan was made"
	case planfile.StaleDeleted:
		return "deleted since the plan was made"
	}
	return fmt.Sprintf("changed since the plan was made (etag %s, now %s)", s.Etag, s.NowEtag)
}
