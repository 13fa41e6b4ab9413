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

// poolSet is the backend pools a build places, in placement order, and
// what fills IP-based ones: the input's Nodes (topo, nil without any) and
// the multi-SLB placement of those nodes (multislb_nodes.go).
type poolSet struct {
	cfg   *cluster.Config
	topo  *topology
	seen  *SeenLBs
	specs []*poolSpec
	byID  map[placeID]*poolSpec
}

// ensurePool creates the family's backend pool whether or not a rule uses
// it: CCM creates the pools of every family in spec.ipFamilies (§7.3 1.5).
func (b *builder) ensurePool(info *svcInfo, lbID plan.ID, f family) *poolSpec {
	id := poolID(b.cfg, info, lbID, f)
	pk := placeKey(id)
	spec, ok := b.pools.byID[pk]
	if !ok {
		res := b.put(&plan.Resource{ID: id, Properties: map[string]any{}, Owned: true})
		spec = &poolSpec{res: res, key: res.Key(), lbName: lbID.Name(), family: f}
		if b.cfg.MultiSLB() && info.etpLocal {
			spec.local = info.key
		}
		b.pools.add(pk, spec)
	}
	spec.res.AddService(info.key)
	return spec
}

func (p *poolSet) add(id placeID, spec *poolSpec) {
	p.byID[id] = spec
	p.specs = append(p.specs, spec)
}

// poolID is the cluster pool of the family (cluster / cluster-IPv6), or the
// per-Service pool of an ETP Local Service under multi-SLB (§2.2).
func poolID(cfg *cluster.Config, info *svcInfo, lbID plan.ID, f family) plan.ID {
	name := cfg.ClusterName
	if f == ipv6 {
		name += ipv6Suffix
	}
	if cfg.MultiSLB() && info.etpLocal {
		name = strings.ToLower(strings.ReplaceAll(info.key, "/", "-"))
		if f == ipv6 {
			name += "-ipv6"
		}
	}
	return plan.ChildID(lbID, plan.KindBackendPool, name)
}

