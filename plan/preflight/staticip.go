package preflight

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// ipconfig is one private IP after the plan: a frontend's or a PLS NAT IP.
type ipconfig struct {
	owner   plan.Key // the frontend or PLS holding it
	address string   // for messages
	subnet  plan.Key
	ip      netip.Addr
	static  bool
	written bool
}

// checkStaticIPs refuses static private IPs ARM would refuse (arm-rules
// §2.2, as the emulator enforces): outside their subnet's prefix, among the
// five addresses Azure reserves in it, or taken by another IP
// configuration after the plan.
func checkStaticIPs(w *world) []error {
	all := w.ipconfigs()
	var errs []error
	for _, c := range all {
		if !c.static || !c.written {
			continue
		}
		sn, ok := w.after[c.subnet]
		if !ok {
			continue // a missing subnet is blocked before here
		}
		pfx, found := containing(plan.AsSubnet(sn).Prefixes(), c.ip)
		switch {
		case !found:
			errs = append(errs, fmt.Errorf("%s: static IP %s is outside subnet %s (%s)", c.address, c.ip, sn.Name(),
				strings.Join(plan.AsSubnet(sn).Prefixes(), ", ")))
		case reserved(pfx, c.ip):
			errs = append(errs, fmt.Errorf("%s: static IP %s is one of the five addresses Azure reserves in subnet %s (%s)", c.address, c.ip, sn.Name(), pfx))
		default:
			if other := holder(all, c); other != "" {
				errs = append(errs, fmt.Errorf("%s: static IP %s is already used by %s in subnet %s", c.address, c.ip, other, sn.Name()))
			}
		}
	}
	return errs
}

// ipconfigs lists the private IPs of frontends and PLS NAT configurations
// after the plan, in key order.
func (w *world) ipconfigs() []ipconfig {
	var out []ipconfig
	add := func(owner *plan.Resource, subnet string, static bool, addr string) {
		ip, err := netip.ParseAddr(addr)
		if subnet == "" || err != nil {
			return
		}
		out = append(out, ipconfig{owner: owner.Key(), address: owner.ID.Address(), subnet: plan.KeyOf(subnet),
			ip: ip.Unmap(), static: static, written: w.written[owner.Key()]})
	}
	for _, k := range slices.Sorted(maps.Keys(w.after)) {
		r := w.after[k]
		switch r.Kind() {
		case plan.KindFrontend:
			fe := plan.AsFrontend(r)
			add(r, fe.SubnetID(), fe.Static(), fe.PrivateIP())
		case plan.KindPrivateLinkService:
			for _, c := range plan.AsPrivateLinkService(r).NATIPConfigs() {
				add(r, c.SubnetID, c.Static, c.Address)
			}
		}
	}
	return out
}

func containing(prefixes []string, ip netip.Addr) (netip.Prefix, bool) {
	for _, s := range prefixes {
		if p, err := netip.ParsePrefix(s); err == nil && p.Contains(ip) {
			return p.Masked(), true
		}
	}
	return netip.Prefix{}, false
}

// reserved reports the addresses Azure keeps in every subnet: the network
// address, the next three, and the last.
func reserved(pfx netip.Prefix, ip netip.Addr) bool {
	a := pfx.Addr()
	for range 4 {
		if ip == a {
			return true
		}
		a = a.Next()
	}
	return ip == lastAddr(pfx)
}

// lastAddr is the highest address of pfx: every host bit set.
func lastAddr(pfx netip.Prefix) netip.Addr {
	b := pfx.Addr().AsSlice()
	for i := pfx.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	last, _ := netip.AddrFromSlice(b)
	return last
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
