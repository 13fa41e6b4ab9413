// Package plantest runs the whole planning pipeline (resolve, diff, graph,
// limits) for tests that start from a desired and an observed state: the
// tests of the pipeline itself (this package's) and of the packages that
// consume plans (apply, render, providers).
package plantest

import (
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/pipeline"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Plan plans desired against observed within scope, as `azsvc plan` does
// (pipeline.Run).
func Plan(desired, observed *plan.State, scope plan.Scope) (*plan.Plan, *resolve.Resolved, error) {
	return pipeline.Run(desired, observed, scope)
}
