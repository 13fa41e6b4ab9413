package diff

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

// The methods below let plan/graph schedule a Result (graph.Input) without
// knowing how it was made.

// Changes are the planned changes, sorted by key.
func (d *Result) Changes() []*plan.Change {
	out := make([]*plan.Change, 0, len(d.changes))
	for _, k := range slices.Sorted(maps.Keys(d.changes)) {
		out = append(out, d.changes[k])
	}
	return out
}

// Blocked are the changes azsvc will not make, in order.
func (d *Result) Blocked() []plan.Blocked { return d.blocked.List() }

// NoOp counts the desired resources already as wanted.
func (d *Result) NoOp() int { return d.noop }

// Referrers are the observed resources that reference k.
func (d *Result) Referrers(k plan.Key) []plan.Key { return d.res.Observed.Referrers(k) }

// Children are the observed children of parent.
func (d *Result) Children(parent plan.Key) []*plan.Resource { return d.res.Observed.Children(parent) }

// Observed returns the observed resource k.
func (d *Result) Observed(k plan.Key) (*plan.Resource, bool) { return d.res.Observed.Get(k) }

// Desired returns the desired body of k, values copied from elsewhere
// resolved as far as they are known.
func (d *Result) Desired(k plan.Key) (*plan.Resource, bool) {
	r, ok := d.res.Desired.Get(k)
	if !ok {
		r, ok = d.res.Wanted.Get(k)
	}
	if !ok {
		return nil, false
	}
	return d.markers.resolve(r), true
}

// DesiredChildren are the planned inline children of parent.
func (d *Result) DesiredChildren(parent plan.Key) []*plan.Resource {
	var out []*plan.Resource
	for _, e := range plan.NewIndex(d.res.Desired).Entries {
		if pid, ok := e.R.ID.ParentID(); ok && pid.Key() == parent && e.R.Kind().Inline() && !d.conflicts[e.Key] {
			out = append(out, d.markers.resolve(e.R))
		}
	}
	return out
}

// Resolved is what the diff compared.
func (d *Result) Resolved() *resolve.Resolved { return d.res }
