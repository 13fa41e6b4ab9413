package adopt

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// marks indexes the observed resources that can name a Service's prefix:
// one pass over the state, so a plan's cost does not grow per Service.
type marks struct {
	cluster string
	// pipsByService holds managed public IPs by the Services their
	// k8s-azure-service tag lists (§2.4 PIP); pipsByAddress every public IP.
	pipsByService map[string][]*plan.Resource
	pipsByAddress map[string][]*plan.Resource
	// plsByOwner holds the cluster's PLSs by k8s-azure-owner-service.
	plsByOwner map[string][]*plan.Resource
	// frontendsByPIP and frontendsByIP find frontends by their public IP's
	// key and by their private address.
	frontendsByPIP map[plan.Key][]*plan.Resource
	frontendsByIP  map[string][]*plan.Resource
	rulesByFront   map[plan.Key][]*plan.Resource
	frontends      map[plan.Key]*plan.Resource
}

func index(observed *plan.State, cluster string) *marks {
	m := &marks{
		cluster:        cluster,
		pipsByService:  map[string][]*plan.Resource{},
		pipsByAddress:  map[string][]*plan.Resource{},
		plsByOwner:     map[string][]*plan.Resource{},
		frontendsByPIP: map[plan.Key][]*plan.Resource{},
		frontendsByIP:  map[string][]*plan.Resource{},
		rulesByFront:   map[plan.Key][]*plan.Resource{},
		frontends:      map[plan.Key]*plan.Resource{},
	}
	for _, r := range observed.All() {
		m.add(r)
	}
	return m
}

func (m *marks) add(r *plan.Resource) {
	switch r.Kind() {
	case plan.KindPublicIP:
		if a := plan.AsPublicIP(r).Address(); a != "" {
			a = plan.CanonicalIP(a)
			m.pipsByAddress[a] = append(m.pipsByAddress[a], r)
		}
		if !m.ours(r.Tags) {
			return
		}
		if v, ok := plan.TagValue(r.Tags, plan.TagService, plan.LegacyTagService); ok {
			for _, svc := range plan.SplitServices(v) {
				m.pipsByService[svc] = append(m.pipsByService[svc], r)
			}
		}
	case plan.KindPrivateLinkService:
		// A PLS is the cluster's only when its cluster tag says so (§2.4).
		owner, ok := plan.TagValue(r.Tags, plan.TagOwnerService)
		c, named := plan.TagValue(r.Tags, plan.TagClusterName)
		if ok && named && strings.EqualFold(strings.TrimSpace(c), m.cluster) {
			m.plsByOwner[owner] = append(m.plsByOwner[owner], r)
		}
	case plan.KindFrontend:
		fe := plan.AsFrontend(r)
		m.frontends[r.Key()] = r
		if id := fe.PublicIPID(); id != "" {
			m.frontendsByPIP[plan.KeyOf(id)] = append(m.frontendsByPIP[plan.KeyOf(id)], r)
		}
		if a := fe.PrivateIP(); a != "" {
			a = plan.CanonicalIP(a)
			m.frontendsByIP[a] = append(m.frontendsByIP[a], r)
		}
	case plan.KindRule:
		fk := plan.AsRule(r).FrontendID()
		m.rulesByFront[fk] = append(m.rulesByFront[fk], r)
	}
}

// ours applies CCM's cluster check: a cluster tag, when present, names
// this cluster (trimmed, case-insensitive; §2.4).
func (m *marks) ours(tags map[string]string) bool {
	v, ok := plan.TagValue(tags, plan.TagClusterName, plan.LegacyTagCluster)
	return !ok || strings.EqualFold(strings.TrimSpace(v), m.cluster)
}
