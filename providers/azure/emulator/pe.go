package emulator

import (
	"net/http"
	"strings"
)

const typeNIC = "Microsoft.Network/networkInterfaces"

// preparePE resolves the PE's one connection (PLS ID or alias), runs the
// connection state machine (arm-rules §7.3), and creates the PE's NIC with
// an IP from its subnet and the connection on the PLS side.
func preparePE(c *writeCtx) *armError {
	p := props(c.body)
	sub := refID(p, "subnet")
	if c.t.subnet(sub) == nil {
		return invalidReference(sub, c.id)
	}
	if old := refID(getObj(c.old, "properties"), "subnet"); old != "" && !strings.EqualFold(old, sub) {
		return badRequest("PrivateEndpointSubnetCannotBeChanged", "The subnet of private endpoint %s cannot change.", c.id)
	}
	auto, err := c.fillChildren(p, "privateLinkServiceConnections")
	if err != nil {
		return err
	}
	manual, err := c.fillChildren(p, "manualPrivateLinkServiceConnections")
	if err != nil {
		return err
	}
	if len(auto)+len(manual) != 1 {
		return badRequest("PrivateEndpointMustHaveExactlyOneConnection",
			"Private endpoint %s must have exactly one private link service connection, automatic or manual.", c.id)
	}
	conn := append(auto, manual...)[0]
	pls, err := resolvePLS(c, conn)
	if err != nil {
		return err
	}
	nicID, err := ensurePENIC(c, sub)
	if err != nil {
		return err
	}
	p["networkInterfaces"] = []any{ref(nicID)}
	p["customDnsConfigs"] = []any{} // empty for a custom PLS target (arm-rules §1.4)
	if getArr(p, "ipConfigurations") == nil {
		p["ipConfigurations"] = []any{}
	}
	p["isIPv6EnabledPrivateEndpoint"] = false
	return connectPLS(c, pls, conn, len(auto) == 1)
}

func resolvePLS(c *writeCtx, conn obj) (obj, *armError) {
	cp := props(conn)
	target := getStr(cp, "privateLinkServiceId")
	if len(getStr(cp, "requestMessage")) > 140 {
		return nil, badRequest("InvalidRequestFormat", "requestMessage of %s is longer than 140 characters.", getStr(conn, "id"))
	}
	var pls obj
	if strings.HasPrefix(target, "/") {
		pls = c.t.getID(target)
	} else if k := c.e.store.aliases[strings.ToLower(target)]; k != "" {
		pls = c.t.get(k).body()
	}
	if pls == nil {
		return nil, invalidReference(target, getStr(conn, "id"))
	}
	vis := strList(getObj(getObj(pls, "properties"), "visibility"), "subscriptions")
	plsAddr, _ := parseAddress(getStr(pls, "id"))
	if len(vis) > 0 && !strings.EqualFold(plsAddr.sub, c.a.sub) && !containsFold(vis, c.a.sub) && !containsFold(vis, "*") {
		return nil, newErr(http.StatusBadRequest, "PrivateLinkServiceNotVisible",
			"Private link service %s is not visible to subscription %s.", getStr(pls, "id"), c.a.sub)
	}
	return pls, nil
}

// connectPLS upserts the PLS-side connection. An existing one keeps its
// state (the provider may have approved or rejected it); a new one is
// Approved when automatic and auto-approved (same subscription, or listed in
// autoApproval), Pending otherwise.
func connectPLS(c *writeCtx, pls, conn obj, automatic bool) *armError {
	plsAddr, _ := parseAddress(getStr(pls, "id"))
	pls = copyObj(pls)
	pls["etag"] = c.t.etag
	pp := props(pls)
	conns := getObjs(pp, "privateEndpointConnections")
	var existing obj
	for _, pc := range conns {
		if strings.EqualFold(refID(getObj(pc, "properties"), "privateEndpoint"), c.id) {
			existing = pc
		}
	}
	if existing == nil && len(conns) >= 1000 {
		return badRequest("PrivateEndpointCountLimitReached", "Private link service %s already has 1000 private endpoint connections.", getStr(pls, "id"))
	}
	state := obj{"status": "Pending", "description": "Awaiting approval", "actionsRequired": "None"}
	if automatic && (strings.EqualFold(plsAddr.sub, c.a.sub) || containsFold(strList(getObj(pp, "autoApproval"), "subscriptions"), c.a.sub)) {
		state = obj{"status": "Approved", "description": "Auto Approved", "actionsRequired": "None"}
	}
	if existing != nil {
		state = copyObj(getObj(getObj(existing, "properties"), "privateLinkServiceConnectionState"))
	} else {
		name := c.a.name() + "." + stableGUID(c.id+"/connection")
		existing = obj{"name": name, "id": getStr(pls, "id") + "/privateEndpointConnections/" + name,
			"type": "Microsoft.Network/privateLinkServices/privateEndpointConnections"}
		conns = append(conns, existing)
	}
	existing["etag"] = c.t.etag
	existing["properties"] = obj{
		"privateEndpoint":                   ref(c.id),
		"privateLinkServiceConnectionState": state,
		"linkIdentifier":                    stableGUID(c.id + "/link"),
		"privateEndpointLocation":           getStr(c.body, "location"),
		"provisioningState":                 "Succeeded",
	}
	setObjs(pp, "privateEndpointConnections", conns)
	props(conn)["privateLinkServiceConnectionState"] = copyObj(state)
	props(conn)["privateLinkServiceId"] = getStr(pls, "id")
	c.t.stage("Microsoft.Network/privateLinkServices", pls)
	if old := oldPLSOf(c); old != "" && !strings.EqualFold(old, getStr(pls, "id")) {
		dropPLSConnection(c, old)
	}
	return nil
}

