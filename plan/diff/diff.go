// Package diff compares the resolved desired state (plan/resolve) with
// what ARM holds, at child granularity, and turns the difference into
// Changes: create, update, adopt, replace or delete, each with a typed
// reason and no English. It knows ARM's rules (which fields force a
// replacement, that a resource still referenced cannot go) but not CCM's:
// those were applied by resolve. It is pure and deterministic.
package diff

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Result is the set of changes and what the scheduler reads with them. It
// satisfies graph.Input.
type Result struct {
	res       *resolve.Resolved
	changes   map[plan.Key]*plan.Change
	blocked   plan.Blocks
	noop      int
	conflicts map[plan.Key]bool
	unfocused int
	nodeIPs   map[string]bool // poolIPs, built on first use
	markers   markers
}

// Diff compares res.Desired with res.Observed.
//
// Resources whose values copy another's (AfterApply markers: an NSG rule's
// destinations) are compared last, once it is known whether their source
// is created or re-created (then the value is known only after apply).
// Changes serving only Services CCM fails are withdrawn, and so is every
// change that references something blocked. A replace that something
// else still references re-creates that too, or is blocked.
func Diff(res *resolve.Resolved) (*Result, error) {
	d := &Result{res: res, changes: map[plan.Key]*plan.Change{}, blocked: res.Blocked.Clone(), conflicts: map[plan.Key]bool{}}
	for k := range res.Conflicts {
		d.conflicts[k] = true
	}
	d.markers = markers{wanted: res.Wanted, observed: res.Observed, changes: d.changes}
	desired := plan.NewIndex(res.Desired).Entries
	var copying []plan.Entry
	for _, e := range desired {
		if plan.HasMarker(e.R.Properties) && (e.R.Kind() == plan.KindSecurityRule || e.R.Kind() == plan.KindARecord) {
			copying = append(copying, e)
			continue
		}
		d.diffOne(e.Key, e.R)
	}
	d.withdrawFailed()
	for k, services := range res.Remove {
		got, _ := res.Observed.Get(k)
		d.changes[k] = deletion(got, services)
		d.changes[k].Reason = d.deletionReason(got, services)
	}
	d.blockDependents()
	s := settler{res: res, changes: d.changes, blocked: &d.blocked, markers: d.markers}
	s.settle()
	d.noop += s.noop
	for _, e := range copying {
		d.diffOne(e.Key, e.R)
	}
	d.withdrawUnfocused()
	d.blockDependents()
	d.markDisruptive()
	return d, nil
}

func deletion(r *plan.Resource, services []string) *plan.Change {
	return &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Before: r, Reason: plan.ReasonServiceRemoved, Services: plan.SortedUnique(services)}
}

// diffOne plans one desired resource.
func (d *Result) diffOne(key plan.Key, want *plan.Resource) {
	want = d.markers.resolve(want)
	got, exists := d.res.Observed.Get(key)
	if !exists {
		reason := plan.ReasonServiceAdded
		if want.Kind() == plan.KindPLSConnection {
			reason = plan.ReasonApproveConnection // written only to approve it
		}
		d.changes[key] = &plan.Change{Actions: []plan.Action{plan.ActionCreate}, After: plan.WithoutAbsent(want),
			Reason: reason, Services: want.Services, ServesOthers: want.ServesOthers}
		return
	}
	attrs := compareResource(want, got)
	attrs = append(attrs, d.endpointAttrs(want, got, attrs)...)
	if len(attrs) == 0 {
		d.noop++
		return
	}
	c := &plan.Change{Before: got, Services: want.Services, ServesOthers: want.ServesOthers, Attributes: attrs}
	replace := markReplacement(want.Kind(), attrs)
	switch {
	case replace && want.Kind() == plan.KindSecurityGroup:
		// The NSG is shared with everything in the cluster's subnets; azsvc
		// never deletes it (ccm-semantics §5.1: CCM requires it to exist).
		d.blocked.Add(plan.Blocked{Address: want.ID.Address(), Code: plan.BlockNSGReplace, Services: want.Services})
		return
	case want.Kind() == plan.KindSubnet:
		// CCM disables the policy as part of placing a Service's PLS
		// (ccm-semantics §8 "Subnet policy"): not drift, and never a
		// replace, whatever else the subnet holds.
		c.Actions, c.After, c.Reason = []plan.Action{plan.ActionUpdate}, plan.Merge(want, got), plan.ReasonServiceAdded
	case replace:
		c.Actions, c.After, c.Reason = []plan.Action{plan.ActionDelete, plan.ActionCreate}, plan.WithoutAbsent(want), plan.ReasonRequiresReplacement
	case onlyAddsTags(attrs):
		c.Actions, c.After, c.Reason = []plan.Action{plan.ActionAdopt}, plan.Merge(want, got), plan.ReasonServiceAdded
	default:
		c.Actions, c.After, c.Reason = []plan.Action{plan.ActionUpdate}, plan.Merge(want, got), updateReason(want.Kind(), attrs)
		if want.Kind() == plan.KindBackendPool {
			c.Reason = d.poolReason(got, c.After, c.Reason)
		}
		if c.Reason != plan.ReasonNodesChanged && want.Kind() == plan.KindSecurityRule && d.onlyNodeIPs(attrs) {
			c.Reason = plan.ReasonNodesChanged
		}
	}
	if len(lostConnection(got)) > 0 && want.Kind() == plan.KindPrivateEndpoint {
		c.Reason = plan.ReasonConnectionLost
	}
	if src, ok := copiedSource(want); ok && c.Has(plan.ActionUpdate) {
		c.Reason, c.Cause = plan.ReasonSourceRecreated, src
	}
	d.changes[key] = c
}

