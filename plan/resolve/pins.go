package resolve

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// A frontend pinned to a user-assigned public IP by address references
// PublicIPByAddress(collection, addr). CCM looks the address up among the
// public IPs of the resource group and fails the Service when none has it
// (ccm-semantics §6 "BYO pinned by IP", annotation 22). Resolve does the
// same before anything else: found, the marker becomes the public IP's ID;
// not found, the Service fails: the diff withdraws its changes and the plan
// says why, so its Azure resources stay as they are, as they do while CCM
// retries.

// findMissingPIPs records the Services whose pinned public IP address is
// not in the observed resource group, with the error CCM reports.
func (r *resolver) findMissingPIPs() {
	found := map[string]bool{}
	missing := map[string]bool{}
	for _, e := range r.desList {
		if e.R.Kind() != plan.KindFrontend {
			continue
		}
		coll, addr, ok := plan.ParsePublicIPByAddress(plan.AsFrontend(e.R).PublicIPRef())
		if !ok {
			continue
		}
		if _, ok := r.pipIndex[coll][plan.CanonicalIP(addr)]; ok {
			found[plan.CanonicalIP(addr)] = true
			continue
		}
		missing[plan.CanonicalIP(addr)] = true
		r.out.Conflicts[e.Key] = true
		for _, s := range e.R.Services {
			r.out.Failed[s] = true
			r.block(plan.Blocked{Address: e.R.ID.Address(), Code: plan.BlockPinnedIPNotFound, Services: []string{s},
				Value: addr, Group: collectionGroup(coll)})
		}
	}
	for ip := range missing {
		if !found[ip] {
			r.failedAddrs[ip] = true
		}
	}
}

// collectionSubscription is the subscription of a collection key, "" when
// it has none.
func collectionSubscription(coll plan.Key) string {
	parts := strings.Split(strings.Trim(string(coll), "/"), "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// collectionGroup is the resource group named by a collection key.
func collectionGroup(coll plan.Key) string {
	parts := strings.Split(strings.Trim(string(coll), "/"), "/")
	if len(parts) < 4 {
		return string(coll)
	}
	return parts[3]
}

// withPIPIDs returns want with every PublicIPByAddress marker whose address
// a public IP of its group has replaced by that IP's ID.
func (r *resolver) withPIPIDs(want *plan.Resource) *plan.Resource {
	if want.Kind() != plan.KindFrontend || !plan.HasMarker(want.Properties) {
		return want
	}
	w := want.Clone()
	w.Properties = plan.MapLeaves(w.Properties, r.pipID).(map[string]any)
	return w
}

func (r *resolver) pipID(v any) any {
	if coll, addr, ok := plan.ParsePublicIPByAddress(v); ok {
		if k, found := r.pipIndex[coll][plan.CanonicalIP(addr)]; found {
			pip, _ := r.obs.Get(k)
			return pip.ID.String()
		}
	}
	return v
}

// withoutFailedAddrs drops from a desired NSG rule's destinations the
// pinned addresses that failed and the addresses it would copy from the
// frontends of failed Services or the missing public IPs they name: CCM
// never got as far as adding them.
func (r *resolver) withoutFailedAddrs(rule *plan.Resource) *plan.Resource {
	if len(r.failedAddrs) == 0 && len(r.failedSources) == 0 {
		return rule
	}
	var kept []any
	dropped := false
	for _, v := range plan.AsSecurityRule(rule).Destinations() {
		s, isAddr := v.(string)
		src, _, copied := plan.UnknownSource(v)
		if isAddr && r.failedAddrs[plan.CanonicalIP(s)] || copied && r.failedSources[src] {
			dropped = true
			continue
		}
		kept = append(kept, v)
	}
	if !dropped {
		return rule
	}
	c := rule.Clone()
	plan.SetDestinations(c.Properties, kept)
	return c
}

// withPIPServiceTag keeps out-of-scope Services in a shared public IP's
// k8s-azure-service tag (ccm-semantics §6 "Sharing"): the desired body only
// knows the Services in scope.
func (r *resolver) withPIPServiceTag(want *plan.Resource, own Ownership) *plan.Resource {
	if _, ok := want.Tags[plan.TagService]; !ok || len(own.ForeignServices) == 0 || r.scope.Prune {
		return want
	}
	w := want.Clone()
	w.Tags[plan.TagService] = strings.Join(plan.SortedUnique(append(plan.SplitServices(w.Tags[plan.TagService]), own.ForeignServices...)), ",")
	return w
}
