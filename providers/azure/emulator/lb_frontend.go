package emulator

import "strings"

// checkFrontends validates frontends: exactly one of subnet and public IP,
// PIP SKU equal to the LB SKU, a PIP used once, private IPs unique and
// allocated from the subnet (arm-rules §2.2).
func (b *lbBody) checkFrontends() *armError {
	c := b.c
	alloc := c.t.allocator(key(c.id))
	oldFE := nameIndex(getObjs(getObj(c.old, "properties"), "frontendIPConfigurations"))
	pipUsers := map[string]string{}
	var dynamic []obj
	for _, fe := range b.frontends {
		id, fp := getStr(fe, "id"), props(fe)
		for _, f := range []string{"loadBalancingRules", "inboundNatRules", "outboundRules", "inboundNatPools"} {
			delete(fp, f)
		}
		sub, pip := refID(fp, "subnet"), refID(fp, "publicIPAddress")
		keepOnlyIDs(fp, "subnet", "publicIPAddress")
		switch {
		case sub != "" && pip != "":
			return badRequest("FrontendIPConfigHasBothSubnetAndPublicIP",
				"Frontend IP configuration %s cannot reference both a subnet and a public IP address.", id)
		case pip != "":
			if err := b.checkPublicFrontend(id, pip, pipUsers); err != nil {
				return err
			}
		case sub != "":
			if c.t.subnet(sub) == nil {
				return invalidReference(sub, id)
			}
			need, err := claimPrivate(alloc, fe, oldFE[strings.ToLower(getStr(fe, "name"))], sub)
			if err != nil {
				return err
			}
			if need {
				dynamic = append(dynamic, fe)
			}
		case refID(fp, "publicIPPrefix") == "":
			return badRequest("InvalidRequestFormat", "Frontend IP configuration %s must reference a subnet or a public IP address.", id)
		}
	}
	for _, fe := range dynamic {
		fp := props(fe)
		ip, err := alloc.dynamic(refID(fp, "subnet"), getStr(fe, "id"))
		if err != nil {
			return err
		}
		fp["privateIPAddress"] = ip
	}
	return nil
}

func (b *lbBody) checkPublicFrontend(id, pip string, users map[string]string) *armError {
	pipBody := b.c.t.getID(pip)
	if pipBody == nil {
		return invalidReference(pip, id)
	}
	if pipSku := getStr(getObj(pipBody, "sku"), "name"); !strings.EqualFold(pipSku, b.sku) {
		return badRequest("DifferentSkuLoadBalancersAndPublicIPAddressNotAllowed",
			"Standard sku load balancer and public IP address must be paired: load balancer %s has SKU %s and public IP %s has SKU %s.",
			b.c.id, b.sku, pip, pipSku)
	}
	if other := users[key(pip)]; other != "" {
		return badRequest("PublicIPAddressInUse", "Public IP address %s is referenced by both %s and %s.", pip, other, id)
	}
	users[key(pip)] = id
	for _, ed := range b.c.e.store.inboundFrom(key(pip)) {
		if topKey(ed.source) != key(b.c.id) {
			return badRequest("PublicIPAddressInUse",
				"Resource %s is referencing public IP address %s that is already allocated to resource %s.", id, pip, ed.source)
		}
	}
	return nil
}

// claimPrivate claims a frontend's static or retained dynamic private IP; it
// reports whether the frontend still needs a dynamic address.
func claimPrivate(alloc *allocator, fe, old obj, subnet string) (bool, *armError) {
	id, fp := getStr(fe, "id"), props(fe)
	method := canonical(getStr(fp, "privateIPAllocationMethod"), "Static", "Dynamic")
	if method == "" {
		method = "Dynamic"
	}
	fp["privateIPAllocationMethod"] = method
	if getStr(fp, "privateIPAddressVersion") == "" {
		fp["privateIPAddressVersion"] = "IPv4"
	}
	ip := getStr(fp, "privateIPAddress")
	if method == "Static" {
		if ip == "" {
			return false, badRequest("PrivateIPAddressRequired", "Frontend IP configuration %s uses Static allocation without a privateIPAddress.", id)
		}
		return false, alloc.static(subnet, ip, id)
	}
	op := getObj(old, "properties")
	if oldIP := getStr(op, "privateIPAddress"); oldIP != "" && strings.EqualFold(refID(op, "subnet"), subnet) && (ip == "" || ip == oldIP) {
		ip = oldIP // a dynamic address is kept across updates
	}
	if ip == "" {
		return true, nil
	}
	if alloc.static(subnet, ip, id) != nil {
		delete(fp, "privateIPAddress")
		return true, nil
	}
	fp["privateIPAddress"] = ip
	return false, nil
}
