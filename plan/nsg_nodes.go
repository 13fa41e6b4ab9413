package plan

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
func (d *differ) withNodeIPs(r *Resource) (*Resource, []Key) {
	var out []any
	var blind []Key
	found := false
	for _, v := range destinations(r) {
		pool, ok := ParseBackendNodeIPs(v)
		if !ok {
			out = append(out, v)
			continue
		}
		found = true
		ips := d.poolNodeIPs(pool)
		if len(ips) == 0 {
			blind = append(blind, pool)
		}
		out = append(out, ips...)
	}
	if !found {
		return r, nil
	}
	c := cloneResource(r)
	setDestinations(c.Properties, out)
	return c, blind
}

// noteNodeIPs says in the plan why a rule goes without node IPs: left out
// (nothing else to allow), kept as observed (CCM built it; azsvc cannot
// check its node IPs) or planned with its other destinations only.
func (d *differ) noteNodeIPs(r *Resource, blind []Key, exists bool) {
	code := BlockNodeIPsPartial
	switch empty := len(destinations(r)) == 0; {
	case empty && exists:
		code = BlockNodeIPsLeft
	case empty:
		code = BlockNodeIPsNotPlanned
	}
	for _, pool := range blind {
		d.block(Blocked{Address: r.ID.Address(), Code: code, Other: addressOfKey(pool), Services: r.Services})
	}
}

// poolNodeIPs lists the node addresses an observed backend pool holds,
// string-sorted and de-duplicated like every NSG destination (§5.3).
func (d *differ) poolNodeIPs(pool Key) []any {
	p, ok := d.observed.Get(pool)
	if !ok {
		return nil
	}
	var ips []string
	for _, a := range asList(p.Properties["loadBalancerBackendAddresses"]) {
		m, _ := a.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		if ip, _ := props["ipAddress"].(string); ip != "" {
			ips = append(ips, ip)
		}
	}
	ips = sortedUnique(ips)
	out := make([]any, len(ips))
	for i, ip := range ips {
		out[i] = ip
	}
	return out
}
