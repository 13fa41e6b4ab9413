package emulator

import (
	"net/http"
	"strings"
)

func preparePIP(c *writeCtx) *armError {
	sku := getObj(c.body, "sku")
	if sku == nil {
		sku = obj{"name": "Standard", "tier": "Regional"}
		c.body["sku"] = sku
	}
	name := canonical(getStr(sku, "name"), "Basic", "Standard", "StandardV2")
	if name == "" {
		return badRequest("InvalidPublicIPAddressSku", "Public IP SKU %q of %s is not supported.", getStr(sku, "name"), c.id)
	}
	if err := refuseRetiredSKU(c, name, "public IPs"); err != nil {
		return err
	}
	sku["name"] = name
	if getStr(sku, "tier") == "" {
		sku["tier"] = "Regional"
	}
	if old := getStr(getObj(c.old, "sku"), "name"); old != "" && old != name && len(c.e.store.inboundFrom(key(c.id))) > 0 {
		return badRequest("PublicIPAddressInUse", "The SKU of public IP %s cannot change while it is in use.", c.id)
	}
	p := props(c.body)
	delete(p, "ipConfiguration")
	method := canonical(getStr(p, "publicIPAllocationMethod"), "Static", "Dynamic")
	if method == "" || name != "Basic" {
		method = "Static" // Standard public IPs are always static
	}
	p["publicIPAllocationMethod"] = method
	version := canonical(getStr(p, "publicIPAddressVersion"), "IPv4", "IPv6")
	if version == "" {
		version = "IPv4"
	}
	p["publicIPAddressVersion"] = version
	if err := intDefault(p, "idleTimeoutInMinutes", 4, 4, 30, c.id); err != nil {
		return err
	}
	if _, ok := p["ipTags"]; !ok {
		p["ipTags"] = []any{}
	}
	if getObj(p, "ddosSettings") == nil {
		p["ddosSettings"] = obj{"protectionMode": "VirtualNetworkInherited"}
	}
	ip := getStr(getObj(c.old, "properties"), "ipAddress")
	if ip == "" || !strings.EqualFold(getStr(getObj(c.old, "properties"), "publicIPAddressVersion"), version) {
		ip = c.t.publicAddress(version == "IPv6")
	}
	if ip == "" {
		return newErr(http.StatusBadRequest, "PublicIPCountLimitReached", "No public IP address is left to allocate for %s.", c.id)
	}
	p["ipAddress"] = ip
	return nil
}

// decoratePIP adds the ipConfiguration back-reference: the frontend (or NIC
// ipconfig) using the address.
func decoratePIP(e *Emulator, body obj, _ *http.Request) {
	for _, ed := range e.store.inboundFrom(key(getStr(body, "id"))) {
		props(body)["ipConfiguration"] = ref(ed.source)
		return
	}
}

func deletePIP(c *writeCtx) *armError {
	for _, ed := range c.e.store.inboundFrom(key(c.id)) {
		return badRequest("PublicIPAddressCannotBeDeleted",
			"Public IP address %s can not be deleted since it is still allocated to resource %s. In order to delete the public IP, disassociate/detach the Public IP address from the resource. To learn how to do this, see aka.ms/deletepublicip.",
			c.id, ed.source)
	}
	return nil
}
