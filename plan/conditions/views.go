package conditions

import (
	"github.com/azsvc/azsvc/plan"
)

// What Azure holds of each kind a Service needs: the values come from the
// observed resource, never from the desired one, so a resource Azure does
// not hold is shown by name only.

func (b *builder) loadBalancer(id plan.ID) LoadBalancer {
	ref, got := b.resource(id)
	lb := LoadBalancer{Resource: ref, Name: id.Name(), Frontends: []Frontend{}, Rules: []Rule{}, Pools: []Pool{}}
	if got != nil {
		lb.SKU = plan.AsLoadBalancer(got).SKUName()
	}
	return lb
}

// frontend reports on the desired frontend want. pip is the public IP it
// uses: Azure's when it holds the frontend, else the one wanted, as a
// plan.ID, or as the address a Service pins when no public IP has it; nil
// for an internal frontend.
func (b *builder) frontend(want *plan.Resource) (fe Frontend, pip any) {
	ref, got := b.resource(want.ID)
	fe = Frontend{Resource: ref, Name: want.Name()}
	src := want
	if got != nil {
		src = got
		fe.IPAddress = plan.AsFrontend(got).PrivateIP()
		fe.Zones = got.Zones
	}
	switch v := plan.AsFrontend(src).PublicIPRef().(type) {
	case string:
		if id, err := plan.ParseID(v); err == nil {
			fe.PublicIP = id.Address()
			return fe, id
		}
	default:
		if _, addr, ok := plan.ParsePublicIPByAddress(v); ok {
			return fe, addr
		}
	}
	return fe, nil
}

func (b *builder) rule(want *plan.Resource) Rule {
	ref, got := b.resource(want.ID)
	r := Rule{Resource: ref, Name: want.Name()}
	if got == nil {
		return r
	}
	v := plan.AsRule(got)
	r.Protocol, r.FloatingIP, r.IdleTimeout = v.Protocol(), v.FloatingIP(), v.IdleTimeout()
	r.FrontendPort, _ = v.FrontendPort()
	r.BackendPort, _ = v.BackendPort()
	if fe := v.FrontendID(); fe != "" {
		r.Frontend = b.nameOf(fe)
	}
	for _, p := range v.BackendPoolIDs() {
		r.Pools = append(r.Pools, b.nameOf(p))
	}
	if k := v.ProbeID(); k != "" {
		r.Probe = b.probe(k)
	}
	return r
}

// probe reports on the probe a rule Azure holds uses.
func (b *builder) probe(k plan.Key) *Probe {
	got, ok := b.obs.Get(k)
	if !ok { // a reference ARM would not have let dangle
		return &Probe{Resource: Resource{Address: k.Address(), ID: string(k)}, Name: b.nameOf(k)}
	}
	v := plan.AsProbe(got)
	p := &Probe{Resource: Resource{Address: got.ID.Address(), ID: got.ID.String(), Exists: true}, Name: got.Name(),
		Protocol: v.Protocol(), RequestPath: v.RequestPath(), IntervalSeconds: v.IntervalSeconds(), Threshold: v.Threshold()}
	p.Port, _ = v.Port()
	return p
}

// pool reports on a backend pool; members are counted for an IP-based
// pool, which the desired pool says it is by listing members.
func (b *builder) pool(want *plan.Resource) Pool {
	ref, got := b.resource(want.ID)
	p := Pool{Resource: ref, Name: want.Name()}
	if _, ipBased := want.Properties[plan.PoolMembersField]; got != nil && ipBased {
		addrs := plan.AsBackendPool(got).Addresses()
		n := len(addrs)
		p.Members, p.MemberAddresses = &n, addrs
	}
	return p
}

func (b *builder) publicIP(id plan.ID) PublicIP {
	ref, got := b.resource(id)
	p := PublicIP{Resource: ref, Name: id.Name()}
	if got != nil {
		v := plan.AsPublicIP(got)
		p.IPAddress, p.FQDN, p.SKU = v.Address(), v.FQDN(), v.SKUName()
	}
	return p
}

func (b *builder) securityRule(id plan.ID) SecurityRule {
	ref, got := b.resource(id)
	r := SecurityRule{Resource: ref, SecurityGroup: id.Names[0], Name: id.Name()}
	if got != nil {
		v := plan.AsSecurityRule(got)
		r.Priority, _ = v.Priority()
		r.Access, r.Protocol, r.Ports = v.Access(), v.Protocol(), v.PortRanges()
		r.Sources, r.Destinations = v.Sources(), v.DestinationStrings()
	}
	return r
}

func (b *builder) privateLinkService(id plan.ID) PrivateLinkService {
	ref, got := b.resource(id)
	p := PrivateLinkService{Resource: ref, Name: id.Name(), Connections: []Connection{}}
	if got == nil {
		return p
	}
	v := plan.AsPrivateLinkService(got)
	p.Alias, p.FQDNs, p.ProxyProtocol = v.Alias(), v.FQDNs(), v.ProxyProtocol()
	p.Visibility, p.AutoApproval = v.Visibility(), v.AutoApproval()
	for _, ip := range v.NATIPConfigs() {
		if ip.Address != "" {
			p.NATIPs = append(p.NATIPs, ip.Address)
		}
	}
	for _, c := range v.ConnectionSummaries() {
		conn := Connection{Name: c.Name, EndpointID: c.Endpoint, Status: c.Status}
		if pe, err := plan.ParseID(c.Endpoint); err == nil {
			conn.Endpoint = pe.Address()
		}
		p.Connections = append(p.Connections, conn)
	}
	return p
}

// nameOf is the name of the resource k, as Azure spells it when it holds
// it (keys are lower case).
func (b *builder) nameOf(k plan.Key) string {
	if got, ok := b.obs.Get(k); ok {
		return got.Name()
	}
	if id, err := plan.ParseID(string(k)); err == nil {
		return id.Name()
	}
	return string(k)
}
