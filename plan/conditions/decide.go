package conditions

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// item is one resource a condition covers: its address, whether Azure
// holds it, and whether it lacks a value only Azure assigns (an address,
// an alias).
type item struct {
	address  string
	exists   bool
	unset    bool
	unsetWhy Reason
}

// readiness decides a condition over the resources it covers; false when
// it covers none, so does not apply.
func readiness(t Type, items []item) (Condition, bool) {
	if len(items) == 0 {
		return Condition{}, false
	}
	var missing, all []string
	for _, it := range items {
		all = append(all, it.address)
		if !it.exists {
			missing = append(missing, it.address)
		}
	}
	switch {
	case len(missing) == len(items):
		return Condition{Type: t, Status: False, Reason: NotCreated, Addresses: all}, true
	case len(missing) > 0:
		return Condition{Type: t, Status: False, Reason: Missing, Addresses: missing}, true
	}
	c := Condition{Type: t, Status: True, Reason: AsExpected}
	for _, it := range items {
		if it.unset {
			c.Status, c.Reason = False, it.unsetWhy
			c.Addresses = append(c.Addresses, it.address)
		}
	}
	return c, true
}

// serviceConditions decides the conditions of Service name, whose report
// is s and desired resources n.
func (b *builder) serviceConditions(name string, s *Service, n needs) []Condition {
	internal := map[string]bool{} // frontends with no public IP: their address is private
	for _, lb := range s.LoadBalancers {
		for _, fe := range lb.Frontends {
			if fe.PublicIP == "" {
				internal[strings.ToLower(fe.Address)] = fe.IPAddress == ""
			}
		}
	}
	lbItems := b.items(n.lbParts, func(got *plan.Resource) (bool, Reason) {
		return internal[strings.ToLower(got.ID.Address())], NoAddress
	})
	pipItems := b.items(n.pips, func(got *plan.Resource) (bool, Reason) {
		return plan.AsPublicIP(got).Address() == "", NoAddress
	})
	for _, addr := range n.pinned {
		pipItems = append(pipItems, item{address: addr})
	}
	plsItems := b.items(n.pls, func(got *plan.Resource) (bool, Reason) {
		return plan.AsPrivateLinkService(got).Alias() == "", NoAlias
	})
	var out []Condition
	for _, c := range []struct {
		t     Type
		items []item
	}{
		{LoadBalancerReady, lbItems}, {PublicIPReady, pipItems},
		{SecurityRulesReady, b.items(n.rules, nil)}, {PrivateLinkServiceReady, plsItems},
	} {
		if cond, ok := readiness(c.t, c.items); ok {
			out = append(out, cond)
		}
	}
	return append(out, b.inSync(name))
}

// items are the resources ids name; unset, when given, says of one Azure
// holds whether it lacks a value Azure assigns.
func (b *builder) items(ids []plan.ID, unset func(*plan.Resource) (bool, Reason)) []item {
	out := make([]item, 0, len(ids))
	for _, id := range ids {
		got, ok := b.obs.Get(id.Key())
		it := item{address: id.Address(), exists: ok}
		if ok && unset != nil {
			it.unset, it.unsetWhy = unset(got)
		}
		out = append(out, it)
	}
	return out
}

// endpointConditions decides the conditions of the endpoint owner, whose
// report is e.
func (b *builder) endpointConditions(owner string, e *Endpoint) []Condition {
	var out []Condition
	if e.Endpoint.Address != "" {
		out = append(out, approval(e))
	}
	if c, ok := privateDNS(e); ok {
		out = append(out, c)
	}
	return append(out, b.inSync(owner))
}

// approval is PrivateEndpointApproved: the connection's state
// (arm-rules §7.3).
func approval(e *Endpoint) Condition {
	c := Condition{Type: PrivateEndpointApproved, Status: False, Addresses: []string{e.Endpoint.Address}}
	switch {
	case !e.Endpoint.Exists:
		c.Reason = NotCreated
	case strings.EqualFold(e.Connection, plan.ConnectionApproved):
		return Condition{Type: PrivateEndpointApproved, Status: True, Reason: AsExpected}
	case strings.EqualFold(e.Connection, plan.ConnectionPending):
		c.Reason = ConnectionPending
	case strings.EqualFold(e.Connection, plan.ConnectionRejected):
		c.Reason = ConnectionRejected
	case strings.EqualFold(e.Connection, plan.ConnectionDisconnected):
		c.Reason = ConnectionDisconnected
	default:
		c.Status, c.Reason = Unknown, NoConnectionState
	}
	return c
}

// privateDNS is PrivateDNSReady: every zone, link and record exists, and
// every record holds the endpoint's address.
func privateDNS(e *Endpoint) (Condition, bool) {
	var items []item
	var stale []string
	for _, z := range e.Zones {
		items = append(items, item{address: z.Address, exists: z.Exists})
		for _, l := range z.Links {
			items = append(items, item{address: l.Address, exists: l.Exists})
		}
		for _, r := range z.Records {
			items = append(items, item{address: r.Address, exists: r.Exists})
			if r.Exists && (len(r.IPAddresses) != 1 || r.IPAddresses[0] != e.IPAddress) {
				stale = append(stale, r.Address)
			}
		}
	}
	c, ok := readiness(PrivateDNSReady, items)
	switch {
	case !ok || c.Status != True:
		return c, ok
	case e.IPAddress == "":
		return Condition{Type: PrivateDNSReady, Status: Unknown, Reason: EndpointAddressUnknown}, true
	case len(stale) > 0:
		return Condition{Type: PrivateDNSReady, Status: False, Reason: RecordsStale, Addresses: stale}, true
	}
	return c, true
}
