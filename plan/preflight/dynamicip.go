package preflight

import (
	"net/netip"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// checkDynamicTakes refuses a static private IP that an earlier step of the
// plan gives to a new dynamic IP configuration. Azure gives a dynamic
// configuration the lowest free address of its subnet past the reserved
// ones (plan.SubnetReserved; the emulator does the same), so such a static
// write fails half-way through the apply with PrivateIPAddressInUse (issue
// 21 item 4). Inside one write ARM takes the static addresses first, so
// only earlier writes count.
//
// The steps are replayed in order over the addresses azsvc knows: the
// frontends and NAT IPs it reads and the input's Nodes. Addresses it cannot
// see (other NICs in the subnet) only push dynamic allocations higher, so
// an address the replay gives away is never free for the static write
// either: a refusal is certain, though the replay may miss a conflict.
func checkDynamicTakes(w *world, steps []*plan.Step) []plan.Refusal {
	if !writesStaticAndDynamic(steps) {
		return nil
	}
	r := &replay{w: w, held: map[plan.Key]map[netip.Addr]occupant{}, byUnit: map[plan.Key][]slot{},
		kids: map[plan.Key]map[plan.Key]*plan.Resource{}, prefixes: map[plan.Key]netip.Prefix{}}
	r.holdObserved()
	var refused []plan.Refusal
	for _, st := range steps {
		unit := st.Target.Key()
		r.release(unit)
		if st.Op != plan.OpPut {
			continue
		}
		configs := r.configsOf(st)
		for _, c := range configs {
			if !c.known {
				continue
			}
			if h, taken := r.held[c.subnet][c.ip]; taken && h.dynamic && c.static {
				refused = append(refused, plan.Refusal{Address: c.address, Code: plan.RefuseIPTakenDynamic,
					IP: c.ip.String(), Subnet: r.subnetAddress(c.subnet), Other: h.address})
				continue
			}
			r.hold(c.subnet, c.ip, occupant{unit: unit, address: c.address})
		}
		next := map[plan.Key]netip.Addr{} // ARM's cursor lives for one write
		for _, c := range configs {
			if !c.known && !c.static {
				r.allocate(c, unit, next)
			}
		}
	}
	return refused
}

// writesStaticAndDynamic reports whether the plan writes a static private
// IP and a private IP configuration without an address: only then can one
// take the other's address.
func writesStaticAndDynamic(steps []*plan.Step) bool {
	var static, dynamic bool
	note := func(isStatic bool, addr string) {
		static = static || isStatic
		dynamic = dynamic || !isStatic && addr == ""
	}
	for _, st := range steps {
		if st.Op != plan.OpPut {
			continue
		}
		switch st.Target.Kind {
		case plan.KindLoadBalancer:
			for _, fe := range st.Children {
				if f := plan.AsFrontend(fe); fe.Kind() == plan.KindFrontend && f.SubnetID() != "" {
					note(f.Static(), f.PrivateIP())
				}
			}
		case plan.KindPrivateLinkService:
			for _, c := range plan.AsPrivateLinkService(st.Body).NATIPConfigs() {
				note(c.Static, c.Address)
			}
		}
	}
	return static && dynamic
}

// occupant is who holds an address during the replay: unit is the write that
// carries it (a load balancer for its frontends, a PLS for its NAT IPs).
type occupant struct {
	unit    plan.Key
	address string
	dynamic bool // given by the replay to a new dynamic configuration
}

type slot struct {
	subnet plan.Key
	ip     netip.Addr
}

type replay struct {
	w        *world
	held     map[plan.Key]map[netip.Addr]occupant     // subnet → address → holder
	byUnit   map[plan.Key][]slot                      // what each unit holds
	kids     map[plan.Key]map[plan.Key]*plan.Resource // observed LB children, built on first use
	prefixes map[plan.Key]netip.Prefix                // subnet → where ARM allocates (invalid: unknown)
}

// ipConfigAt is one private IP configuration a write carries.
type ipConfigAt struct {
	address string // the frontend's or PLS's address, for messages
	subnet  plan.Key
	ip      netip.Addr
	known   bool // static, or an address the configuration keeps
	static  bool
}

func (r *replay) holdObserved() {
	for _, e := range r.w.obs.OfKind(plan.KindLoadBalancer) {
		for _, fe := range r.w.obs.Children(e.Key) {
			if fe.Kind() == plan.KindFrontend {
				f := plan.AsFrontend(fe)
				r.holdString(f.SubnetID(), f.PrivateIP(), occupant{unit: e.Key, address: fe.ID.Address()})
			}
		}
	}
	for _, e := range r.w.obs.OfKind(plan.KindPrivateLinkService) {
		for _, c := range plan.AsPrivateLinkService(e.R).NATIPConfigs() {
			r.holdString(c.SubnetID, c.Address, occupant{unit: e.Key, address: e.R.ID.Address()})
		}
	}
}

func (r *replay) holdString(subnet, addr string, h occupant) {
	if ip, err := netip.ParseAddr(addr); err == nil && subnet != "" {
		r.hold(plan.KeyOf(subnet), ip.Unmap(), h)
	}
}

func (r *replay) hold(subnet plan.Key, ip netip.Addr, h occupant) {
	if r.held[subnet] == nil {
		r.held[subnet] = map[netip.Addr]occupant{}
	}
	r.held[subnet][ip] = h
	r.byUnit[h.unit] = append(r.byUnit[h.unit], slot{subnet, ip})
}

// release frees what a unit held: its write replaces it.
func (r *replay) release(unit plan.Key) {
	for _, s := range r.byUnit[unit] {
		if h, ok := r.held[s.subnet][s.ip]; ok && h.unit == unit {
			delete(r.held[s.subnet], s.ip)
		}
	}
	delete(r.byUnit, unit)
}

// allocate gives c the lowest free address of its subnet, as Azure does;
// next is where this write's previous allocation in the subnet stopped.
func (r *replay) allocate(c ipConfigAt, unit plan.Key, next map[plan.Key]netip.Addr) {
	pfx, ok := r.prefixOf(c.subnet)
	if !ok {
		return
	}
	ip, started := next[c.subnet]
	if !started {
		ip = pfx.Addr()
	}
	for ; pfx.Contains(ip); ip = ip.Next() {
		if _, taken := r.held[c.subnet][ip]; taken || plan.SubnetReserved(pfx, ip) || r.w.nodeIPs[ip.String()] != "" {
			continue
		}
		r.hold(c.subnet, ip, occupant{unit: unit, address: c.address, dynamic: true})
		next[c.subnet] = ip.Next()
		return
	}
}

// prefixOf is the subnet's first address prefix, where ARM allocates.
func (r *replay) prefixOf(k plan.Key) (netip.Prefix, bool) {
	if pfx, ok := r.prefixes[k]; ok {
		return pfx, pfx.IsValid()
	}
	var pfx netip.Prefix
	if sn, ok := r.w.get(k); ok {
		if ps := plan.AsSubnet(sn).Prefixes(); len(ps) > 0 {
			if p, err := netip.ParsePrefix(ps[0]); err == nil {
				pfx = p.Masked()
			}
		}
	}
	r.prefixes[k] = pfx
	return pfx, pfx.IsValid()
}

// configsOf lists the private IP configurations a write carries, in body
// order: the frontends of a load balancer, the NAT IPs of a PLS. A dynamic
// one keeps the address it had in the same subnet (ARM keeps it).
func (r *replay) configsOf(st *plan.Step) []ipConfigAt {
	var out []ipConfigAt
	add := func(c ipConfigAt) {
		if c.subnet != "" {
			out = append(out, c)
		}
	}
	switch st.Target.Kind {
	case plan.KindLoadBalancer:
		old := r.observedKids(st.Target.Key())
		for _, fe := range st.Children {
			if fe.Kind() != plan.KindFrontend {
				continue
			}
			f := plan.AsFrontend(fe)
			var prevSubnet, prevIP string
			if o, ok := old[fe.Key()]; ok {
				prevSubnet, prevIP = plan.AsFrontend(o).SubnetID(), plan.AsFrontend(o).PrivateIP()
			}
			add(withAddress(ipConfigAt{address: fe.ID.Address(), static: f.Static()}, f.SubnetID(), f.PrivateIP(), prevSubnet, prevIP))
		}
	case plan.KindPrivateLinkService:
		old := map[string]plan.IPConfig{}
		if o, ok := r.w.obs.Get(st.Target.Key()); ok {
			for _, c := range plan.AsPrivateLinkService(o).NATIPConfigs() {
				old[strings.ToLower(c.Name)] = c
			}
		}
		for _, nc := range plan.AsPrivateLinkService(st.Body).NATIPConfigs() {
			prev := old[strings.ToLower(nc.Name)]
			add(withAddress(ipConfigAt{address: st.Target.Address(), static: nc.Static}, nc.SubnetID, nc.Address, prev.SubnetID, prev.Address))
		}
	}
	return out
}

// withAddress fills c's subnet and address: the one the body gives, else
// the one it had (prevIP) in the same subnet.
func withAddress(c ipConfigAt, subnet, addr, prevSubnet, prevIP string) ipConfigAt {
	if subnet == "" {
		return c
	}
	c.subnet = plan.KeyOf(subnet)
	if addr == "" && !c.static && prevSubnet != "" && plan.KeyOf(prevSubnet) == c.subnet {
		addr = prevIP
	}
	if ip, err := netip.ParseAddr(addr); err == nil {
		c.ip, c.known = ip.Unmap(), true
	}
	return c
}

func (r *replay) observedKids(lb plan.Key) map[plan.Key]*plan.Resource {
	if m, ok := r.kids[lb]; ok {
		return m
	}
	m := map[plan.Key]*plan.Resource{}
	for _, kid := range r.w.obs.Children(lb) {
		m[kid.Key()] = kid
	}
	r.kids[lb] = m
	return m
}

func (r *replay) subnetAddress(k plan.Key) string {
	if sn, ok := r.w.get(k); ok {
		return sn.ID.Address()
	}
	return string(k)
}
