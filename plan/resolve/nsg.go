package resolve

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// nsgMerge resolves the rules of the NSGs a plan reconciles.
type nsgMerge struct {
	*resolver
	released nsgRelease
	others   map[string]bool // othersAddresses, built on first use
}

// servesOthers reports whether a rule keeps, besides the wanted
// destinations, an address of a Service outside the scope.
func (r *nsgMerge) servesOthers(kept, wanted []any) bool {
	return slices.ContainsFunc(kept, func(d any) bool {
		s, ok := d.(string)
		return ok && r.othersAddresses()[plan.CanonicalIP(s)] && !slices.Contains(wanted, d)
	})
}

// othersAddresses are the addresses of observed frontends and public IPs
// that belong to Services outside the scope: a rule keeping one of them
// serves those Services too.
func (r *nsgMerge) othersAddresses() map[string]bool {
	if r.others != nil {
		return r.others
	}
	r.others = map[string]bool{}
	for _, kind := range []plan.Kind{plan.KindFrontend, plan.KindPublicIP} {
		for _, e := range r.obs.OfKind(kind) {
			if own := r.own[e.Key]; !own.Foreign && len(own.ForeignServices) == 0 {
				continue
			}
			ip := plan.AsPublicIP(e.R).Address()
			if kind == plan.KindFrontend {
				ip = plan.AsFrontend(e.R).PrivateIP()
			}
			if ip != "" {
				r.others[plan.CanonicalIP(ip)] = true
			}
		}
	}
	return r.others
}

// mergeNSGs resolves the NSG rules of every NSG the plan reconciles, the
// way CCM's reconcileSecurityGroup does (ccm-semantics §5.5): a managed
// rule is shared by every Service with the same protocol, sources and ports,
// so its destinations are reconciled one by one. The destinations of
// in-scope Services are replaced by what they want now; those of Services
// outside the scope are kept; a managed rule left without destinations is
// removed; new rules get priorities as CCM allocates them (§5.4).
func (r *nsgMerge) mergeNSGs() error {
	wanted := map[plan.Key][]*plan.Resource{}
	for _, e := range r.desList {
		if e.R.Kind() != plan.KindSecurityRule {
			continue
		}
		pid, _ := e.R.ID.ParentID()
		wanted[pid.Key()] = append(wanted[pid.Key()], e.R)
	}
	r.released = nsgRelease{ips: r.releasedIPs(), retained: r.retainedPorts()}
	for _, k := range slices.Sorted(maps.Keys(r.out.owners.SecurityGroups())) {
		if err := r.mergeNSG(k, wanted[k]); err != nil {
			return err
		}
	}
	return nil
}

// releasedIPs are the addresses of in-scope Services' frontends and public
// IPs as observed, mapped to those Services: the destinations this plan
// answers for. Their current use is dropped and re-added from the desired
// rules. A managed public IP tagged for Services outside the scope is left
// out; a user-assigned one has no tags, so the ports other Services still
// serve on an address are kept per rule (retainedPorts, nsg_shared.go).
// The addresses of departed nodes (Scope.GoneNodeIPs) are released too,
// for no Service.
func (r *nsgMerge) releasedIPs() map[string][]string {
	out := map[string][]string{}
	add := func(ip string, services []string) {
		if r.out.AllFailed(services) {
			return // CCM fails these Services before it touches the NSG
		}
		if ip != "" {
			out[ip] = append(out[ip][:len(out[ip]):len(out[ip])], services...)
		}
	}
	for _, e := range r.obs.OfKind(plan.KindFrontend) {
		own := r.own[e.Key]
		_, removed := r.out.Remove[e.Key]
		pruned := own.Foreign && r.scope.Prune && removed
		if !own.Deletable || len(own.Services) == 0 && !pruned {
			continue
		}
		fe := plan.AsFrontend(e.R)
		services := own.Services
		if pruned {
			services = r.outsideServices(e.R, own)
		}
		add(fe.PrivateIP(), services)
		if pip, ok := r.obs.Get(plan.KeyOf(fe.PublicIPID())); ok {
			if po := r.own[pip.Key()]; len(po.ForeignServices) == 0 || r.scope.Prune {
				add(plan.AsPublicIP(pip).Address(), services)
			}
		}
	}
	for _, e := range r.obs.OfKind(plan.KindPublicIP) {
		own := r.own[e.Key]
		if own.Deletable && len(own.Services) > 0 && (len(own.ForeignServices) == 0 || r.scope.Prune) {
			add(plan.AsPublicIP(e.R).Address(), own.Services)
		}
	}
	// A load-balancing rule the plan removes releases its frontend's
	// address, whoever owns the frontend and its public IP: on a frontend
	// shared by pinned IP neither is the leaving Service's to delete, yet
	// CCM takes that Service's address out of the NSG rules of the ports it
	// served (§5.5 step 1). The ports other Services still serve there are
	// retained (retainedPorts) or wanted again by the desired rules.
	for k, services := range r.out.Remove {
		if res, ok := r.obs.Get(k); ok && res.Kind() == plan.KindRule {
			for _, ip := range r.frontendAddresses(plan.AsRule(res).FrontendID()) {
				add(ip, services)
			}
		}
	}
	// A departed node's address is no destination of anything any more.
	for _, ip := range r.scope.GoneNodeIPs {
		if _, ok := out[ip]; !ok {
			out[ip] = nil
		}
	}
	return out
}

