package desired

import (
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
)

// Backend pool membership (ccm-semantics §7.3 step 9, EnsureHostsInPool).
// With loadBalancerBackendPoolConfigurationType nodeIP the pool lists the
// node addresses itself, loadBalancerBackendAddresses, and azsvc plans them
// as part of the pool, inside the LB's PUT. With nodeIPConfiguration the
// nodes' NICs join the pool through their VM or scale set, which azsvc does
// not write; podIP pools belong to ServiceGateway, whose load balancer path
// never uses pod IPs (azure.go sets no LoadBalancerBackendPool for it), so
// EndpointSlices matter only where CCM reads them: which nodes run the
// endpoints of an ETP Local Service under multi-SLB.

// poolSpec is one backend pool the desired state holds.
type poolSpec struct {
	res    *plan.Resource
	key    plan.Key
	lbName string
	family family
	// local is the Service of a multi-SLB ETP Local pool, "" for a
	// cluster pool.
	local string
}

// ensurePool creates the family's backend pool whether or not a rule uses
// it: CCM creates the pools of every family in spec.ipFamilies (§7.3 1.5).
func (b *builder) ensurePool(info *svcInfo, lbID plan.ID, f family) *poolSpec {
	id := b.poolID(info, lbID, f)
	pk := placeKey(id)
	spec, ok := b.byPool[pk]
	if !ok {
		res := b.put(&plan.Resource{ID: id, Properties: map[string]any{}, Owned: true})
		spec = &poolSpec{res: res, key: res.Key(), lbName: lbID.Name(), family: f}
		if b.cfg.MultiSLB() && info.etpLocal {
			spec.local = info.key
		}
		b.byPool[pk] = spec
		b.pools = append(b.pools, spec)
	}
	spec.res.AddService(info.key)
	return spec
}

// fillPools plans the members of IP-based pools and returns the node
// addresses of every pool whose addresses are known: the destinations of
// NSG rules with floating IP disabled. A pool missing from the result
// keeps the BackendNodeIPs marker, resolved from what ARM holds.
func (b *builder) fillPools() map[plan.Key][]string {
	if b.topo == nil || len(b.pools) == 0 {
		return nil
	}
	switch {
	case strings.EqualFold(b.cfg.BackendPoolType, cluster.PoolNodeIP):
		return b.fillNodeIPPools()
	case strings.EqualFold(b.cfg.BackendPoolType, cluster.PoolNodeIPConfiguration) && b.cfg.Standard():
		return b.nicPoolIPs()
	}
	// Basic SKU NIC pools hold the nodes of one VM set each, which only
	// ARM knows; podIP pools are ServiceGateway's.
	return nil
}

// fillNodeIPPools is bi.EnsureHostsInPool for every pool: the members are
// the node set's nodes with an InternalIP of the pool's family, control
// plane nodes left out whatever excludeMasterFromStandardLB says. Nodes CCM
// excludes for NIC pools (managed=false, another resource group, the
// exclude label set to false) are not left out here: ReconcileBackendPools
// removes them and EnsureHostsInPool adds them back in the same reconcile,
// so the pool CCM leaves holds them. Under multi-SLB a cluster pool holds
// the nodes placed on its load balancer, a Local Service's pool the nodes
// running its endpoints.
func (b *builder) fillNodeIPPools() map[plan.Key][]string {
	if strings.TrimSpace(b.cfg.VnetName) == "" {
		return nil // getVnetResourceID needs it; Membership says why nothing is planned
	}
	placed := b.placeNodesOnLBs()
	out := map[plan.Key][]string{}
	vnet := b.memberVNet()
	for _, p := range b.pools {
		members, ok := b.poolMembers(p, placed)
		if !ok {
			continue
		}
		if len(members) == 0 && !b.cfg.MultiSLB() {
			// removeNodeIPAddressesFromBackendPool keeps a single-SLB pool
			// as it is rather than empty it: ARM's members stay, and so do
			// the NSG destinations read from them.
			continue
		}
		list := make([]any, 0, len(members))
		ips := make([]string, 0, len(members))
		seen := make(map[string]bool, len(members))
		for _, n := range members {
			ip := n.first.of(p.family)
			if seen[plan.CanonicalIP(ip)] {
				continue // hasIPAddressInBackendPool: an address joins once
			}
			seen[plan.CanonicalIP(ip)] = true
			list = append(list, map[string]any{"name": n.name, "properties": map[string]any{"ipAddress": ip}})
			ips = append(ips, plan.CanonicalIP(ip))
		}
		p.res.Properties[plan.PoolMembersField] = list
		if len(list) > 0 {
			p.res.Properties["virtualNetwork"] = map[string]any{"id": vnet}
		}
		sort.Strings(ips)
		out[p.key] = ips
	}
	return out
}

// poolMembers are the nodes pool p holds, sorted by name; false when they
// cannot be told (a Local pool without EndpointSlice input).
func (b *builder) poolMembers(p *poolSpec, placed map[string]map[string]bool) ([]*nodeFacts, bool) {
	var active map[string]bool // nil: every node of the set
	switch {
	case p.local != "":
		if !b.topo.slicesKnown {
			return nil, false
		}
		// No EndpointSlice at all leaves getLocalServiceEndpointsNodeNames
		// nil, and EnsureHostsInPool then takes every node.
		active = b.topo.endpointNodes[p.local]
	case b.cfg.MultiSLB():
		active = placed[strings.ToLower(trimInternal(p.lbName))]
		if active == nil {
			active = map[string]bool{}
		}
	}
	var out []*nodeFacts
	for _, n := range b.topo.nodes {
		if !n.inSet || n.controlPlane || n.first.of(p.family) == "" {
			continue
		}
		if active != nil && !active[strings.ToLower(n.name)] {
			continue
		}
		out = append(out, n)
	}
	return out, true
}

// nicPoolIPs are the node addresses of NIC-based pools, which the nodes'
// VMs and scale sets keep (ensureVMSSInPool, availabilitySet
// EnsureHostsInPool): the node set without excluded nodes, nor control
// plane nodes when excludeMasterFromStandardLB. GetBackendPrivateIPs then
// lists every InternalIP of those nodes, by family.
func (b *builder) nicPoolIPs() map[plan.Key][]string {
	var byFamily [2][]string
	for _, n := range b.topo.nodes {
		if !n.inSet || n.excluded || n.controlPlane && *b.cfg.ExcludeMasterFromStandardLB {
			continue
		}
		for i := range byFamily {
			for _, ip := range n.all[i] {
				byFamily[i] = append(byFamily[i], plan.CanonicalIP(ip))
			}
		}
	}
	for i := range byFamily {
		byFamily[i] = plan.SortedUnique(byFamily[i])
	}
	out := map[plan.Key][]string{}
	for _, p := range b.pools {
		out[p.key] = byFamily[famIndex(p.family)]
	}
	return out
}

// memberVNet is getVnetResourceID: the cluster's VNet, in subscriptionId
// (not networkResourceSubscriptionID, which CCM does not use here).
func (b *builder) memberVNet() string {
	sub := b.cfg.SubscriptionID
	if b.cfg.Subscription != "" {
		sub = b.cfg.Subscription
	}
	return plan.NewID(sub, b.cfg.VnetRG(), plan.KindVirtualNetwork, b.cfg.VnetName).String()
}

func trimInternal(lb string) string {
	if len(lb) >= len(internalSuffix) && strings.EqualFold(lb[len(lb)-len(internalSuffix):], internalSuffix) {
		return lb[:len(lb)-len(internalSuffix)]
	}
	return lb
}
