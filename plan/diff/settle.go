package diff

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// settle makes replacements consistent with ARM's reference rules, to a
// fixpoint (resolve settled the removals already):
//   - a replaced resource forces the replacement of desired resources that
//     keep referencing it (they must let go of it before it is deleted);
//   - a private link service nobody desires goes when its frontend is
//     re-created (ccm-semantics §8 "Deletion");
//   - a replace something that stays still references is blocked
//     (ARM's "in use" errors, arm-rules §2.1).
func (d *Result) settle() {
	for changed := true; changed; {
		changed = false
		for _, k := range slices.Sorted(maps.Keys(d.changes)) {
			c := d.changes[k]
			if c == nil || !c.Has(plan.ActionDelete) {
				continue
			}
			if _, removal := d.res.Remove[k]; removal && !c.IsReplace() {
				continue
			}
			if d.settleReferrers(c) {
				changed = true
			}
		}
	}
}

// settleReferrers handles every observed resource that references the
// deleted or replaced c. It reports whether it changed anything.
func (d *Result) settleReferrers(c *plan.Change) bool {
	target := c.Key()
	for _, rk := range d.res.Observed.Referrers(target) {
		if rc := d.changes[rk]; rc != nil && rc.Has(plan.ActionDelete) {
			continue
		}
		if d.dropsReference(rk, target) || d.parentDeleted(rk) {
			continue
		}
		ref, _ := d.res.Observed.Get(rk)
		want, desired := d.res.Desired.Get(rk)
		own := d.res.Ownership(rk)
		switch {
		case !(desired && own.Managed) && ref.Kind() == plan.KindPrivateEndpoint && c.ID().Kind == plan.KindPrivateLinkService:
			continue // its connection goes with the PLS (ccm-semantics §8 "Deletion")
		case desired && own.Managed && c.IsReplace():
			d.replaceWith(rk, ref, d.resolveMarkers(want), target)
		case !desired && own.Managed && ref.Kind() == plan.KindPrivateLinkService:
			d.changes[rk] = deletion(ref, append(append([]string(nil), own.Services...), c.Services...))
		default:
			d.blockChange(c, ref.ID.Address())
		}
		return true
	}
	return false
}

// dropsReference reports whether the planned change of rk no longer
// references target: an update that drops a reference runs before the
// delete of what it referenced (DESIGN.md "Order").
func (d *Result) dropsReference(rk, target plan.Key) bool {
	rc := d.changes[rk]
	if rc == nil || rc.After == nil || rc.IsReplace() {
		return false
	}
	for _, k := range plan.Dependencies(rc.After) {
		if k == target {
			return false
		}
	}
	return true
}

func (d *Result) parentDeleted(k plan.Key) bool {
	r, ok := d.res.Observed.Get(k)
	if !ok {
		return false
	}
	pid, ok := r.ID.ParentID()
	if !ok {
		return false
	}
	pc := d.changes[pid.Key()]
	return pc != nil && pc.Has(plan.ActionDelete)
}

func (d *Result) replaceWith(k plan.Key, before, after *plan.Resource, cause plan.Key) {
	c := d.changes[k]
	if c == nil {
		d.noop--
		c = &plan.Change{Before: before, Services: after.Services}
		d.changes[k] = c
	}
	c.Actions, c.After, c.Reason, c.Cause = []plan.Action{plan.ActionDelete, plan.ActionCreate}, after, plan.ReasonRequiresReplacement, cause
}

// blockChange withdraws a delete or replace that cannot run because user,
// which stays, still references the resource; the resource stays as it is.
func (d *Result) blockChange(c *plan.Change, user string) {
	code := plan.BlockDeleteInUse
	if c.IsReplace() {
		code = plan.BlockReplaceInUse
	}
	d.blocked.Add(plan.Blocked{Address: c.ID().Address(), Code: code, Other: user, Services: c.Services})
	delete(d.changes, c.Key())
	if c.Before != nil && c.After != nil {
		d.noop++
	}
}

// resolveMarkers returns want with AfterApply markers replaced by values
// already known: the desired source's value, else the observed source's
// value when the source is neither created nor re-created by this plan
// (DESIGN.md "Values only Azure can assign").
func (d *Result) resolveMarkers(want *plan.Resource) *plan.Resource {
	if !plan.HasMarker(want.Properties) {
		return want
	}
	w := want.Clone()
	w.Properties = plan.MapLeaves(w.Properties, d.resolveLeaf).(map[string]any)
	plan.Normalize(w)
	return w
}

func (d *Result) resolveLeaf(v any) any {
	if _, _, byAddr := plan.ParsePublicIPByAddress(v); byAddr {
		return v // not found by resolve: the Service fails
	}
	if src, field, ok := plan.UnknownSource(v); ok {
		if val, ok := d.knownValue(src, field); ok {
			return val
		}
	}
	return v
}

func (d *Result) knownValue(src plan.Key, field string) (any, bool) {
	if c := d.changes[src]; c != nil && c.Has(plan.ActionCreate) {
		return nil, false
	}
	if w, ok := d.res.Wanted.Get(src); ok {
		if v, ok := w.Properties[field]; ok && v != nil && !plan.IsUnknown(v) {
			return v, true
		}
	}
	if o, ok := d.res.Observed.Get(src); ok {
		if v, ok := o.Properties[field].(string); ok && v != "" {
			return v, true
		}
	}
	return nil, false
}
