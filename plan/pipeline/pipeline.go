// Package pipeline runs the planning core in order: resolve the final
// desired state against what ARM holds, diff the two, schedule the changes
// into writes, and check them against what ARM would refuse. The engine
// (after reading ARM) and the tests that start from states (plan/plantest)
// both plan through it.
package pipeline

import (
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/diff"
	"github.com/azsvc/azsvc/plan/graph"
	"github.com/azsvc/azsvc/plan/preflight"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Run plans desired against observed within scope. When ARM would refuse
// the plan it returns the plan, whose Refused says why, and an error
// wrapping preflight.ErrRefused.
func Run(desired, observed *plan.State, scope plan.Scope) (*plan.Plan, *resolve.Resolved, error) {
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
	p.Blocked = resolve.Suggest(p.Blocked, res.Observed.State)
	p.Removed = plan.RemovedServices(p.Changes, tagEvidence(res.Observed))
	p.Unfocused = changes.Unfocused()
	p.Unresolved = plan.UnresolvedOf(p, scope)
	return p, res, preflight.Check(p, res.Observed, scope.NodeIPs)
}

// tagEvidence are the resources whose tags may name a removed Service:
// the public IPs and private link services the plan read.
func tagEvidence(observed *plan.Index) []*plan.Resource {
	var out []*plan.Resource
	for _, k := range []plan.Kind{plan.KindPublicIP, plan.KindPrivateLinkService} {
		for _, e := range observed.OfKind(k) {
			out = append(out, e.R)
		}
	}
	return out
}