// withdrawFailed removes the creates and updates that serve only Services
// CCM fails; blockDependents then withdraws what references them. The
// Blocked entry resolve wrote for the Service speaks for all of them: one
// line per Service reads better than one per rule and probe.
func (d *Result) withdrawFailed() {
	if len(d.res.Failed) == 0 {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(d.changes)) {
		c := d.changes[k]
		if c.After == nil || !d.res.AllFailed(c.Services) {
			continue
		}
		delete(d.changes, k)
		d.conflicts[k] = true
	}
}

// withdrawUnfocused leaves out, in a focused plan (Scope.Focus), every
// change that serves no Service of the focus: the rest of the input was
// read so that shared resources are planned right, but is not changed.
// What depends on a withdrawn change is blocked like any dependent.
func (d *Result) withdrawUnfocused() {
	if len(d.res.Scope.Focus) == 0 {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(d.changes)) {
		c := d.changes[k]
		if slices.ContainsFunc(c.Services, func(s string) bool { _, ok := slices.BinarySearch(d.res.Scope.Focus, s); return ok }) {
			continue
		}
		delete(d.changes, k)
		d.conflicts[k] = true
		d.unfocused++
	}
}

// Unfocused counts the changes a focused plan left out.
func (d *Result) Unfocused() int { return d.unfocused }

// blockDependents withdraws every create or update whose body references a
// resource that is blocked: it would point at something azsvc does not
// write (CCM errors out in the same cases).
func (d *Result) blockDependents() {
	for changed := len(d.conflicts) > 0; changed; {
		changed = false
		for _, k := range slices.Sorted(maps.Keys(d.changes)) {
			c := d.changes[k]
			if c.After == nil {
				continue
			}
			if i := slices.IndexFunc(plan.Dependencies(c.After), func(ref plan.Key) bool { return d.conflicts[ref] }); i >= 0 {
				ref := plan.Dependencies(c.After)[i]
				d.blocked.Add(plan.Blocked{Address: c.ID().Address(), Code: plan.BlockDependsOnBlocked, Other: ref.Address(), Services: c.Services})
				delete(d.changes, k)
				d.conflicts[k], changed = true, true
			}
		}
	}
}

// markDisruptive marks every delete and replace, the updates that move
// traffic (ux-anchors §8.2 item 6), and the backend pool updates a
// reviewer must see (pools.go). Renderers say what each one breaks.
func (d *Result) markDisruptive() {
	for _, c := range d.changes {
		c.Disruptive = c.Has(plan.ActionDelete) || c.Has(plan.ActionUpdate) &&
			(plan.MovesTraffic(c) || c.Reason == plan.ReasonNodesNotInInput || d.drainsPool(c))
	}
}
