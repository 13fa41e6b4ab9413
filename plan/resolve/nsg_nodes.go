package resolve

import (
	"github.com/azsvc/azsvc/plan"
)

// With floating IP disabled, a Service's NSG destinations are the node IPs
// of the LB's cluster backend pool (ccm-semantics §5.2), which desired state
// marks BackendNodeIPs(pool). A nodeIP pool lists them
// (loadBalancerBackendAddresses[].properties.ipAddress); a
// nodeIPConfiguration pool lists NIC ipconfigs instead, and azsvc does not
// read NICs. Then the destinations of a rule CCM built cannot be checked:
// it keeps them, and the plan says so (leaving them alone, rather than
// planning an unknown value, keeps a converged plan empty). When the input
// has no Nodes, a rule that does not exist yet gets them as an unknown
// (plan.NodeIPs), as values the API server assigns are: CCM builds no rule
// without them, and apply refuses to write one until the input has the
// Nodes (--from-cluster). With Nodes, a pool desired state leaves to ARM
// that ARM shows empty is empty: CCM finds no address and drops the rule
// (§5.5 step 4).

// withNodeIPs replaces the BackendNodeIPs markers of a desired NSG rule by
// the observed node addresses, sorted, and returns the pools that show
// none; for a rule that does not exist, such a pool's addresses are
// unknown (plan.NodeIPs) rather than none.
func (r *nsgMerge) withNodeIPs(rule *plan.Resource, exists bool) (*plan.Resource, []plan.Key) {
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
		switch {
		case len(ips) > 0:
			out = append(out, ips...)
		case exists || len(r.scope.NodeIPs) > 0:
			blind = append(blind, pool)
		default:
			out = append(out, plan.NodeIPs(pool))
		}
	}
	if !found {
		return rule, nil
	}
	c := rule.Clone()
	plan.SetDestinations(c.Properties, out)
	return c, blind
}

// noteNodeIPs says in the plan why a rule goes without node IPs: not
// planned (nothing else to allow), kept as observed (CCM built it; azsvc
// cannot check its node IPs) or planned with its other destinations only.
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
