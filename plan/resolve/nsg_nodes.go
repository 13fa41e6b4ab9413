package resolve

import (
	"github.com/azsvc/azsvc/plan"
)

// With floating IP disabled, a Service's NSG destinations are the node IPs
// of the LB's cluster backend pool (ccm-semantics §5.2), which desired state
// marks BackendNodeIPs(pool). A nodeIP pool lists them
// (loadBalancerBackendAddresses[].properties.ipAddress); a
// nodeIPConfiguration pool lists NIC ipconfigs instead, and azsvc does not
// read NICs. Then the destinations cannot be planned: the rule goes without
// them, or is left out when nothing else is left, as CCM drops a rule with
// no destination (§5.5 step 4), and the plan says CCM adds them. Leaving
// them out, rather than planning an unknown value, keeps a converged plan
// empty.

// withNodeIPs replaces the BackendNodeIPs markers of a desired NSG rule by
// the observed node addresses, sorted, and returns the pools that show
// none.
func (r *nsgMerge) withNodeIPs(rule *plan.Resource) (*plan.Resource, []plan.Key) {
	var out []any
	var blind []plan.Key
	found := false
	for _, v := range plan.AsSecurityRule(rule).Destinations() {
		pool, ok := plan.ParseBackendNodeIPs(v)
		if !ok {
			out = append(out, v)
			continue
		}
		found = true
		ips := r.poolNodeIPs(pool)
		if len(ips) == 0 {
			blind = append(blind, pool)
		}
		out = append(out, ips...)
	}
	if !found {
		return rule, nil
	}
	c := rule.Clone()
	plan.SetDestinations(c.Properties, out)
	return c, blind
}

// noteNodeIPs says in the plan why a rule goes without node IPs: left out
// (nothing else to allow), kept as observed (CCM built it; azsvc cannot
// check its node IPs) or planned with its other destinations only.
func (r *nsgMerge) noteNodeIPs(rule *plan.Resource, blind []plan.Key, exists bool) {
	code := plan.BlockNodeIPsPartial
	switch empty := len(plan.AsSecurityRule(rule).Destinations()) == 0; {
	case empty && exists:
		code = plan.BlockNodeIPsLeft
	case empty:
		code = plan.BlockNodeIPsNotPlanned
	}
	for _, pool := range blind {
		r.block(plan.Blocked{Address: rule.ID.Address(), Code: code, Other: pool.Address(), Services: rule.Services})
	}
}

// poolNodeIPs lists the node addresses an observed backend pool holds,
// string-sorted and de-duplicated like every NSG destination (§5.3).
func (r *nsgMerge) poolNodeIPs(pool plan.Key) []any {
	p, ok := r.obs.Get(pool)
	if !ok {
		return nil
	}
	ips := plan.SortedUnique(plan.AsBackendPool(p).Addresses())
	out := make([]any, len(ips))
	for i, ip := range ips {
		out[i] = ip
	}
	return out
}
