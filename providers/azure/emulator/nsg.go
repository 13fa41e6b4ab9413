package emulator

import (
	"fmt"
	"strings"
)

const (
	maxSecurityRules = 1000 // per NSG (arm-rules §2.4)
	maxNSGAddresses  = 4000 // source and destination prefixes, counted separately
)

// prepareNSG validates security rules: required fields, priority 100–4096
// unique per direction (SecurityRuleConflict), and the limits of §2.4.
func prepareNSG(c *writeCtx) *armError {
	p := props(c.body)
	rules, err := c.fillChildren(p, "securityRules")
	if err != nil {
		return err
	}
	if len(rules) > maxSecurityRules {
		// UNVERIFIED code; the limit is DOCS azure-virtual-network-limits.
		return badRequest("SecurityRulesCountLimitReached", "Network security group %s has %d security rules; the limit is %d.", c.id, len(rules), maxSecurityRules)
	}
	byPriority := make(map[string]string, len(rules))
	var sources, destinations int
	for _, r := range rules {
		if err := checkSecurityRule(r); err != nil {
			return err
		}
		rp := props(r)
		k := fmt.Sprintf("%s|%v", rp["direction"], rp["priority"])
		if other := byPriority[k]; other != "" {
			return badRequest("SecurityRuleConflict",
				"Security rule %s conflicts with rule %s. Rules cannot have the same Priority and Direction. To learn more, see aka.ms/nsgrules.",
				getStr(r, "name"), other)
		}
		byPriority[k] = getStr(r, "name")
		sources += len(getArr(rp, "sourceAddressPrefixes")) + min(len(getStr(rp, "sourceAddressPrefix")), 1)
		destinations += len(getArr(rp, "destinationAddressPrefixes")) + min(len(getStr(rp, "destinationAddressPrefix")), 1)
	}
	if sources > maxNSGAddresses || destinations > maxNSGAddresses {
		return badRequest("SecurityRuleAddressPrefixCountLimitReached",
			"Network security group %s uses %d source and %d destination address prefixes; the limit is %d each.", c.id, sources, destinations, maxNSGAddresses)
	}
	p["defaultSecurityRules"] = defaultSecurityRules(c.id, c.t.etag)
	delete(p, "subnets")
	delete(p, "networkInterfaces")
	return nil
}

func checkSecurityRule(r obj) *armError {
	id, rp := getStr(r, "id"), props(r)
	prio, ok := getInt(rp, "priority")
	if !ok || prio < 100 || prio > 4096 {
		// UNVERIFIED code; the range is SDK-NET SecurityRulePropertiesFormat.Priority.
		return badRequest("SecurityRuleInvalidPriority", "Security rule %s has invalid priority %v. Value provided: %v Allowed range 100-4096.", id, rp["priority"], rp["priority"])
	}
	for f, options := range map[string][]string{
		"direction": {"Inbound", "Outbound"},
		"access":    {"Allow", "Deny"},
		"protocol":  {"Tcp", "Udp", "Icmp", "Esp", "Ah", "*"},
	} {
		v := canonical(getStr(rp, f), options...)
		if v == "" {
			return badRequest("SecurityRuleParameterContainsUnsupportedValue",
				"Security rule %s: %s %q is not one of %s.", id, f, getStr(rp, f), strings.Join(options, ", "))
		}
		rp[f] = v
	}
	if len(getStr(rp, "description")) > 140 {
		return badRequest("SecurityRuleDescriptionTooLong", "Security rule %s: description is longer than 140 characters.", id)
	}
	for _, pair := range [][2]string{{"sourcePortRange", "sourcePortRanges"}, {"destinationPortRange", "destinationPortRanges"},
		{"sourceAddressPrefix", "sourceAddressPrefixes"}, {"destinationAddressPrefix", "destinationAddressPrefixes"}} {
		single, plural := getStr(rp, pair[0]), getArr(rp, pair[1])
		if single != "" && len(plural) > 0 {
			return badRequest("SecurityRuleParameterContainsUnsupportedValue", "Security rule %s sets both %s and %s.", id, pair[0], pair[1])
		}
		if single == "" && len(plural) == 0 {
			return badRequest("SecurityRuleParameterContainsUnsupportedValue", "Security rule %s needs %s or %s.", id, pair[0], pair[1])
		}
		if plural == nil {
			rp[pair[1]] = []any{} // NRP fills the unused plural with [] (arm-rules §1.4)
		}
	}
	return nil
}

// defaultSecurityRules are the six rules every NSG has (arm-rules §1.4).
func defaultSecurityRules(nsgID, etag string) []any {
	type d struct {
		name, dir, src, dst, access string
		prio                        int
	}
	rules := []d{
		{"AllowVnetInBound", "Inbound", "VirtualNetwork", "VirtualNetwork", "Allow", 65000},
		{"AllowAzureLoadBalancerInBound", "Inbound", "AzureLoadBalancer", "*", "Allow", 65001},
		{"DenyAllInBound", "Inbound", "*", "*", "Deny", 65500},
		{"AllowVnetOutBound", "Outbound", "VirtualNetwork", "VirtualNetwork", "Allow", 65000},
		{"AllowInternetOutBound", "Outbound", "*", "Internet", "Allow", 65001},
		{"DenyAllOutBound", "Outbound", "*", "*", "Deny", 65500},
	}
	out := make([]any, len(rules))
	for i, r := range rules {
		out[i] = obj{
			"name": r.name, "id": nsgID + "/defaultSecurityRules/" + r.name, "etag": etag,
			"type": "Microsoft.Network/networkSecurityGroups/defaultSecurityRules",
			"properties": obj{
				"provisioningState": "Succeeded", "description": r.name, "protocol": "*",
				"sourcePortRange": "*", "destinationPortRange": "*",
				"sourceAddressPrefix": r.src, "destinationAddressPrefix": r.dst,
				"sourcePortRanges": []any{}, "destinationPortRanges": []any{},
				"sourceAddressPrefixes": []any{}, "destinationAddressPrefixes": []any{},
				"access": r.access, "priority": r.prio, "direction": r.dir,
			},
		}
	}
	return out
}

func deleteNSG(c *writeCtx) *armError {
	if users := c.e.store.inboundFrom(key(c.id)); len(users) > 0 {
		var ids []string
		for _, u := range users {
			ids = append(ids, u.source)
		}
		return badRequest("InUseNetworkSecurityGroupCannotBeDeleted",
			"Network security group %s cannot be deleted because it is in use by the following resources: %s. In order to delete the Network security group, remove the association with the resource(s).",
			c.id, strings.Join(ids, ", "))
	}
	return nil
}
