package desired

import (
	"maps"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// SeenLBs is what ARM holds that multi-SLB node placement depends on: CCM
// remembers which nodes each configuration's load balancers hold
// (recordExistingNodesOnLoadBalancers) and places nodes only on load
// balancers that exist or are being built.
type SeenLBs struct {
	// Names are the load balancers of the LB resource group, lower-cased.
	Names map[string]bool
	// Nodes maps a configuration (lower-cased) to the nodes its load
	// balancers' cluster pools hold, lower-cased, found by address.
	Nodes map[string]map[string]bool
}

// SeenFrom reads SeenLBs from the observed state; nil unless cfg is a
// multi-SLB configuration and topo holds Nodes.
func SeenFrom(observed *plan.State, cfg *cluster.Config, t *service.Topology) *SeenLBs {
	if observed == nil || !cfg.MultiSLB() || t == nil || !t.NodesKnown {
		return nil
	}
	topo := newTopology(t, cfg.ResourceGroup)
	seen := &SeenLBs{Names: map[string]bool{}, Nodes: map[string]map[string]bool{}}
	rg := strings.ToLower(cfg.LBResourceGroup())
	configs := map[string]bool{}
	for _, c := range cfg.MultipleStandardLoadBalancerConfigurations {
		configs[strings.ToLower(c.Name)] = true
	}
	for _, lb := range observed.OfKind(plan.KindLoadBalancer) {
		if strings.ToLower(lb.ID.ResourceGroup) == rg {
			seen.Names[strings.ToLower(lb.Name())] = true
		}
	}
	cluster := strings.ToLower(cfg.ClusterName)
	for _, pool := range observed.OfKind(plan.KindBackendPool) {
		lbID, ok := pool.ID.ParentID()
		if !ok {
			continue
		}
		config := strings.ToLower(trimInternal(lbID.Name()))
		name := strings.ToLower(pool.Name())
		if strings.ToLower(lbID.ResourceGroup) != rg || !configs[config] || name != cluster && name != cluster+"-ipv6" {
			continue
		}
		for _, ip := range plan.AsBackendPool(pool).Addresses() {
			node, ok := topo.byIP[plan.CanonicalIP(ip)]
			if !ok {
				continue
			}
			if seen.Nodes[config] == nil {
				seen.Nodes[config] = map[string]bool{}
			}
			seen.Nodes[config][strings.ToLower(node)] = true
		}
	}
	return seen
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
func (p *poolSet) placeNodesAmong(lbs map[string]bool) map[string]map[string]bool {
	configs := p.cfg.MultipleStandardLoadBalancerConfigurations
	active := make([]map[string]bool, len(configs))
	for i, c := range configs {
		active[i] = map[string]bool{}
		if p.seen != nil {
			maps.Copy(active[i], p.seen.Nodes[strings.ToLower(c.Name)])
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
	if p.seen != nil {
		for n := range p.seen.Names {
			lbs[trimInternal(n)] = true
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

// SamePlacement reports whether the multi-SLB pools of state hold the
// nodes placement gives them with seen: when they do, a build with seen
// gives state again.
func SamePlacement(state *plan.State, cfg *cluster.Config, t *service.Topology, seen *SeenLBs) bool {
	if seen == nil || !cfg.MultiSLB() {
		return true
	}
	p := &poolSet{cfg: cfg, topo: newTopology(t, cfg.ResourceGroup), seen: seen}
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
