package emulator

import (
	"strings"
)

const (
	maxPLSPerLB      = 8 // arm-rules §2.4
	maxPLSNATConfigs = 8
	maxPLSSubs       = 100
)

// preparePLS applies the private link service rules of arm-rules §2.2 and
// §7.3: one frontend of a Standard LB, fixed after create; 1–8 NAT IP
// configurations on subnets with PLS network policies disabled; at most 8
// PLS per LB. Codes marked UNVERIFIED in the reference are synthetic.
func preparePLS(c *writeCtx) *armError {
	p := props(c.body)
	if err := checkPLSFrontend(c, p); err != nil {
		return err
	}
	if err := checkPLSNAT(c, p); err != nil {
		return err
	}
	for _, f := range []string{"visibility", "autoApproval"} {
		if n := len(getArr(getObj(p, f), "subscriptions")); n > maxPLSSubs {
			return badRequest("PrivateLinkServiceSubscriptionCountLimitReached", "%s of %s lists %d subscriptions; the limit is %d.", f, c.id, n, maxPLSSubs)
		}
	}
	op := getObj(c.old, "properties")
	alias := getStr(op, "alias")
	if alias == "" {
		alias = strings.ToLower(c.a.name()) + "." + stableGUID(c.id) + "." + getStr(c.body, "location") + ".azure.privatelinkservice"
	}
	p["alias"] = alias
	if nics := getArr(op, "networkInterfaces"); len(nics) > 0 {
		p["networkInterfaces"] = nics
	} else {
		p["networkInterfaces"] = []any{ref(c.a.rgID() + "/providers/Microsoft.Network/networkInterfaces/" + c.a.name() + ".nic." + stableGUID(c.id+"/nic"))}
	}
	if !c.child { // connections are read-only in a PLS body (arm-rules §1.3)
		p["privateEndpointConnections"] = getArr(op, "privateEndpointConnections")
	}
	if _, err := c.fillChildren(p, "privateEndpointConnections"); err != nil {
		return err
	}
	if getArr(p, "fqdns") == nil {
		p["fqdns"] = []any{}
	}
	if _, ok := p["enableProxyProtocol"]; !ok {
		p["enableProxyProtocol"] = false
	}
	return nil
}

func checkPLSFrontend(c *writeCtx, p obj) *armError {
	fes := getObjs(p, "loadBalancerFrontendIpConfigurations")
	if len(fes) != 1 {
		return badRequest("PrivateLinkServiceMustHaveExactlyOneLoadBalancerFrontendIPConfiguration",
			"Private link service %s references %d load balancer frontend IP configurations; exactly one is supported.", c.id, len(fes))
	}
	feID := getStr(fes[0], "id")
	p["loadBalancerFrontendIpConfigurations"] = []any{ref(feID)}
	fa, ok := parseAddress(feID)
	if !ok || len(fa.segs) != 4 || fa.segs[0] != "loadBalancers" || fa.segs[2] != "frontendIPConfigurations" {
		return invalidReference(feID, c.id)
	}
	lb := c.t.getID(fa.topID())
	if lb == nil || findChild(lb, "frontendIPConfigurations", fa.segs[3]) == nil {
		return invalidReference(feID, c.id)
	}
	if !strings.EqualFold(getStr(getObj(lb, "sku"), "name"), "Standard") {
		return badRequest("PrivateLinkServiceNotSupportedOnNonStandardLoadBalancer",
			"Private link service %s: load balancer %s is not a Standard SKU load balancer.", c.id, fa.topID())
	}
	if olds := getObjs(getObj(c.old, "properties"), "loadBalancerFrontendIpConfigurations"); len(olds) > 0 && !strings.EqualFold(getStr(olds[0], "id"), feID) {
		return badRequest("PrivateLinkServiceLoadBalancerFrontendIPConfigurationCannotBeChanged",
			"The load balancer frontend IP configuration of private link service %s cannot be changed from %s to %s.", c.id, getStr(olds[0], "id"), feID)
	}
	others := map[string]bool{}
	for _, ed := range c.e.store.inboundFrom(key(fa.topID())) {
		if src := topKey(ed.source); src != key(c.id) {
			others[src] = true
		}
	}
	if len(others) >= maxPLSPerLB {
		return badRequest("MaxPrivateLinkServicesPerLoadBalancerReached",
			"Load balancer %s already has %d private link services; the limit is %d.", fa.topID(), len(others), maxPLSPerLB)
	}
	return nil
}

