package plan

import (
	"strings"
)

// planDeletes plans the removal of owned resources nothing desires: those
// of in-scope Services, and with Scope.Prune those of Services outside the
// scope. NSG rules, pools, load balancers, private link services and the
// shared probe follow their own rules (reconcileNSGs, settle).
func (d *differ) planDeletes() {
	for _, e := range d.obsList {
		r := e.r
		if _, wanted := d.desired.Get(e.key); wanted {
			continue
		}
		own := d.own[e.key]
		if !own.managed || d.allFailed(own.services) {
			continue
		}
		switch r.Kind() {
		case KindSecurityRule, KindSecurityGroup, KindLoadBalancer, KindBackendPool, KindPrivateLinkService, KindSubnet:
			continue
		case KindProbe:
			if strings.EqualFold(r.Name(), sharedProbeName) {
				continue
			}
		case KindPublicIP:
			d.releasePIP(r, own)
			continue
		}
		if !own.deletable {
			continue
		}
		if len(own.services) > 0 && (!own.foreign || d.scope.Prune) || len(own.services) == 0 && own.foreign && d.scope.Prune {
			d.changes[e.key] = d.deletion(r, own.services)
		}
	}
}

func (d *differ) deletion(r *Resource, services []string) *Change {
	return &Change{Actions: []Action{ActionDelete}, Before: r, Reason: ReasonServiceRemoved, Services: sortedUnique(services)}
}

// releasePIP unbinds the in-scope Services from a managed public IP no
// in-scope Service wants, and deletes it when no Service is left in its
// k8s-azure-service tag (ccm-semantics §6 release criteria). User-assigned
// IPs are never deleted.
func (d *differ) releasePIP(r *Resource, own ownership) {
	if !own.deletable || len(own.services) == 0 && !d.scope.Prune {
		return
	}
	remaining := own.foreignServices
	if d.scope.Prune {
		remaining = nil
	}
	if len(remaining) == 0 {
		d.changes[r.Key()] = d.deletion(r, append(own.services, own.foreignServices...))
		return
	}
	after := cloneResource(r)
	after.Tags[TagService] = strings.Join(remaining, ",")
	d.changes[r.Key()] = &Change{
		Actions: []Action{ActionUpdate}, Before: r, After: after, Reason: ReasonServiceRemoved,
		Services:   own.services,
		Attributes: []AttributeChange{{Path: []string{"tags", TagService}, Before: r.Tags[TagService], After: after.Tags[TagService]}},
	}
}

// settle makes the changes consistent with ARM's reference rules, to a
// fixpoint:
//   - a private link service on a removed frontend is deleted first
//     (ccm-semantics §8 "Deletion"), unless azsvc does not manage it, which
//     blocks the frontend's removal;
//   - a resource still referenced by something that stays is not deleted
//     (CCM's isFrontendIPConfigUnsafeToDelete; ARM's "in use" errors,
//     arm-rules §2.1): the delete becomes a Blocked entry;
//   - a replaced resource forces the replacement of desired resources that
//     keep referencing it (they must let go of it before it is deleted);
//   - a load balancer left without frontends is deleted with its children.
func (d *differ) settle() {
	for changed := true; changed; {
		changed = false
		for _, k := range sortedChangeKeys(d.changes) {
			c := d.changes[k]
			if c == nil || !c.Has(ActionDelete) {
				continue
			}
			if d.settleReferrers(c) {
				changed = true
			}
		}
		if d.deleteEmptyLBs() {
			changed = true
		}
	}
	d.deleteUnusedSharedProbes()
}

