package emulator

import (
	"net/netip"
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