func checkPLSNAT(c *writeCtx, p obj) *armError {
	ics, err := c.fillChildren(p, "ipConfigurations")
	if err != nil {
		return err
	}
	if len(ics) < 1 || len(ics) > maxPLSNATConfigs {
		return badRequest("PrivateLinkServiceIpConfigurationCountOutOfRange",
			"Private link service %s has %d NAT IP configurations; between 1 and %d are allowed.", c.id, len(ics), maxPLSNATConfigs)
	}
	alloc := c.t.allocator(key(c.id))
	oldICs := childIndex(getObjs(getObj(c.old, "properties"), "ipConfigurations"))
	var dynamic []obj
	for i, ic := range ics {
		id, ip := getStr(ic, "id"), props(ic)
		sub := refID(ip, "subnet")
		keepOnlyIDs(ip, "subnet")
		sn := c.t.subnet(sub)
		if sn == nil {
			return invalidReference(sub, id)
		}
		if !strings.EqualFold(getStr(getObj(sn, "properties"), "privateLinkServiceNetworkPolicies"), "Disabled") {
			return badRequest("PrivateLinkServiceCannotBeCreatedInSubnetThatHasNetworkPoliciesEnabled",
				"Private link service %s cannot be created in subnet %s since it has private link service network policies enabled.", c.id, sub)
		}
		if _, ok := ip["primary"]; !ok {
			ip["primary"] = i == 0
		}
		need, err := claimPrivate(alloc, ic, oldICs[key(id)], sub)
		if err != nil {
			return err
		}
		if need {
			dynamic = append(dynamic, ic)
		}
	}
	for _, ic := range dynamic {
		ip := props(ic)
		addr, err := alloc.dynamic(refID(ip, "subnet"), getStr(ic, "id"))
		if err != nil {
			return err
		}
		ip["privateIPAddress"] = addr
	}
	return nil
}

// deletePLS refuses while connections are listed, whatever their state (arm-rules §2.1).
func deletePLS(c *writeCtx) *armError {
	if n := len(getArr(getObj(c.old, "properties"), "privateEndpointConnections")); n > 0 {
		return badRequest("PrivateLinkServiceWithPrivateEndpointConnectionsCannotBeDeleted",
			"Private link service %s cannot be deleted since it has %d private endpoint connection(s). Please delete all private endpoint connections before deleting the private link service.", c.id, n)
	}
	return nil
}

// mirrorConnectionToPE applies a provider-side approval or rejection: the
// connection keeps its read-only fields and the PE shows the same state.
func mirrorConnectionToPE(c *writeCtx, conn obj) *armError {
	old := findChild(c.old, "privateEndpointConnections", getStr(conn, "name"))
	cp, op := props(conn), getObj(old, "properties")
	for _, f := range []string{"privateEndpoint", "linkIdentifier", "privateEndpointLocation"} {
		cp[f] = op[f]
	}
	state := getObj(cp, "privateLinkServiceConnectionState")
	status := canonical(getStr(state, "status"), "Approved", "Rejected", "Pending", "Disconnected")
	if status == "" {
		return badRequest("InvalidPrivateLinkServiceConnectionState", "Connection state %q of %s is not Approved, Rejected, Pending or Disconnected.", getStr(state, "status"), getStr(conn, "id"))
	}
	state["status"] = status
	return setPEConnectionState(c, refID(cp, "privateEndpoint"), state)
}

// disconnectPE marks the PE side of a connection the provider deleted.
func disconnectPE(c *writeCtx, conn obj) *armError {
	state := obj{"status": "Disconnected", "description": "Connection removed by the private link service owner.", "actionsRequired": "None"}
	return setPEConnectionState(c, refID(getObj(conn, "properties"), "privateEndpoint"), state)
}

func setPEConnectionState(c *writeCtx, peID string, state obj) *armError {
	pe := c.t.getID(peID)
	if pe == nil {
		return nil
	}
	pe = copyObj(pe)
	pe["etag"] = c.t.etag
	p := props(pe)
	for _, list := range []string{"privateLinkServiceConnections", "manualPrivateLinkServiceConnections"} {
		for _, conn := range getObjs(p, list) {
			conn["etag"] = c.t.etag
			props(conn)["privateLinkServiceConnectionState"] = copyObj(state)
		}
	}
	c.t.stage("Microsoft.Network/privateEndpoints", pe)
	return nil
}
