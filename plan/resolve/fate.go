package resolve

import (
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// fate decides which observed resources a plan removes.
type fate struct{ *resolver }

// planRemovals decides which observed resources this plan deletes: the
// owned ones nothing desires, of in-scope Services and, with Scope.Prune,
// of Services outside the scope (ccm-semantics §7.3, §7.4). Public IPs
// follow the release rules (releasePIP); NSG rules the reconcile
// (mergeNSGs); load balancers, backend pools, private link services and
// the shared probe are removed only by settleRemovals.
func (r fate) planRemovals() {
	for _, e := range r.obs.Entries {
		res := e.R
		if _, wanted := r.wanted.Get(e.Key); wanted {
			continue
		}
		own := r.own[e.Key]
		if !own.Managed || r.out.AllFailed(own.Services) {
			continue
		}
		switch res.Kind() {
		case plan.KindSecurityRule, plan.KindSecurityGroup, plan.KindLoadBalancer, plan.KindBackendPool,
			plan.KindPrivateLinkService, plan.KindSubnet:
			continue
		case plan.KindProbe:
			if strings.EqualFold(res.Name(), plan.SharedProbeName) {
				continue
			}
		case plan.KindPublicIP:
			r.releasePIP(res, own)
			continue
		}
		if !own.Deletable {
			continue
		}
		if len(own.Services) > 0 && (!own.Foreign || r.scope.Prune) || len(own.Services) == 0 && own.Foreign && r.scope.Prune {
			r.out.remove(e.Key, r.outsideServices(res, own))
		}
	}
	r.settleRemovals()
}

// releasePIP unbinds the in-scope Services from a managed public IP no
// in-scope Service wants, and deletes it when no Service is left in its
// k8s-azure-service tag (ccm-semantics §6 release criteria). User-assigned
// IPs are never deleted.
func (r fate) releasePIP(pip *plan.Resource, own Ownership) {
	if !own.Deletable || len(own.Services) == 0 && !r.scope.Prune {
		return
	}
	remaining := own.ForeignServices
	if r.scope.Prune {
		remaining = nil
	}
	if len(remaining) == 0 {
		r.out.remove(pip.Key(), append(own.Services, own.ForeignServices...))
		return
	}
	r.out.Desired.Put(&plan.Resource{ID: pip.ID, Tags: map[string]string{plan.TagService: strings.Join(remaining, ",")},
		Services: own.Services, Owned: true})
}

// settleRemovals makes the removals consistent with ARM's reference rules,
// to a fixpoint:
//   - a private link service on a removed frontend is deleted first
//     (ccm-semantics §8 "Deletion");
//   - a resource still referenced by something that stays is not deleted
//     (CCM's isFrontendIPConfigUnsafeToDelete; ARM's "in use" errors,
//     arm-rules §2.1): the removal becomes a Blocked entry;
//   - a load balancer left without frontends is deleted with its children
//     (§7.3 step 1.8), and the shared probe once no rule uses it (§4).
func (r fate) settleRemovals() {
	var keeps map[plan.Key]bool // built on first use: most plans remove nothing that is referenced
	for changed := true; changed; {
		changed = false
		for _, k := range slices.Sorted(maps.Keys(r.out.Remove)) {
			if _, still := r.out.Remove[k]; !still || len(r.obs.Referrers(k)) == 0 {
				continue
			}
			if keeps == nil {
				keeps = r.keepsObserved()
			}
			if r.settleReferrers(k, keeps) {
				changed = true
			}
		}
		if r.removeEmptyLBs() {
			changed = true
		}
	}
	r.removeUnusedSharedProbes()
}

// settleReferrers handles the observed resources that reference the
// removed target; it reports whether it changed anything.
func (r fate) settleReferrers(target plan.Key, keeps map[plan.Key]bool) bool {
	for _, rk := range r.obs.Referrers(target) {
		if _, gone := r.out.Remove[rk]; gone || r.parentRemoved(rk) || r.dropsReference(rk, target, keeps) {
			continue
		}
		ref, _ := r.obs.Get(rk)
		if droppedWithPLS(ref, target) {
			continue
		}
		own := r.own[rk]
		if pe, connected := r.endpoints.connected()[rk]; connected && ref.Kind() == plan.KindPrivateLinkService {
			// Deleting the PLS would cut an endpoint the input still
			// declares: it would be re-created against nothing and fail.
			r.block(plan.Blocked{Address: target.Address(), Code: plan.BlockEndpointConnected, Other: pe.Address(),
				Value: rk.Address(), Services: r.out.Remove[target]})
			delete(r.out.Remove, target)
			return true
		}
		if _, desired := r.wanted.Get(rk); !desired && own.Managed && ref.Kind() == plan.KindPrivateLinkService {
			r.out.remove(rk, append(own.Services, r.out.Remove[target]...))
			return true
		}
		r.block(plan.Blocked{Address: target.Address(), Code: plan.BlockDeleteInUse, Other: ref.ID.Address(), Services: r.out.Remove[target]})
		delete(r.out.Remove, target)
		return true
	}
	return false
}

// dropsReference reports whether the desired body of the referrer rk no
// longer references target: its update runs before the delete of what it
// referenced (DESIGN.md "Order"). A referrer whose update is not made (it
// is blocked, or serves only failed Services) keeps what ARM holds.
func (r fate) dropsReference(rk, target plan.Key, keeps map[plan.Key]bool) bool {
	want, desired := r.out.Desired.Get(rk)
	if !desired || keeps[rk] {
		return false
	}
	body := want
	if got, ok := r.obs.Get(rk); ok {
		body = plan.Merge(want, got)
	}
	return !slices.Contains(plan.Dependencies(body), target)
}

// keepsObserved lists the desired resources whose change the diff will
// withdraw: those of failed Services, and those referencing something
// blocked (transitively). Their observed body is what stays in ARM.
func (r fate) keepsObserved() map[plan.Key]bool {
	keeps := map[plan.Key]bool{}
	for k := range r.out.Conflicts {
		keeps[k] = true
	}
	deps := map[plan.Key][]plan.Key{}
	for _, e := range r.desList {
		if want, ok := r.out.Desired.Get(e.Key); ok {
			if r.out.AllFailed(want.Services) {
				keeps[e.Key] = true
			}
			deps[e.Key] = plan.Dependencies(want)
		}
	}
	for changed := len(keeps) > 0; changed; {
		changed = false
		for _, e := range r.desList {
			if d, ok := deps[e.Key]; ok && !keeps[e.Key] && slices.ContainsFunc(d, func(k plan.Key) bool { return keeps[k] }) {
				keeps[e.Key], changed = true, true
			}
		}
	}
	return keeps
}

func (r fate) parentRemoved(k plan.Key) bool {
	res, ok := r.obs.Get(k)
	if !ok {
		return false
	}
	pid, ok := res.ID.ParentID()
	if !ok {
		return false
	}
	_, gone := r.out.Remove[pid.Key()]
	return gone
}

// removeEmptyLBs deletes a managed load balancer that nothing desires once
// this plan removes its last frontend (ccm-semantics §7.3 step 1.8).
func (r fate) removeEmptyLBs() bool {
	changed := false
	for _, e := range r.obs.OfKind(plan.KindLoadBalancer) {
		if _, wanted := r.wanted.Get(e.Key); wanted || !r.own[e.Key].Managed {
			continue
		}
		if _, gone := r.out.Remove[e.Key]; gone {
			continue
		}
		kids := r.obs.Children(e.Key)
		if !r.losesLastFrontend(kids) {
			continue
		}
		if kid := r.unownedKid(kids); kid != "" {
			r.block(plan.Blocked{Address: e.R.ID.Address(), Code: plan.BlockEmptiedLB, Other: kid})
			continue
		}
		var services []string
		for _, k := range kids {
			if _, gone := r.out.Remove[k.Key()]; !gone {
				r.out.remove(k.Key(), nil)
			}
			services = append(services, r.out.Remove[k.Key()]...)
		}
		r.out.remove(e.Key, services)
		changed = true
	}
	return changed
}

func (r fate) losesLastFrontend(kids []*plan.Resource) bool {
	removed := 0
	for _, k := range kids {
		if k.Kind() != plan.KindFrontend {
			continue
		}
		if _, gone := r.out.Remove[k.Key()]; !gone {
			return false
		}
		removed++
	}
	return removed > 0
}

func (r fate) unownedKid(kids []*plan.Resource) string {
	for _, k := range kids {
		if !r.own[k.Key()].Managed {
			return k.ID.Address()
		}
	}
	return ""
}

// removeUnusedSharedProbes removes the cluster's shared probe once no rule
// that stays references it (ccm-semantics §4 keepSharedProbe).
func (r fate) removeUnusedSharedProbes() {
	for _, e := range r.obs.OfKind(plan.KindProbe) {
		if !strings.EqualFold(e.R.Name(), plan.SharedProbeName) || !r.own[e.Key].Managed {
			continue
		}
		if _, gone := r.out.Remove[e.Key]; gone {
			continue
		}
		if _, wanted := r.wanted.Get(e.Key); wanted {
			continue
		}
		used := slices.ContainsFunc(r.obs.Referrers(e.Key), func(rk plan.Key) bool {
			_, gone := r.out.Remove[rk]
			return !gone
		})
		if !used {
			r.out.remove(e.Key, nil)
		}
	}
}

// droppedWithPLS reports a private endpoint whose connection to the PLS
// target goes with it: a PLS delete deletes its connections first, whoever
// owns the endpoints (ccm-semantics §8 "Deletion"); the endpoint stays,
// Disconnected. An endpoint removed by the same plan is deleted first.
func droppedWithPLS(ref *plan.Resource, target plan.Key) bool {
	if ref.Kind() != plan.KindPrivateEndpoint {
		return false
	}
	id, err := plan.ParseID(string(target))
	return err == nil && id.Kind == plan.KindPrivateLinkService
}
