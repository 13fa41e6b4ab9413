// Package plantest runs the whole planning pipeline (resolve, diff, graph,
// limits) for tests that start from a desired and an observed state: the
// tests of the pipeline itself (this package's) and of the packages that
// consume plans (apply, render, providers).
package plantest

import (
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/diff"
	"github.com/azsvc/azsvc/plan/graph"
	"github.com/azsvc/azsvc/plan/preflight"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Plan plans desired against observed within scope, as `azsvc plan` does.
// When ARM would refuse the plan it returns the plan, whose Refused lists
// why, and an error wrapping preflight.ErrRefused.
func Plan(desired, observed *plan.State, scope plan.Scope) (*plan.Plan, *resolve.Resolved, error) {
	res, err := resolve.Resolve(desired, observed, scope)
	if err != nil {
		return nil, nil, err
	}
	changes, err := diff.Diff(res)
	if err != nil {
		return nil, nil, err
	}
	p, err := graph.Schedule(changes)
	if err != nil {
		return nil, nil, err
	}
	// A refused plan comes back with its refusals (p.Refused) and the error.
	return p, res, preflight.Check(p, res.Observed)
}
