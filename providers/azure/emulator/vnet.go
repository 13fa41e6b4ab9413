package emulator

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// prepareVNet validates subnets (prefixes inside the VNet, no overlap, NSG
// references) and refuses to drop or re-address a subnet in use (arm-rules §2.1).
func prepareVNet(c *writeCtx) *armError {
	p := props(c.body)
	var space []netip.Prefix
	for _, s := range strList(getObj(p, "addressSpace"), "addressPrefixes") {
		pfx, err := netip.ParsePrefix(s)
		if err != nil {
			return badRequest("InvalidAddressPrefixFormat", "Address prefix %s of virtual network %s is not a valid CIDR.", s, c.id)
		}
		space = append(space, pfx.Masked())
	}
	if len(space) == 0 {
		return badRequest("InvalidRequestFormat", "Virtual network %s needs properties.addressSpace.addressPrefixes.", c.id)
	}
	subnets, err := c.fillChildren(p, "subnets")
	if err != nil {
		return err
	}
	oldSubnets := childIndex(getObjs(getObj(c.old, "properties"), "subnets"))
	var prefixes []netip.Prefix
	for _, sn := range subnets {
		pfx, err := checkSubnet(c, sn, space, oldSubnets[key(getStr(sn, "id"))])
		if err != nil {
			return err
		}
		for i, other := range prefixes {
			if other.Overlaps(pfx) {
				return badRequest("NetcfgSubnetRangesOverlap", "Subnet %s (%s) overlaps subnet %s (%s).",
					getStr(sn, "id"), pfx, getStr(subnets[i], "id"), other)
			}
		}
		prefixes = append(prefixes, pfx)
		delete(oldSubnets, key(getStr(sn, "id")))
	}
	for id := range oldSubnets {
		if users := subnetUsers(c, id); len(users) > 0 {
			return inUseSubnet(getStr(oldSubnets[id], "name"), users[0].source)
		}
	}
	return nil
}

func checkSubnet(c *writeCtx, sn obj, space []netip.Prefix, old obj) (netip.Prefix, *armError) {
	id, sp := getStr(sn, "id"), props(sn)
	pfx, ok := subnetPrefix(sn)
	if !ok {
		return pfx, badRequest("InvalidAddressPrefixFormat", "Subnet %s needs a valid addressPrefix.", id)
	}
	inside := false
	for _, s := range space {
		inside = inside || (s.Contains(pfx.Addr()) && s.Bits() <= pfx.Bits())
	}
	if !inside {
		return pfx, badRequest("NetcfgSubnetRangeOutsideVnet", "Subnet %s (%s) is not within the address space of its virtual network.", id, pfx)
	}
	for f, def := range map[string]string{"privateLinkServiceNetworkPolicies": "Enabled", "privateEndpointNetworkPolicies": "Disabled"} {
		if getStr(sp, f) == "" {
			sp[f] = def
		}
	}
	if nsg := refID(sp, "networkSecurityGroup"); nsg != "" && c.t.getID(nsg) == nil {
		return pfx, invalidReference(nsg, id)
	}
	delete(sp, "ipConfigurations")
	if old == nil {
		return pfx, nil
	}
	users := subnetUsers(c, key(id))
	if oldPfx, _ := subnetPrefix(old); oldPfx != pfx && len(users) > 0 {
		return pfx, badRequest("InUseSubnetCannotBeUpdated", "Subnet %s is in use by %s and cannot be updated.", getStr(sn, "name"), users[0].source)
	}
	if strings.EqualFold(getStr(sp, "privateLinkServiceNetworkPolicies"), "Enabled") {
		for _, u := range users {
			if strings.Contains(strings.ToLower(u.source), "/privatelinkservices/") {
				return pfx, badRequest("PrivateLinkServiceNetworkPoliciesCannotBeEnabledOnPrivateLinkServiceSubnet",
					"Private link service network policies cannot be enabled on subnet %s: private link service %s uses it.", id, u.source)
			}
		}
	}
	return pfx, nil
}

// subnetUsers lists the references from other resources into one subnet.
func subnetUsers(c *writeCtx, subnetKey string) []edge {
	var out []edge
	for _, ed := range c.e.store.inboundFrom(key(c.id)) {
		if key(ed.target) == subnetKey {
			out = append(out, ed)
		}
	}
	return out
}

func inUseSubnet(name, user string) *armError {
	return badRequest("InUseSubnetCannotBeDeleted",
		"Subnet %s is in use by %s and cannot be deleted. In order to delete the subnet, delete all the resources within the subnet. See aka.ms/deletesubnet.", name, user)
}

func deleteVNet(c *writeCtx) *armError {
	for _, ed := range c.e.store.inboundFrom(key(c.id)) {
		a, _ := parseAddress(ed.target)
		return inUseSubnet(a.name(), ed.source)
	}
	return nil
}

// freeSubnetPrefix is want when no subnet overlaps it, else (or for "")
// the first /24 of space that no subnet overlaps.
func freeSubnetPrefix(space []string, subnets []obj, want string) (string, error) {
	var used []netip.Prefix
	for _, sn := range subnets {
		sp := getObj(sn, "properties")
		for _, s := range append(strList(sp, "addressPrefixes"), getStr(sp, "addressPrefix")) {
			if pfx, err := netip.ParsePrefix(s); err == nil {
				used = append(used, pfx.Masked())
			}
		}
	}
	free := func(p netip.Prefix) bool {
		return !slices.ContainsFunc(used, p.Overlaps)
	}
	if p, err := netip.ParsePrefix(want); err == nil && free(p.Masked()) {
		return p.Masked().String(), nil
	}
	for _, s := range space {
		sp, err := netip.ParsePrefix(s)
		if err != nil || !sp.Addr().Is4() || sp.Bits() > 24 {
			continue
		}
		for p := netip.PrefixFrom(sp.Masked().Addr(), 24); sp.Contains(p.Addr()); p = next24(p) {
			if free(p) {
				return p.String(), nil
			}
		}
	}
	return "", fmt.Errorf("no free /24 left in address space %s", strings.Join(space, ", "))
}

// next24 is the /24 after p; its address wraps to 0.0.0.0 past the end.
func next24(p netip.Prefix) netip.Prefix {
	b := p.Addr().As4()
	n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8
	n += 1 << 8
	return netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), 0}), 24)
}
