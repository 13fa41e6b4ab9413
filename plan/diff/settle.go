package diff

import (
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

// settler settles the deletes and replaces of a diff against what still
// references them (settle). It edits the diff's changes and blocked
// entries in place.
type settler struct {
	res     *resolve.Resolved
	changes map[plan.Key]*plan.Change
	blocked *plan.Blocks
	markers markers
	// noop is what settling adds to the count of desired resources already
	// as wanted: a replace forced on one takes it away, a replace blocked
	// gives it back.
	noop int
}

// settle makes replacements consistent with ARM's reference rules, to a
// fixpoint (resolve settled the removals already):
//   - a replaced resource forces the replacement of desired resources that
//     keep referencing it (they must let go of it before it is deleted);
//   - a private link service nobody desires goes when its frontend is
//     re-created (ccm-semantics §8 "Deletion");
//   - a replace something that stays still references is blocked
//     (ARM's "in use" errors, arm-rules §2.1).
func (s *settler) settle() {
	for changed := true; changed; {
		changed = false
		for _, k := range slices.Sorted(maps.Keys(s.changes)) {
			c := s.changes[k]
			if c == nil || !c.Has(plan.ActionDelete) {
				continue
			}
			if _, removal := s.res.Remove[k]; removal && !c.IsReplace() {
				continue
			}
			if s.settleReferrers(c) {
				changed = true
			}
		}
	}
}

// settleReferrers handles every observed resource that references the
// deleted or replaced c. It reports whether it changed anything.
func (s *settler) settleReferrers(c *plan.Change) bool {
	target := c.Key()
	for _, rk := range s.res.Observed.Referrers(target) {
		if rc := s.changes[rk]; rc != nil && rc.Has(plan.ActionDelete) {
			continue
		}
		if s.dropsReference(rk, target) || s.parentDeleted(rk) {
			continue
		}
		ref, _ := s.res.Observed.Get(rk)
		want, desired := s.res.Desired.Get(rk)
		own := s.res.Ownership(rk)
		switch {
		case !(desired && own.Managed) && ref.Kind() == plan.KindPrivateEndpoint && c.ID().Kind == plan.KindPrivateLinkService:
			continue // its connection goes with the PLS (ccm-semantics §8 "Deletion")
		case desired && own.Managed && c.IsReplace():
			s.replaceWith(rk, ref, s.markers.resolve(want), target)
		case !desired && own.Managed && ref.Kind() == plan.KindPrivateLinkService:
			s.changes[rk] = deletion(ref, append(append([]string(nil), own.Services...), c.Services...))
		default:
			s.blockChange(c, ref.ID.Address())
		}
		return true
	}
	return false
}

// dropsReference reports whether the planned change of rk no longer
// references target: an update that drops a reference runs before the
// delete of what it referenced (DESIGN.md "Order").
func (s *settler) dropsReference(rk, target plan.Key) bool {
	rc := s.changes[rk]
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

func (s *settler) parentDeleted(k plan.Key) bool {
	r, ok := s.res.Observed.Get(k)
	if !ok {
		return false
	}
	pid, ok := r.ID.ParentID()
	if !ok {
		return false
	}
	pc := s.changes[pid.Key()]
	return pc != nil && pc.Has(plan.ActionDelete)
}

func (s *settler) replaceWith(k plan.Key, before, after *plan.Resource, cause plan.Key) {
	c := s.changes[k]
	if c == nil {
		s.noop--
		c = &plan.Change{Before: before, Services: after.Services}
		s.changes[k] = c
	}
	c.Actions, c.After, c.Reason, c.Cause = []plan.Action{plan.ActionDelete, plan.ActionCreate}, after, plan.ReasonRequiresReplacement, cause
}

// blockChange withdraws a delete or replace that cannot run because user,
// which stays, still references the resource; the resource stays as it is.
func (s *settler) blockChange(c *plan.Change, user string) {
	code := plan.BlockDeleteInUse
	if c.IsReplace() {
		code = plan.BlockReplaceInUse
	}
	s.blocked.Add(plan.Blocked{Address: c.ID().Address(), Code: code, Other: user, Services: c.Services})
	delete(s.changes, c.Key())
	if c.Before != nil && c.After != nil {
		s.noop++
	}
}
