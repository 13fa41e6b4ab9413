package main

import (
	"errors"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/planview"
)

// refuseUnresolved refuses, before any write, a plan whose changes need
// values the API server assigns and the input lacks (DESIGN.md: apply
// never writes a guess): exit 4, naming each Service and value. Nothing
// of the plan is written, not even the changes that need none: applying
// half of a Service's resources would leave it half-built.
func refuseUnresolved(p *plan.Plan) error {
	if len(p.Unresolved) == 0 {
		return nil
	}
	lines := planview.UnresolvedLines(p.Unresolved)
	return &invalidInput{errors.New("not applying: the plan needs values the API server assigns, which the input does not hold:\n  " +
		strings.Join(lines, "\n  ") + "\nnothing was applied; to apply, " + planview.UnresolvedHint)}
}