// mergeNSG resolves the rules of one NSG: handled lists the rules a
// desired rule of the same name answers for, so the others are reconciled
// as wanted by nobody in scope.
func (r *nsgMerge) mergeNSG(nsg plan.Key, wanted []*plan.Resource) error {
	handled := make(map[plan.Key]bool, len(wanted))
	creates := map[plan.Key]*plan.Resource{}
	for _, w := range wanted {
		k := w.Key()
		handled[k] = true
		got, ok := r.obs.Get(k)
		if r.out.AllFailed(w.Services) {
			continue // an observed rule stays as it is; pins.go says why
		}
		rule, blind := r.withNodeIPs(r.withoutFailedAddrs(w), ok)
		r.noteNodeIPs(rule, blind, ok)
		empty := len(plan.AsSecurityRule(rule).Destinations()) == 0
		switch {
		case !ok && empty:
			// Nothing to allow yet (nsg_nodes.go); CCM drops such a rule.
		case !ok:
			creates[k] = rule
		case !r.own[k].Managed:
			r.block(plan.Blocked{Address: w.ID.Address(), Code: plan.BlockNSGRuleNotManaged, Why: r.own[k].Why, Services: w.Services})
		case empty:
			r.mergeRule(got, nil)
		default:
			r.mergeRule(got, rule)
		}
	}
	for _, got := range r.obs.Children(nsg) {
		if k := got.Key(); !handled[k] && r.own[k].Managed {
			r.mergeRule(got, nil)
		}
	}
	return r.allocatePriorities(nsg, creates)
}

// mergeRule resolves one observed managed rule; want is nil when no
// in-scope Service wants the rule any more. The destinations it keeps are
// those the plan does not answer for; the Services of the released ones
// are the rule's too, so the plan groups the change under them.
func (r *nsgMerge) mergeRule(got, want *plan.Resource) {
	var kept []any
	var services []string
	dests := plan.AsSecurityRule(got).Destinations()
	for _, dst := range dests {
		if s, ok := dst.(string); ok {
			if owners, isReleased := r.released.ips[s]; isReleased && !servesRetained(got, r.released.retained[plan.CanonicalIP(s)]) {
				services = append(services, owners...)
				continue
			}
		}
		kept = append(kept, dst)
	}
	if want == nil {
		switch {
		case len(kept) == 0:
			r.out.remove(got.Key(), services)
		case len(kept) != len(dests):
			body := &plan.Resource{ID: got.ID, Properties: map[string]any{}, Services: plan.SortedUnique(services), Owned: true,
				ServesOthers: r.servesOthers(kept, nil)}
			plan.SetDestinations(body.Properties, kept)
			r.out.Desired.Put(body)
		}
		return
	}
	body := want.Clone()
	plan.WithoutDestinations(body.Properties)
	wanted := plan.AsSecurityRule(want).Destinations()
	body.ServesOthers = r.servesOthers(kept, wanted)
	plan.SetDestinations(body.Properties, append(kept, wanted...))
	body.Services = plan.SortedUnique(append(services, want.Services...))
	r.out.Desired.Put(body)
}

// allocatePriorities gives each new rule a priority the way CCM does
// (ccm-semantics §5.4): existing rules keep theirs; allow rules take the
// lowest free priority from 500 up, deny rules the highest free from 4095
// down, in the order CCM builds the rules (plan/desired gives each the
// priority it would get in an empty NSG, so that order is theirs).
// Priorities are unique per direction (arm-rules §1.4).
func (r *nsgMerge) allocatePriorities(nsg plan.Key, creates map[plan.Key]*plan.Resource) error {
	used := map[string]map[int]bool{}
	for _, got := range r.obs.Children(nsg) {
		if _, gone := r.out.Remove[got.Key()]; gone {
			continue
		}
		rule := plan.AsSecurityRule(got)
		if p, ok := rule.Priority(); ok {
			dir := rule.Direction()
			if used[dir] == nil {
				used[dir] = map[int]bool{}
			}
			used[dir][p] = true
		}
	}
	for _, w := range buildOrder(creates) {
		rule := plan.AsSecurityRule(w)
		dir := rule.Direction()
		if used[dir] == nil {
			used[dir] = map[int]bool{}
		}
		p, ok := nextPriority(used[dir], rule.Deny())
		if !ok {
			return fmt.Errorf("security rule priority exhausted in %s: no free priority in %d-%d for %s",
				nsg.Address(), plan.ManagedPriorityMin, plan.ManagedPriorityMax-1, w.ID.Address())
		}
		used[dir][p] = true
		body := w.Clone()
		body.Properties["priority"] = p
		plan.SetDestinations(body.Properties, rule.Destinations())
		r.out.Desired.Put(body)
	}
	return nil
}

func nextPriority(used map[int]bool, deny bool) (int, bool) {
	if deny {
		for p := plan.ManagedPriorityMax - 1; p >= plan.ManagedPriorityMin; p-- {
			if !used[p] {
				return p, true
			}
		}
		return 0, false
	}
	for p := plan.ManagedPriorityMin; p < plan.ManagedPriorityMax; p++ {
		if !used[p] {
			return p, true
		}
	}
	return 0, false
}

// buildOrder lists new rules in the order CCM builds them: allow rules by
// ascending desired priority, deny rules by descending, rules without one
// last, ties by key.
func buildOrder(creates map[plan.Key]*plan.Resource) []*plan.Resource {
	rank := func(r *plan.Resource) float64 {
		rule := plan.AsSecurityRule(r)
		p, ok := rule.RawPriority()
		switch {
		case !ok:
			return math.Inf(1)
		case rule.Deny():
			return 2*plan.ManagedPriorityMax - p
		}
		return p
	}
	out := plan.SortedResources(creates)
	slices.SortStableFunc(out, func(a, b *plan.Resource) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}
