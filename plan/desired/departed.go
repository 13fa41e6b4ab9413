package desired

import (
	"net/netip"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// GoneNodeIPs are addresses in observed that were a node's and are no
// cloud-managed node's of t any more: CCM's retain step drops them from
// managed NSG rules (ccm-semantics §5.5 step 3: listAvailableSecurityGroup
// Destinations keeps the InternalIPs of nodes not labelled
// kubernetes.azure.com/managed=false and the Services' ingress IPs). They
// are the members of the cluster's backend pools, and the private
// destinations of managed NSG rules that no frontend has: a private
// address is no public IP nor additional public IP, so retain keeps it
// only as a node's or a frontend's. Reading the rules as well as the pools
// keeps the answer when an earlier apply drained the pools and stopped
// before the NSG. Nil without Nodes.
func GoneNodeIPs(observed *plan.State, cfg *cluster.Config, t *service.Topology) []string {
	if observed == nil || t == nil || !t.NodesKnown {
		return nil
	}
	keep := map[string]bool{}
	for _, n := range t.Nodes {
		if strings.EqualFold(n.Labels[labelManaged], "false") {
			continue
		}
		for _, a := range n.Status.Addresses {
			if a.Type == "InternalIP" {
				keep[plan.CanonicalIP(a.Address)] = true
			}
		}
	}
	for _, fe := range observed.OfKind(plan.KindFrontend) {
		if ip := plan.AsFrontend(fe).PrivateIP(); ip != "" {
			keep[plan.CanonicalIP(ip)] = true
		}
	}
	var gone []string
	add := func(ip string) {
		if ip = plan.CanonicalIP(ip); !keep[ip] {
			gone = append(gone, ip)
		}
	}
	for _, ip := range clusterPoolIPs(observed, cfg) {
		add(ip)
	}
	for _, r := range observed.OfKind(plan.KindSecurityRule) {
		if !managedRule(r) {
			continue
		}
		for _, d := range plan.AsSecurityRule(r).Destinations() {
			s, _ := d.(string)
			if addr, err := netip.ParseAddr(s); err == nil && service.IsNonPublicIP(addr) {
				add(s)
			}
		}
	}
	return plan.SortedUnique(gone)
}

// AbsentNodeIPs are the member addresses of the cluster's backend pools in
// observed that no Node of t has, any InternalIP, excluded or not, when
// t's Nodes come from manifests: a node that left the cluster, or one the
// manifests leave out, which would drain from every pool all the same.
// Nil without Nodes, or with a cluster's.
func AbsentNodeIPs(observed *plan.State, cfg *cluster.Config, t *service.Topology) []string {
	if observed == nil || t == nil || !t.NodesKnown || t.NodesFromCluster {
		return nil
	}
	listed := map[string]bool{}
	for _, n := range t.Nodes {
		for _, a := range n.Status.Addresses {
			if a.Type == "InternalIP" {
				listed[plan.CanonicalIP(a.Address)] = true
			}
		}
	}
	var absent []string
	for _, ip := range clusterPoolIPs(observed, cfg) {
		if ip = plan.CanonicalIP(ip); !listed[ip] {
			absent = append(absent, ip)
		}
	}
	return plan.SortedUnique(absent)
}

// clusterPoolIPs are the member addresses of the pools on the cluster's
// load balancers.
func clusterPoolIPs(observed *plan.State, cfg *cluster.Config) []string {
	lbs := map[string]bool{strings.ToLower(cfg.LBBase()): true, strings.ToLower(cfg.ClusterName): true}
	for _, c := range cfg.MultipleStandardLoadBalancerConfigurations {
		lbs[strings.ToLower(c.Name)] = true
	}
	rg := strings.ToLower(cfg.LBResourceGroup())
	var out []string
	for _, pool := range observed.OfKind(plan.KindBackendPool) {
		lbID, ok := pool.ID.ParentID()
		if ok && strings.ToLower(lbID.ResourceGroup) == rg && lbs[strings.ToLower(trimInternal(lbID.Name()))] {
			out = append(out, plan.AsBackendPool(pool).Addresses()...)
		}
	}
	return out
}

// managedRule is IsManagedSecurityRule (ccm-semantics §2.4): the name
// prefix and a priority in CCM's band.
func managedRule(r *plan.Resource) bool {
	p, ok := plan.AsSecurityRule(r).Priority()
	return ok && strings.HasPrefix(r.Name(), plan.ManagedRulePrefix) && p >= plan.ManagedPriorityMin && p <= plan.ManagedPriorityMax
}
