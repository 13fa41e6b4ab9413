package desired

import (
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// Membership says which backend pools of the desired state azsvc does not
// plan members for, and why, for the plan to say so. Pools whose
// membership VMs or ServiceGateway keep are listed only when changed
// reports them (the plan creates or updates them); the others always, since
// the input decides them.
func Membership(state *plan.State, cfg *cluster.Config, topo *service.Topology, changed func(plan.Key) bool) []plan.Membership {
	byCode := map[plan.MembershipCode][]string{}
	for _, pool := range state.OfKind(plan.KindBackendPool) {
		code, always := membershipOf(pool, cfg, topo)
		if code != "" && (always || changed(pool.Key())) {
			byCode[code] = append(byCode[code], pool.ID.Address())
		}
	}
	var out []plan.Membership
	for _, code := range slices.Sorted(maps.Keys(byCode)) {
		out = append(out, plan.Membership{Code: code, Pools: plan.SortedUnique(byCode[code])})
	}
	return out
}

func membershipOf(pool *plan.Resource, cfg *cluster.Config, topo *service.Topology) (plan.MembershipCode, bool) {
	switch {
	case strings.EqualFold(cfg.BackendPoolType, cluster.PoolNodeIPConfiguration):
		return plan.MembershipVMs, false
	case strings.EqualFold(cfg.BackendPoolType, cluster.PoolPodIP):
		return plan.MembershipServiceGateway, false
	}
	if _, planned := pool.Properties[plan.PoolMembersField]; planned {
		return "", false
	}
	lbID, _ := pool.ID.ParentID()
	switch {
	case cfg.PreConfiguredPools(trimInternal(lbID.Name()) != lbID.Name()):
		return plan.MembershipPreConfigured, true
	case topo == nil || !topo.NodesKnown:
		return plan.MembershipNoNodes, true
	case strings.TrimSpace(cfg.VnetName) == "":
		return plan.MembershipNoVNet, true
	case !isClusterPool(cfg, pool.Name()):
		return plan.MembershipNoEndpoints, true
	}
	return plan.MembershipKept, true
}
