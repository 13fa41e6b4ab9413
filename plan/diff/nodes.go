package diff

import (
	"github.com/azsvc/azsvc/plan"
)

// onlyNodeIPs reports whether an NSG rule's change is its destinations
// gaining or losing node addresses only: the members of IP-based pools, as
// desired and as ARM holds them (with floating IP disabled the
// destinations are node IPs, ccm-semantics §5.2). Nodes that joined or
// left explain such a change, not a Service.
func (d *Result) onlyNodeIPs(attrs []plan.AttributeChange) bool {
	if len(attrs) != 1 || attrs[0].Path[len(attrs[0].Path)-1] != plan.DestinationField {
		return false
	}
	before, _ := attrs[0].Before.([]any)
	after, _ := attrs[0].After.([]any)
	was := map[string]bool{}
	for _, v := range before {
		if s, ok := v.(string); ok {
			was[plan.CanonicalIP(s)] = true
		}
	}
	is := map[string]bool{}
	for _, v := range after {
		if s, ok := v.(string); ok {
			is[plan.CanonicalIP(s)] = true
		}
	}
	nodes := d.poolIPs()
	changed := false
	for ip := range was {
		if !is[ip] {
			changed = true
			if !nodes[ip] {
				return false
			}
		}
	}
	for ip := range is {
		if !was[ip] {
			changed = true
			if !nodes[ip] {
				return false
			}
		}
	}
	return changed
}

// poolIPs are the member addresses of every backend pool, desired and
// observed, found once.
func (d *Result) poolIPs() map[string]bool {
	if d.nodeIPs != nil {
		return d.nodeIPs
	}
	d.nodeIPs = map[string]bool{}
	for _, p := range d.res.Desired.OfKind(plan.KindBackendPool) {
		for _, ip := range plan.AsBackendPool(p).Addresses() {
			d.nodeIPs[plan.CanonicalIP(ip)] = true
		}
	}
	for _, e := range d.res.Observed.OfKind(plan.KindBackendPool) {
		for _, ip := range plan.AsBackendPool(e.R).Addresses() {
			d.nodeIPs[plan.CanonicalIP(ip)] = true
		}
	}
	return d.nodeIPs
}
