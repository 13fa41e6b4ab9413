package desired

import (
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// SeenLBs is what ARM holds that pool membership depends on. Under
// multi-SLB, CCM remembers which nodes each configuration's load balancers
// hold (recordExistingNodesOnLoadBalancers) and places nodes only on load
// balancers that exist or are being built. With
// preConfiguredBackendPoolLoadBalancerTypes, it fills a pool of those
// types only when it creates it.
type SeenLBs struct {
	// Names are the load balancers of the LB resource group, lower-cased.
	Names map[string]bool
	// Nodes maps a configuration (lower-cased) whose load balancers hold a
	// cluster pool to the nodes those pools hold, lower-cased, found by
	// address. A configuration without an entry has no node set in CCM
	// (nil ActiveNodes): bi.EnsureHostsInPool then fills its pools with
	// every node, unless placement gives it some.
	Nodes map[string]map[string]bool
	// Pools are the backend pools ARM holds, when azure.json pre-configures
	// some load balancer types (nil otherwise).
	Pools map[plan.Key]bool
}

// SeenFrom reads SeenLBs from the observed state, leaving out the load
// balancers in gone (those the plan deletes) and their pools; nil unless
// cfg is a multi-SLB configuration or pre-configures pools, and topo holds
// Nodes.
func SeenFrom(observed *plan.State, cfg *cluster.Config, t *service.Topology, gone map[plan.Key]bool) *SeenLBs {
	preConfigured := cfg.PreConfiguredPools(true) || cfg.PreConfiguredPools(false)
	if observed == nil || !cfg.MultiSLB() && !preConfigured || t == nil || !t.NodesKnown {
		return nil
	}
	seen := &SeenLBs{Names: map[string]bool{}, Nodes: map[string]map[string]bool{}}
	rg := strings.ToLower(cfg.LBResourceGroup())
	for _, lb := range observed.OfKind(plan.KindLoadBalancer) {
		if strings.ToLower(lb.ID.ResourceGroup) == rg && !gone[lb.Key()] {
			seen.Names[strings.ToLower(lb.Name())] = true
		}
	}
	if preConfigured {
		seen.Pools = map[plan.Key]bool{}
	}
	var topo *topology
	if cfg.MultiSLB() {
		topo = newTopology(t, cfg.ResourceGroup)
	}
	for _, pool := range observed.OfKind(plan.KindBackendPool) {
		lbID, ok := pool.ID.ParentID()
		if !ok || gone[lbID.Key()] {
			continue
		}
		if seen.Pools != nil {
			seen.Pools[pool.Key()] = true
		}
		if topo != nil && strings.ToLower(lbID.ResourceGroup) == rg {
			seen.recordNodes(cfg, topo, lbID, pool)
		}
	}
	return seen
}

// recordNodes is recordExistingNodesOnLoadBalancers for one pool.
func (seen *SeenLBs) recordNodes(cfg *cluster.Config, topo *topology, lbID plan.ID, pool *plan.Resource) {
	config := strings.ToLower(trimInternal(lbID.Name()))
	name, clusterPool := strings.ToLower(pool.Name()), strings.ToLower(cfg.ClusterName)
	if !slices.ContainsFunc(cfg.MultipleStandardLoadBalancerConfigurations, func(c cluster.MultiSLBConfig) bool {
		return strings.EqualFold(c.Name, config)
	}) || name != clusterPool && name != clusterPool+"-ipv6" {
		return
	}
	if seen.Nodes[config] == nil {
		seen.Nodes[config] = map[string]bool{}
	}
	for _, ip := range plan.AsBackendPool(pool).Addresses() {
		if node, ok := topo.byIP[plan.CanonicalIP(ip)]; ok {
			seen.Nodes[config][strings.ToLower(node)] = true
		}
	}
}

// placeNodesAmong is reconcileMultipleStandardLoadBalancerBackendNodes run
// once over the whole node set (ccm-semantics §7.6): every configuration
// starts with the nodes its load balancers hold, nodes gone from the set
// leave, a node whose scale set is a configuration's primaryVMSet goes
// there, and any other node stays where it is if that configuration is
// still eligible for it, else goes to the eligible configuration (matching
// nodeSelector, or without one when none matches) with the fewest nodes.
// Only configurations whose load balancers exist or are being built take
// nodes: lbs, the lower-cased names of the load balancers (without
// "-internal") the plan builds, and those ARM holds. Nodes are visited by
// name, CCM in informer order. The result maps each configuration
// (lower-cased) to its nodes (lower-cased).
//
// A configuration that ARM's pools record no node set for and that
// placement gives no node has a nil ActiveNodes in CCM, and
// bi.EnsureHostsInPool puts every node in its pools. CCM records them at
// its next start and places again, which can take some of them back (a
// node another configuration's nodeSelector wants): the plan is that
// second placement, so that one apply converges.
func (p *poolSet) placeNodesAmong(lbs map[string]bool) map[string]map[string]bool {
	if p.seen != nil {
		for n := range p.seen.Names {
			lbs[trimInternal(n)] = true
		}
	}
	recorded := map[string]map[string]bool{}
	if p.seen != nil {
		maps.Copy(recorded, p.seen.Nodes)
	}
	placed := p.place(lbs, recorded)
	every := map[string]bool{}
	for _, n := range p.topo.nodes {
		if n.inSet {
			every[strings.ToLower(n.name)] = true
		}
	}
	filled := false
	for config, nodes := range placed {
		if _, ok := recorded[config]; !ok && len(nodes) == 0 && lbs[config] {
			recorded[config], filled = every, true
		}
	}
	if filled {
		placed = p.place(lbs, recorded)
	}
	return placed
}

// place is one placement from the node sets recorded (configuration to
// nodes, lower-cased).
func (p *poolSet) place(lbs map[string]bool, recorded map[string]map[string]bool) map[string]map[string]bool {
	configs := p.cfg.MultipleStandardLoadBalancerConfigurations
	active := make([]map[string]bool, len(configs))
	for i, c := range configs {
		active[i] = maps.Clone(recorded[strings.ToLower(c.Name)])
		if active[i] == nil {
			active[i] = map[string]bool{}
		}
	}
	inSet := map[string]*nodeFacts{}
	for _, n := range p.topo.nodes {
		if n.inSet {
			inSet[strings.ToLower(n.name)] = n
		}
	}
	current := map[string]int{} // removeDeletedNodesFromLoadBalancerConfigurations
	for i := range active {
		for name := range active[i] {
			if inSet[name] == nil {
				delete(active[i], name)
				continue
			}
			current[name] = i
		}
	}
	exists := func(config string) bool { return lbs[strings.ToLower(config)] }
	byPrimary := map[string]bool{}
	for _, n := range p.topo.nodes {
		if n.inSet && p.placeByPrimaryVMSet(n, active, current, exists) {
			byPrimary[strings.ToLower(n.name)] = true
		}
	}
	for _, n := range p.topo.nodes {
		if n.inSet && !byPrimary[strings.ToLower(n.name)] {
			p.placeBySelector(n, active, current, exists)
		}
	}
	out := make(map[string]map[string]bool, len(configs))
	for i, c := range configs {
		out[strings.ToLower(c.Name)] = active[i]
	}
	return out
}

// placeByPrimaryVMSet is accommodateNodesByPrimaryVMSet for one node.
func (p *poolSet) placeByPrimaryVMSet(n *nodeFacts, active []map[string]bool, current map[string]int, exists func(string) bool) bool {
	if n.vmSet == "" {
		return false
	}
	name := strings.ToLower(n.name)
	for i, c := range p.cfg.MultipleStandardLoadBalancerConfigurations {
		if !strings.EqualFold(c.PrimaryVMSet, n.vmSet) {
			continue
		}
		if !exists(c.Name) {
			continue // "the lb is not found and will not be created this time"
		}
		if !active[i][name] {
			if old, ok := current[name]; ok {
				delete(active[old], name)
			}
			active[i][name] = true
		}
		return true
	}
	return false
}

// placeBySelector is accommodateNodesByNodeSelector for one node.
func (p *poolSet) placeBySelector(n *nodeFacts, active []map[string]bool, current map[string]int, exists func(string) bool) {
	configs := p.cfg.MultipleStandardLoadBalancerConfigurations
	var eligible []int
	for i, c := range configs {
		if !emptySelector(c.NodeSelector) && c.NodeSelector.Matches(n.labels) && exists(c.Name) {
			eligible = append(eligible, i)
		}
	}
	if len(eligible) == 0 {
		for i, c := range configs {
			if emptySelector(c.NodeSelector) && exists(c.Name) {
				eligible = append(eligible, i)
			}
		}
	}
	name := strings.ToLower(n.name)
	old, placed := current[name]
	for _, i := range eligible {
		if placed && i == old {
			return
		}
	}
	best, fewest := -1, int(^uint(0)>>1)
	for _, i := range eligible {
		if len(active[i]) < fewest {
			best, fewest = i, len(active[i])
		}
	}
	if placed && old != best {
		delete(active[old], name)
	}
	if best >= 0 {
		active[best][name] = true
	}
}

// emptySelector is isEmptyLabelSelector: nil, or no labels nor expressions.
func emptySelector(s *cluster.LabelSelector) bool {
	return s == nil || len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0
}

// SamePlacement reports whether the pools of state hold what a build with
// seen gives them: no members for the pre-configured pools ARM holds, and
// under multi-SLB the nodes placement gives them. When they do, a build
// with seen gives state again.
func SamePlacement(state *plan.State, cfg *cluster.Config, t *service.Topology, seen *SeenLBs) bool {
	if seen == nil {
		return true
	}
	p := &poolSet{cfg: cfg, topo: newTopology(t, cfg.ResourceGroup), seen: seen}
	if !p.samePreConfigured(state) {
		return false
	}
	if !cfg.MultiSLB() {
		return true
	}
	lbs := map[string]bool{}
	for _, lb := range state.OfKind(plan.KindLoadBalancer) {
		lbs[strings.ToLower(trimInternal(lb.Name()))] = true
	}
	placed := p.placeNodesAmong(lbs)
	for _, pool := range state.OfKind(plan.KindBackendPool) {
		list, ok := pool.Properties[plan.PoolMembersField].([]any)
		lbID, _ := pool.ID.ParentID()
		name := strings.ToLower(pool.Name())
		if !ok || name != strings.ToLower(cfg.ClusterName) && name != strings.ToLower(cfg.ClusterName)+"-ipv6" {
			continue
		}
		f := ipv4
		if strings.HasSuffix(name, "-ipv6") {
			f = ipv6
		}
		want, _ := p.members(&poolSpec{lbName: lbID.Name(), family: f}, placed)
		if len(want) != len(list) {
			return false
		}
		for i, n := range want {
			m, _ := list[i].(map[string]any)
			if m["name"] != n.name {
				return false
			}
		}
	}
	return true
}

// samePreConfigured reports whether no pool of state that ARM holds
// pre-configured lists members.
func (p *poolSet) samePreConfigured(state *plan.State) bool {
	if p.seen.Pools == nil {
		return true
	}
	pools := state.OfKind(plan.KindBackendPool)
	specs := make([]*poolSpec, len(pools))
	for i, pool := range pools {
		lbID, _ := pool.ID.ParentID()
		specs[i] = &poolSpec{key: pool.Key(), lbName: lbID.Name()}
		if p.cfg.MultiSLB() && !isClusterPool(p.cfg, pool.Name()) {
			specs[i].local = pool.Name()
		}
	}
	everyLB := fillsEveryLB(p.cfg, specs)
	for i, pool := range pools {
		_, listed := pool.Properties[plan.PoolMembersField]
		if listed && p.preConfigured(specs[i].key, specs[i].lbName, specs[i].local != "", everyLB) {
			return false
		}
	}
	return true
}

// isClusterPool reports the cluster's pool of either family (§2.2).
func isClusterPool(cfg *cluster.Config, name string) bool {
	n, c := strings.ToLower(name), strings.ToLower(cfg.ClusterName)
	return n == c || n == c+"-ipv6"
}