// fill plans the members of IP-based pools and returns the node
// addresses of every pool whose addresses are known: the destinations of
// NSG rules with floating IP disabled. A pool missing from the result
// keeps the BackendNodeIPs marker, resolved from what ARM holds. builtLBs
// are the lower-cased configurations (load balancer names without
// "-internal") the build placed; it is called only when multi-SLB node
// placement needs them.
func (p *poolSet) fill(builtLBs func() map[string]bool) map[plan.Key][]string {
	if p.topo == nil || len(p.specs) == 0 {
		return nil
	}
	switch {
	case strings.EqualFold(p.cfg.BackendPoolType, cluster.PoolNodeIP):
		return p.fillNodeIPPools(builtLBs)
	case strings.EqualFold(p.cfg.BackendPoolType, cluster.PoolNodeIPConfiguration) && p.cfg.Standard():
		return p.nicPoolIPs()
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
func (p *poolSet) fillNodeIPPools(builtLBs func() map[string]bool) map[plan.Key][]string {
	if strings.TrimSpace(p.cfg.VnetName) == "" {
		return nil // getVnetResourceID needs it; Membership says why nothing is planned
	}
	var placed map[string]map[string]bool
	if p.cfg.MultiSLB() {
		placed = p.placeNodesAmong(builtLBs())
	}
	out := map[plan.Key][]string{}
	vnet := memberVNet(p.cfg)
	everyLB := fillsEveryLB(p.cfg, p.specs)
	for _, spec := range p.specs {
		if p.preConfigured(spec.key, spec.lbName, spec.local != "", everyLB) {
			continue // Membership says so; NSG destinations come from ARM's members
		}
		members, ok := p.members(spec, placed)
		if !ok {
			continue
		}
		if len(members) == 0 && !p.cfg.MultiSLB() {
			// removeNodeIPAddressesFromBackendPool keeps a single-SLB pool
			// as it is rather than empty it: ARM's members stay, and so do
			// the NSG destinations read from them.
			continue
		}
		list := make([]any, 0, len(members))
		ips := make([]string, 0, len(members))
		seen := make(map[string]bool, len(members))
		for _, n := range members {
			ip := n.first.of(spec.family)
			if seen[plan.CanonicalIP(ip)] {
				continue // hasIPAddressInBackendPool: an address joins once
			}
			seen[plan.CanonicalIP(ip)] = true
			list = append(list, map[string]any{"name": n.name, "properties": map[string]any{"ipAddress": ip}})
			ips = append(ips, plan.CanonicalIP(ip))
		}
		spec.res.Properties[plan.PoolMembersField] = list
		if len(list) > 0 {
			spec.res.Properties["virtualNetwork"] = map[string]any{"id": vnet}
		}
		sort.Strings(ips)
		out[spec.key] = ips
	}
	return out
}

// preConfigured reports a pool whose members CCM leaves alone
// (ccm-semantics §7.3 steps 5 and 9): its load balancer's type is in
// preConfiguredBackendPoolLoadBalancerTypes (by the Service's internal
// flag, which the "-internal" suffix of the name follows) and ARM holds the
// pool; CCM fills a pool it has to create. Under multi-SLB a Service
// outside those types fills the cluster pools of every load balancer
// (reconcileBackendPoolHosts walks them all): everyLB.
func (p *poolSet) preConfigured(pool plan.Key, lbName string, local, everyLB bool) bool {
	internal := trimInternal(lbName) != lbName
	if !p.cfg.PreConfiguredPools(internal) || p.seen == nil || !p.seen.Pools[pool] {
		return false
	}
	return local || !everyLB
}

// fillsEveryLB reports whether, under multi-SLB, a Service whose pools are
// not pre-configured places a cluster pool: its reconcile fills the cluster
// pools of every load balancer.
func fillsEveryLB(cfg *cluster.Config, specs []*poolSpec) bool {
	if !cfg.MultiSLB() {
		return false
	}
	for _, spec := range specs {
		if spec.local == "" && !cfg.PreConfiguredPools(trimInternal(spec.lbName) != spec.lbName) {
			return true
		}
	}
	return false
}

// members are the nodes pool spec holds, sorted by name; false when they
// cannot be told (a Local pool without EndpointSlice input).
func (p *poolSet) members(spec *poolSpec, placed map[string]map[string]bool) ([]*nodeFacts, bool) {
	var active map[string]bool // nil: every node of the set
	switch {
	case spec.local != "":
		if !p.topo.slicesKnown {
			return nil, false
		}
		// No EndpointSlice at all leaves getLocalServiceEndpointsNodeNames
		// nil, and EnsureHostsInPool then takes every node.
		active = p.topo.endpointNodes[spec.local]
	case p.cfg.MultiSLB():
		active = placed[strings.ToLower(trimInternal(spec.lbName))]
		if active == nil {
			active = map[string]bool{}
		}
	}
	var out []*nodeFacts
	for _, n := range p.topo.nodes {
		if !n.inSet || n.controlPlane || n.first.of(spec.family) == "" {
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
func (p *poolSet) nicPoolIPs() map[plan.Key][]string {
	var byFamily [2][]string
	for _, n := range p.topo.nodes {
		if !n.inSet || n.excluded || n.controlPlane && *p.cfg.ExcludeMasterFromStandardLB {
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
	for _, spec := range p.specs {
		out[spec.key] = byFamily[famIndex(spec.family)]
	}
	return out
}

// memberVNet is getVnetResourceID: the cluster's VNet, in subscriptionId
// (not networkResourceSubscriptionID, which CCM does not use here).
func memberVNet(cfg *cluster.Config) string {
	sub := cfg.SubscriptionID
	if cfg.Subscription != "" {
		sub = cfg.Subscription
	}
	return plan.NewID(sub, cfg.VnetRG(), plan.KindVirtualNetwork, cfg.VnetName).String()
}

func trimInternal(lb string) string {
	if len(lb) >= len(internalSuffix) && strings.EqualFold(lb[len(lb)-len(internalSuffix):], internalSuffix) {
		return lb[:len(lb)-len(internalSuffix)]
	}
	return lb
}
