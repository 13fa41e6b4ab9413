package diff

import (
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// Which backend pool changes a reviewer must see as disruptive (ux-anchors
// §8.2 item 6). A node leaving the pools is CCM's normal scale-in: traffic
// goes on through the members left, and marking every such update would
// fill the disruptive section on each node pool resize, hiding the ones
// that matter. Two do matter:
//   - a pool left without members while a load-balancing rule that stays
//     uses it: every frontend port of those rules stops answering;
//   - members removed whose Node the input's Node manifests do not list
//     (Scope.AbsentNodeIPs): a node that left the cluster, or an
//     incomplete list of Node manifests draining nodes that did not.

// poolReason is nodes_not_in_input when an update of pool before to after
// removes a member whose Node the input does not list.
func (d *Result) poolReason(before, after *plan.Resource, reason plan.Reason) plan.Reason {
	if reason != plan.ReasonNodesChanged || len(d.res.Scope.AbsentNodeIPs) == 0 {
		return reason
	}
	for _, ip := range removedMembers(before, after) {
		if _, absent := slices.BinarySearch(d.res.Scope.AbsentNodeIPs, ip); absent {
			return plan.ReasonNodesNotInInput
		}
	}
	return reason
}

// drainsPool reports an update that leaves a backend pool without members
// while an observed load-balancing rule the plan keeps uses it.
func (d *Result) drainsPool(c *plan.Change) bool {
	if c.Before.Kind() != plan.KindBackendPool || len(plan.AsBackendPool(c.Before).Addresses()) == 0 ||
		len(plan.AsBackendPool(c.After).Addresses()) > 0 {
		return false
	}
	for _, rk := range d.res.Observed.Referrers(c.Key()) {
		rule, ok := d.res.Observed.Get(rk)
		if !ok || rule.Kind() != plan.KindRule {
			continue
		}
		if rc, changed := d.changes[rk]; !changed || !rc.IsDelete() {
			return true
		}
	}
	return false
}

// removedMembers are the canonical addresses before lists and after does
// not.
func removedMembers(before, after *plan.Resource) []string {
	kept := map[string]bool{}
	for _, ip := range plan.AsBackendPool(after).Addresses() {
		kept[plan.CanonicalIP(ip)] = true
	}
	var out []string
	for _, ip := range plan.AsBackendPool(before).Addresses() {
		if ip = plan.CanonicalIP(ip); !kept[ip] {
			out = append(out, ip)
		}
	}
	return out
}

// deletionReason explains the delete of an observed resource for services:
// a managed NSG rule that no Service released and whose destinations were
// all node addresses goes because those nodes left the input
// (nodes_changed), not because a Service stopped needing it.
func (d *Result) deletionReason(r *plan.Resource, services []string) plan.Reason {
	if r.Kind() != plan.KindSecurityRule || len(services) > 0 {
		return plan.ReasonServiceRemoved
	}
	dests := plan.AsSecurityRule(r).Destinations()
	nodes := d.poolIPs()
	for _, v := range dests {
		s, ok := v.(string)
		if !ok {
			return plan.ReasonServiceRemoved
		}
		ip := plan.CanonicalIP(s)
		if _, gone := slices.BinarySearch(d.res.Scope.GoneNodeIPs, ip); !gone && !nodes[ip] {
			return plan.ReasonServiceRemoved
		}
	}
	if len(dests) == 0 {
		return plan.ReasonServiceRemoved
	}
	return plan.ReasonNodesChanged
}
