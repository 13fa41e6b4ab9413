package emulator

import (
	"net/http"
	"net/netip"
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
	oldPrefix := refID(getObj(c.old, "properties"), "publicIPPrefix")
	if ip == "" || !strings.EqualFold(getStr(getObj(c.old, "properties"), "publicIPAddressVersion"), version) ||
		!strings.EqualFold(oldPrefix, refID(p, "publicIPPrefix")) {
		var err *armError
		if ip, err = c.pipAddress(p, version == "IPv6"); err != nil {
			return err
		}
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

// pipAddress allocates a new public IP's address: from its public IP
// prefix when it names one, which must exist, else from the emulator's
// public ranges.
func (c *writeCtx) pipAddress(p obj, v6 bool) (string, *armError) {
	prefixID := refID(p, "publicIPPrefix")
	if prefixID == "" {
		return c.t.publicAddress(v6), nil
	}
	prefix := c.t.getID(prefixID)
	if prefix == nil {
		// The code ARM gave for a public IP created from a prefix that is not
		// there (Azure/azure-cli#24377); its status is assumed to be the 404
		// ResourceNotFound has elsewhere.
		name, rg := prefixID, ""
		if a, ok := parseAddress(prefixID); ok {
			name, rg = a.name(), a.rg
		}
		return "", newErr(http.StatusNotFound, "ResourceNotFound",
			"The Resource 'Microsoft.Network/publicIPPrefixes/%s' under resource group '%s' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix",
			name, rg)
	}
	// The two codes below are the emulator's own (no ARM source found).
	pfx, err := netip.ParsePrefix(getStr(getObj(prefix, "properties"), "ipPrefix"))
	if err != nil || pfx.Addr().Is6() != v6 {
		return "", badRequest("PublicIPPrefixVersionMismatch", "Public IP %s cannot be created from public IP prefix %s: its ipPrefix %q is not an %s range.",
			c.id, prefixID, getStr(getObj(prefix, "properties"), "ipPrefix"), map[bool]string{false: "IPv4", true: "IPv6"}[v6])
	}
	for a := pfx.Masked().Addr(); pfx.Contains(a); a = a.Next() {
		if _, used := c.t.s.public[a.String()]; !used {
			return a.String(), nil
		}
	}
	return "", badRequest("PublicIPPrefixAllIpsAllocated", "Every address of public IP prefix %s (%s) is allocated.", prefixID, pfx)
}
