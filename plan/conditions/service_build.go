package conditions

import (
	"github.com/azsvc/azsvc/plan"
)

// needs are the desired resources of one Service, by condition.
type needs struct {
	lbParts []plan.ID // load balancers, frontends, rules, probes, pools
	pips    []plan.ID
	// pinned are public IP addresses the Service pins that no public IP
	// in Azure has (a PublicIPByAddress reference left unresolved).
	pinned []string
	rules  []plan.ID // NSG rules
	pls    []plan.ID
}

// serviceBuilder gathers one Service's report.
type serviceBuilder struct {
	*builder
	s    Service
	n    needs
	lbs  map[plan.Key]int // index in s.LoadBalancers
	pips map[plan.Key]bool
	// own are the Service's own resources (not shared with others), by
	// key: its frontends, rules, probes, private link services, and the
	// public IPs the desired state holds for it rather than only uses.
	own []plan.Key
}

// service reports on the Service ref names.
func (b *builder) service(ref plan.ServiceRef) Service {
	sb := &serviceBuilder{builder: b, lbs: map[plan.Key]int{}, pips: map[plan.Key]bool{}, s: Service{
		Name: ref.Name, UID: b.uidOrigin(ref), LoadBalancers: []LoadBalancer{}, PublicIPs: []PublicIP{},
		SecurityRules: []SecurityRule{}, PrivateLinkServices: []PrivateLinkService{},
	}}
	for _, r := range b.owned[ref.Name] {
		sb.add(r)
	}
	s := &sb.s
	setFrontendAddresses(s)
	for _, k := range sb.own {
		if _, ok := b.obs.Get(k); ok {
			s.InAzure = true
		}
	}
	s.Conditions = b.serviceConditions(ref.Name, s, sb.n)
	return *s
}

// add reports on r, a desired resource of the Service.
func (sb *serviceBuilder) add(r *plan.Resource) {
	s, n := &sb.s, &sb.n
	switch r.Kind() {
	case plan.KindFrontend, plan.KindRule, plan.KindProbe, plan.KindPublicIP, plan.KindPrivateLinkService:
		sb.own = append(sb.own, r.Key())
	}
	switch r.Kind() {
	case plan.KindLoadBalancer:
		sb.loadBalancerOf(r.ID)
	case plan.KindFrontend:
		fe, pip := sb.frontend(r)
		lb := sb.loadBalancerOf(r.ID)
		lb.Frontends = append(lb.Frontends, fe)
		switch ref := pip.(type) {
		case plan.ID:
			sb.addPublicIP(ref)
		case string:
			n.pinned = append(n.pinned, ref)
		}
		n.lbParts = append(n.lbParts, r.ID)
	case plan.KindRule:
		lb := sb.loadBalancerOf(r.ID)
		lb.Rules = append(lb.Rules, sb.rule(r))
		n.lbParts = append(n.lbParts, r.ID)
	case plan.KindProbe:
		n.lbParts = append(n.lbParts, r.ID)
	case plan.KindBackendPool:
		lb := sb.loadBalancerOf(r.ID)
		lb.Pools = append(lb.Pools, sb.pool(r))
		n.lbParts = append(n.lbParts, r.ID)
	case plan.KindPublicIP:
		sb.addPublicIP(r.ID)
	case plan.KindSecurityRule:
		s.SecurityRules = append(s.SecurityRules, sb.securityRule(r.ID))
		n.rules = append(n.rules, r.ID)
	case plan.KindPrivateLinkService:
		s.PrivateLinkServices = append(s.PrivateLinkServices, sb.privateLinkService(r.ID))
		n.pls = append(n.pls, r.ID)
	}
}

// loadBalancerOf is the entry of id's load balancer (id is the load
// balancer or one of its children), added on first use.
func (sb *serviceBuilder) loadBalancerOf(id plan.ID) *LoadBalancer {
	if parent, ok := id.ParentID(); ok {
		id = parent
	}
	i, ok := sb.lbs[id.Key()]
	if !ok {
		i = len(sb.s.LoadBalancers)
		sb.lbs[id.Key()] = i
		sb.s.LoadBalancers = append(sb.s.LoadBalancers, sb.loadBalancer(id))
		sb.n.lbParts = append(sb.n.lbParts, id)
	}
	return &sb.s.LoadBalancers[i]
}

func (sb *serviceBuilder) addPublicIP(id plan.ID) {
	if !sb.pips[id.Key()] {
		sb.pips[id.Key()] = true
		sb.s.PublicIPs = append(sb.s.PublicIPs, sb.publicIP(id))
		sb.n.pips = append(sb.n.pips, id)
	}
}

// uidOrigin says where the UID naming ref's resources came from.
func (b *builder) uidOrigin(ref plan.ServiceRef) UIDOrigin {
	switch {
	case plan.IsUIDPlaceholder(ref.Prefix):
		return UIDUnknown
	case b.adopted[ref.Name]:
		return UIDFromAzure
	}
	return UIDFromInput
}

// setFrontendAddresses gives each public frontend its public IP's address.
func setFrontendAddresses(s *Service) {
	byAddr := map[string]string{}
	for _, p := range s.PublicIPs {
		byAddr[p.Address] = p.IPAddress
	}
	for i := range s.LoadBalancers {
		for j := range s.LoadBalancers[i].Frontends {
			if fe := &s.LoadBalancers[i].Frontends[j]; fe.PublicIP != "" {
				fe.IPAddress = byAddr[fe.PublicIP]
			}
		}
	}
}
