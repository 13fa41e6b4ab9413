package preflight

import (
	"maps"
	"net/netip"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// ipconfig is one private IP after the plan: a frontend's or a PLS NAT IP.
type ipconfig struct {
	owner   plan.Key // the frontend or PLS holding it
	address string   // for messages
	subnet  plan.Key
	ip      netip.Addr
	static  bool
	written bool // carried by a PUT of this plan, which ARM validates
}

// checkStaticIPs refuses static private IPs ARM would refuse (arm-rules
// §2.2, as the emulator enforces): outside their subnet's prefix, among the
// five addresses Azure reserves in it, or taken by another IP
// configuration after the plan or by a Node of the input. Only IPs a PUT of the plan carries are
// checked, against every IP that holds an address after the plan.
func checkStaticIPs(w *world) []plan.Refusal {
	written := w.writtenIPConfigs()
	if !slices.ContainsFunc(written, func(c ipconfig) bool { return c.static }) {
		return nil
	}
	all := w.allIPConfigs()
	var refused []plan.Refusal
	for _, c := range written {
		if !c.static {
			continue
		}
		sn, ok := w.get(c.subnet)
		if !ok {
			continue // a missing subnet is blocked before here
		}
		prefixes := plan.AsSubnet(sn).Prefixes()
		pfx, found := containing(prefixes, c.ip)
		r := plan.Refusal{Address: c.address, IP: c.ip.String(), Subnet: sn.ID.Address(), Prefixes: prefixes}
		switch {
		case !found:
			r.Code = plan.RefuseIPOutsideSubnet
		case plan.SubnetReserved(pfx, c.ip):
			r.Code, r.Prefixes = plan.RefuseIPReserved, []string{pfx.String()}
		default:
			other := holder(all, c)
			if node, ok := w.nodeIPs[c.ip.String()]; ok && other == "" {
				other = "node " + node
			}
			if other == "" {
				continue
			}
			r.Code, r.Other, r.Prefixes = plan.RefuseIPTaken, other, nil
		}
		refused = append(refused, r)
	}
	return refused
}

// writtenIPConfigs are the private IPs the plan's PUTs carry: the frontends
// of every LB it writes, the NAT IPs of every PLS it writes.
func (w *world) writtenIPConfigs() []ipconfig {
	var out []ipconfig
	for _, st := range w.puts(plan.KindLoadBalancer) {
		for _, r := range st.Children {
			out = appendFrontend(out, r, true)
		}
	}
	for _, st := range w.puts(plan.KindPrivateLinkService) {
		out = appendNATIPs(out, st.Body, true)
	}
	return out
}

// allIPConfigs are the private IPs after the plan: frontends of every load
// balancer, NAT IPs of every private link service.
func (w *world) allIPConfigs() []ipconfig {
	var out []ipconfig
	lbs := map[plan.Key]bool{}
	for _, e := range w.obs.OfKind(plan.KindLoadBalancer) {
		lbs[e.Key] = true
	}
	for _, st := range w.puts(plan.KindLoadBalancer) {
		lbs[st.Target.Key()] = true
	}
	for _, lb := range slices.Sorted(maps.Keys(lbs)) {
		for _, r := range w.children(lb) {
			out = appendFrontend(out, r, false)
		}
	}
	for _, pls := range w.privateLinkServices() {
		out = appendNATIPs(out, pls, false)
	}
	return out
}

func appendFrontend(out []ipconfig, r *plan.Resource, written bool) []ipconfig {
	if r.Kind() != plan.KindFrontend {
		return out
	}
	fe := plan.AsFrontend(r)
	return appendIPConfig(out, r, fe.SubnetID(), fe.Static(), fe.PrivateIP(), written)
}

func appendNATIPs(out []ipconfig, r *plan.Resource, written bool) []ipconfig {
	for _, c := range plan.AsPrivateLinkService(r).NATIPConfigs() {
		out = appendIPConfig(out, r, c.SubnetID, c.Static, c.Address, written)
	}
	return out
}

func appendIPConfig(out []ipconfig, owner *plan.Resource, subnet string, static bool, addr string, written bool) []ipconfig {
	ip, err := netip.ParseAddr(addr)
	if subnet == "" || err != nil {
		return out
	}
	return append(out, ipconfig{owner: owner.Key(), address: owner.ID.Address(), subnet: plan.KeyOf(subnet),
		ip: ip.Unmap(), static: static, written: written})
}

func containing(prefixes []string, ip netip.Addr) (netip.Prefix, bool) {
	for _, s := range prefixes {
		if p, err := netip.ParsePrefix(s); err == nil && p.Contains(ip) {
			return p.Masked(), true
		}
	}
	return netip.Prefix{}, false
}

// holder is the other IP configuration holding c's address in its subnet.
func holder(all []ipconfig, c ipconfig) string {
	for _, o := range all {
		if o.owner != c.owner && o.subnet == c.subnet && o.ip == c.ip {
			return o.address
		}
	}
	return ""
}
