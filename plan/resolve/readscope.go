package resolve

import (
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// ReadScope is what a plan of desired must read from ARM: the groups the
// configuration places cluster resources in (scope.Placement), and every
// group and virtual network the desired state puts a resource in or
// points at (a public IP named by azure-pip-name, one pinned by address, a
// PLS NAT subnet). It is a function of the inputs alone, so the number of
// reads does not grow with the number of Services.
func ReadScope(desired *plan.State, scope plan.Scope) plan.ReadScope {
	var rs plan.ReadScope
	p := scope.Placement
	rs.Add(plan.KindLoadBalancer, p.LoadBalancers)
	rs.Add(plan.KindPublicIP, p.PublicIPs)
	rs.Add(plan.KindSecurityGroup, p.SecurityGroups)
	rs.Add(plan.KindPrivateLinkService, p.PrivateLinks)
	rs.Add(plan.KindPrivateEndpoint, p.Endpoints)
	rs.Add(plan.KindPrivateDNSZone, p.DNSZones)
	// The cluster VNet's subnets: a PLS NAT subnet's network policy is
	// planned like any resource (ccm-semantics §8 "Subnet policy").
	rs.AddVNet(p.VNet)
	subnets := map[plan.Key]plan.ID{}
	for _, e := range plan.NewIndex(desired).Entries {
		addID(&rs, e.R.ID, subnets)
		plan.EachReference(e.R.Properties, func(ref string) { addRef(&rs, ref, subnets) })
	}
	for _, k := range slices.Sorted(maps.Keys(subnets)) {
		rs.Subnets = append(rs.Subnets, subnets[k])
	}
	return rs
}

// addID adds where id lives, in its own subscription: a private endpoint
// in a guest subscription is read there.
func addID(rs *plan.ReadScope, id plan.ID, subnets map[plan.Key]plan.ID) {
	if id.Kind == plan.KindSubnet {
		subnets[id.Key()] = id
	}
	rs.AddID(id)
}

// addRef adds what a reference names: a resource ID, or a collection of
// public IPs searched by address (plan.PublicIPCollection).
func addRef(rs *plan.ReadScope, ref string, subnets map[plan.Key]plan.ID) {
	if id, err := plan.ParseID(ref); err == nil {
		addID(rs, id, subnets)
		return
	}
	if strings.HasSuffix(strings.ToLower(ref), "/"+strings.ToLower(plan.KindPublicIP.Segment())) {
		rs.AddIn(collectionSubscription(plan.Key(ref)), plan.KindPublicIP, collectionGroup(plan.Key(ref)))
	}
}