func sortedChangeKeys(m map[Key]*Change) []Key {
	out := make([]Key, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

// settleReferrers handles every observed resource that references the
// deleted or replaced c. It reports whether it changed anything.
func (d *differ) settleReferrers(c *Change) bool {
	target := c.Key()
	for _, rk := range d.referrersOf(target) {
		if rc := d.changes[rk]; rc != nil && rc.Has(ActionDelete) {
			continue
		}
		if d.dropsReference(rk, target) {
			continue
		}
		if d.parentDeleted(rk) {
			continue
		}
		ref, _ := d.observed.Get(rk)
		own := d.own[rk]
		want, desired := d.desired.Get(rk)
		switch {
		case desired && own.managed && c.IsReplace():
			d.replaceWith(rk, ref, d.resolved(want), target)
			return true
		case !desired && own.managed && ref.Kind() == KindPrivateLinkService:
			d.changes[rk] = d.deletion(ref, append(own.services, c.Services...))
			return true
		default:
			d.blockChange(c, ref.ID.Address())
			return true
		}
	}
	return false
}

// dropsReference reports whether the planned change of rk no longer
// references target: an update that drops a reference runs before the
// delete of what it referenced (DESIGN.md "Order").
func (d *differ) dropsReference(rk, target Key) bool {
	rc := d.changes[rk]
	if rc == nil || rc.After == nil || rc.IsReplace() {
		return false
	}
	for _, k := range refsOf(rc.After) {
		if k == target {
			return false
		}
	}
	return true
}

func (d *differ) parentDeleted(k Key) bool {
	r, ok := d.observed.Get(k)
	if !ok {
		return false
	}
	pid, ok := r.ID.ParentID()
	if !ok {
		return false
	}
	pc := d.changes[pid.Key()]
	return pc != nil && pc.Has(ActionDelete)
}

func (d *differ) replaceWith(k Key, before, after *Resource, cause Key) {
	c := d.changes[k]
	if c == nil {
		d.noop--
		c = &Change{Before: before, Services: after.Services}
		d.changes[k] = c
	}
	c.Actions, c.After, c.Reason = []Action{ActionDelete, ActionCreate}, after, ReasonRequiresReplacement
	c.Cause = cause
}

// blockChange withdraws a delete or replace that cannot run because user,
// which stays, still references the resource; the resource stays as it is.
func (d *differ) blockChange(c *Change, user string) {
	k := c.Key()
	code := BlockDeleteInUse
	if c.IsReplace() {
		code = BlockReplaceInUse
	}
	d.block(Blocked{Address: c.ID().Address(), Code: code, Other: user, Services: c.Services})
	delete(d.changes, k)
	if c.Before != nil && c.After != nil {
		d.noop++
	}
}

// deleteEmptyLBs deletes a managed load balancer that nothing desires once
// this plan removes its last frontend (ccm-semantics §7.3 step 1.8).
func (d *differ) deleteEmptyLBs() bool {
	changed := false
	for _, e := range ofKind(d.obsList, KindLoadBalancer) {
		lb := e.r
		if _, wanted := d.desired.Get(lb.Key()); wanted || !d.own[lb.Key()].managed || d.changes[lb.Key()] != nil {
			continue
		}
		kids := d.obsKids[lb.Key()]
		if !d.losesLastFrontend(kids) {
			continue
		}
		if kid := d.unownedKid(kids); kid != "" {
			d.block(Blocked{Address: lb.ID.Address(), Code: BlockEmptiedLB, Other: kid})
			continue
		}
		var services []string
		for _, k := range kids {
			if d.changes[k.Key()] == nil {
				d.changes[k.Key()] = d.deletion(k, nil)
			}
			services = append(services, d.changes[k.Key()].Services...)
		}
		d.changes[lb.Key()] = d.deletion(lb, services)
		changed = true
	}
	return changed
}

func (d *differ) losesLastFrontend(kids []*Resource) bool {
	removed := 0
	for _, k := range kids {
		if k.Kind() != KindFrontend {
			continue
		}
		c := d.changes[k.Key()]
		if c == nil || !c.IsDelete() {
			return false
		}
		removed++
	}
	return removed > 0
}

func (d *differ) unownedKid(kids []*Resource) string {
	for _, k := range kids {
		if !d.own[k.Key()].managed {
			return k.ID.Address()
		}
	}
	return ""
}

// deleteUnusedSharedProbes removes the cluster's shared probe once no rule
// that stays references it (ccm-semantics §4 keepSharedProbe).
func (d *differ) deleteUnusedSharedProbes() {
	for _, e := range ofKind(d.obsList, KindProbe) {
		p := e.r
		if !strings.EqualFold(p.Name(), sharedProbeName) || !d.own[e.key].managed || d.changes[e.key] != nil {
			continue
		}
		if _, wanted := d.desired.Get(p.Key()); wanted {
			continue
		}
		used := false
		for _, rk := range d.referrersOf(e.key) {
			if rc := d.changes[rk]; rc == nil || !rc.IsDelete() {
				used = true
				break
			}
		}
		if !used {
			d.changes[p.Key()] = d.deletion(p, nil)
		}
	}
}

func addressOfKey(k Key) string {
	id, err := ParseID(string(k))
	if err != nil {
		return string(k)
	}
	return id.Address()
}

// blockDependents withdraws every create or update whose desired body
// references a resource ownership blocked: it would point at something
// azsvc does not manage (CCM errors out in the same cases).
func (d *differ) blockDependents() {
	for changed := len(d.conflicts) > 0; changed; {
		changed = false
		for _, k := range sortedChangeKeys(d.changes) {
			c := d.changes[k]
			if c.After == nil {
				continue
			}
			for _, ref := range refsOf(c.After) {
				if d.conflicts[ref] {
					d.block(Blocked{Address: c.ID().Address(), Code: BlockDependsOnBlocked, Other: addressOfKey(ref), Services: c.Services})
					delete(d.changes, k)
					d.conflicts[k], changed = true, true
					break
				}
			}
		}
	}
}