func oldPLSOf(c *writeCtx) string {
	op := getObj(c.old, "properties")
	for _, list := range []string{"privateLinkServiceConnections", "manualPrivateLinkServiceConnections"} {
		for _, conn := range getObjs(op, list) {
			return getStr(getObj(conn, "properties"), "privateLinkServiceId")
		}
	}
	return ""
}

// dropPLSConnection removes this PE's connection from a PLS: the connection
// disappears when its PE goes (arm-rules §2.1).
func dropPLSConnection(c *writeCtx, plsID string) {
	pls := c.t.getID(plsID)
	if pls == nil {
		return
	}
	pls = copyObj(pls)
	pls["etag"] = c.t.etag
	pp := props(pls)
	var kept []obj
	for _, pc := range getObjs(pp, "privateEndpointConnections") {
		if !strings.EqualFold(refID(getObj(pc, "properties"), "privateEndpoint"), c.id) {
			kept = append(kept, pc)
		}
	}
	setObjs(pp, "privateEndpointConnections", kept)
	c.t.stage("Microsoft.Network/privateLinkServices", pls)
}

// ensurePENIC creates or keeps the PE's NIC, named <pe>.nic.<guid> like NRP's.
func ensurePENIC(c *writeCtx, subnet string) (string, *armError) {
	nicID := c.a.rgID() + "/providers/Microsoft.Network/networkInterfaces/" + c.a.name() + ".nic." + stableGUID(c.id+"/nic")
	alloc := c.t.allocator(key(nicID))
	cfgName := "privateEndpointIpConfig." + stableGUID(c.id+"/ipconfig")
	var ip string
	if old := c.t.getID(nicID); old != nil {
		for _, ic := range getObjs(getObj(old, "properties"), "ipConfigurations") {
			ip = getStr(getObj(ic, "properties"), "privateIPAddress")
		}
	}
	for _, ic := range getObjs(props(c.body), "ipConfigurations") {
		if s := getStr(getObj(ic, "properties"), "privateIPAddress"); s != "" {
			ip = s
		}
	}
	var err *armError
	if ip != "" {
		err = alloc.static(subnet, ip, nicID)
	} else {
		ip, err = alloc.dynamic(subnet, nicID)
	}
	if err != nil {
		return "", err
	}
	nic := obj{
		"id": nicID, "name": c.a.name() + ".nic." + stableGUID(c.id+"/nic"), "type": typeNIC,
		"location": getStr(c.body, "location"), "etag": c.t.etag,
		"properties": obj{
			"provisioningState": "Succeeded", "privateEndpoint": ref(c.id),
			"ipConfigurations": []any{obj{
				"name": cfgName, "id": nicID + "/ipConfigurations/" + cfgName, "etag": c.t.etag,
				"type": typeNIC + "/ipConfigurations",
				"properties": obj{"provisioningState": "Succeeded", "privateIPAddress": ip,
					"privateIPAllocationMethod": "Dynamic", "privateIPAddressVersion": "IPv4",
					"subnet": ref(subnet), "primary": true},
			}},
		},
	}
	c.t.stage(typeNIC, nic)
	return nicID, nil
}

// deletePE deletes the PE's NIC and its connection on the PLS.
func deletePE(c *writeCtx) *armError {
	for _, n := range getObjs(getObj(c.old, "properties"), "networkInterfaces") {
		c.t.remove(key(getStr(n, "id")))
	}
	if pls := oldPLSOf(c); pls != "" {
		dropPLSConnection(c, pls)
	}
	return nil
}

// decoratePE expands networkInterfaces on request ($expand=networkInterfaces),
// the way to read a PE's IP (arm-rules §1.4).
func decoratePE(e *Emulator, body obj, r *http.Request) {
	if !strings.Contains(strings.ToLower(r.URL.Query().Get("$expand")), "networkinterfaces") {
		return
	}
	p := getObj(body, "properties")
	var nics []any
	for _, n := range getObjs(p, "networkInterfaces") {
		if en := e.store.get(key(getStr(n, "id"))); en != nil {
			nics = append(nics, en.body())
		}
	}
	p["networkInterfaces"] = nics
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
