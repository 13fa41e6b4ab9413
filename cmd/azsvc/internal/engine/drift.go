package engine

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/diff"
	"github.com/azsvc/azsvc/plan/resolve"
)

// SinceDrift sets p.Drift to what changed outside azsvc since the saved
// plan at path (plan --since): the resources that plan recorded it would
// leave in Azure and that ARM, as read for p, holds differently. The saved
// plan must be intact and made for the same target.
func SinceDrift(path string, p *plan.Plan, res *resolve.Resolved, t *Target) error {
	saved, _, err := LoadSaved(path)
	if err != nil {
		return err
	}
	rec := saved.Sources.Target
	if rec.Kind == "emulator" && t.Chosen.Kind == "emulator" {
		// Both name the state file absolutely (older plans: as given): a
		// relative --state from another directory is another file,
		// whatever the header says.
		if rec.State = absPath(rec.State); rec.State != t.Chosen.State {
			return fmt.Errorf("it was planned for local emulator (state %s), not local emulator (state %s)", rec.State, t.Chosen.State)
		}
	} else if saved.Target != t.Describe() {
		return fmt.Errorf("it was planned for %s, not %s", saved.Target, t.Describe())
	}
	record, planned, err := saved.RecordState()
	if err != nil {
		return err
	}
	p.Drift = diff.Drift(record, planned, res.Observed)
	p.Removed = plan.NameRemoved(p.Removed, savedNames(saved.Scope))
	return nil
}

// savedNames are the Services a saved plan had in scope, by name prefix:
// what names a Service the input has since dropped (issue 22 item 3).
func savedNames(scope plan.Scope) plan.KnownNames {
	names := map[string]string{}
	for _, s := range scope.Services {
		if s.Prefix != "" {
			names[strings.ToLower(s.Prefix)] = s.Name
		}
	}
	return plan.KnownNames{By: plan.NamedBySavedPlan, Names: names}
}
