package emulator

import (
	"net/netip"
	"strings"
)

// checkPoolMembers validates the members of an IP-based backend pool
// (loadBalancerBackendAddresses, arm-rules §1.4 and §5.3) as NRP does:
// every member is named, once; its ipAddress is an IP address, at most once
// per pool; it names a virtual network that exists, its own or the pool's
// (a subnet's names its network), and all members name the same one
// (Azure's backend pool management docs: an IP-based pool's addresses are
// in one virtual network); and only a Standard load balancer takes them.
// The error codes are the emulator's: ARM's are not recorded in the
// references (arm-rules §2.2 marks such codes UNVERIFIED).
func (b *lbBody) checkPoolMembers(pool obj) *armError {
	id, pp := getStr(pool, "id"), props(pool)
	members := getObjs(pp, "loadBalancerBackendAddresses")
	if len(members) != len(getArr(pp, "loadBalancerBackendAddresses")) {
		return badRequest("InvalidRequestFormat", "loadBalancerBackendAddresses of %s must be an array of objects.", id)
	}
	if len(members) == 0 {
		return nil
	}
	if !strings.EqualFold(b.sku, "Standard") {
		return badRequest("IPBasedBackendPoolNotSupportedOnSku",
			"Backend address pool %s lists IP addresses; only a Standard load balancer takes IP-based backend pools.", id)
	}
	poolVNet := refID(pp, "virtualNetwork")
	if poolVNet != "" && b.c.t.getID(poolVNet) == nil {
		return invalidReference(poolVNet, id)
	}
	names, ips := map[string]bool{}, map[netip.Addr]string{}
	vnet := ""
	for i, m := range members {
		name, mp := getStr(m, "name"), props(m)
		switch {
		case name == "":
			return badRequest("InvalidRequestFormat", "Backend address %d of %s has no name.", i, id)
		case names[strings.ToLower(name)]:
			return badRequest("DuplicateResourceName", "Backend address pool %s has more than one address named %s.", id, name)
		}
		names[strings.ToLower(name)] = true
		addr, err := netip.ParseAddr(getStr(mp, "ipAddress"))
		if err != nil {
			return badRequest("InvalidIPAddressInBackendAddressPool", "Backend address %s of %s has ipAddress %q, which is not an IP address.",
				name, id, getStr(mp, "ipAddress"))
		}
		if other, dup := ips[addr.Unmap()]; dup {
			return badRequest("DuplicateIpAddressInBackendAddressPool", "Backend addresses %s and %s of %s have the same IP address %s.",
				other, name, id, addr)
		}
		ips[addr.Unmap()] = name
		own := memberVNet(mp)
		if own != "" && b.c.t.getID(own) == nil {
			return invalidReference(own, id+"/loadBalancerBackendAddresses/"+name)
		}
		if own == "" {
			own = poolVNet
		}
		switch {
		case own == "":
			return badRequest("BackendAddressWithoutVirtualNetwork",
				"Backend address %s of %s names no virtual network: set properties.virtualNetwork on it or on the pool.", name, id)
		case vnet != "" && !strings.EqualFold(vnet, own):
			return badRequest("BackendAddressesInDifferentVirtualNetworks",
				"Backend addresses of %s are in virtual networks %s and %s; a pool's addresses must be in one.", id, vnet, own)
		}
		vnet = own
	}
	return nil
}

// memberVNet is the virtual network a member names: its own, or its
// subnet's.
func memberVNet(mp obj) string {
	if v := refID(mp, "virtualNetwork"); v != "" {
		return v
	}
	subnet := refID(mp, "subnet")
	if i := strings.Index(strings.ToLower(subnet), "/subnets/"); i > 0 {
		return subnet[:i]
	}
	return ""
}
