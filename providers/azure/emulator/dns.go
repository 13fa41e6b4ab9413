package emulator

import (
	"net/http"
	"net/netip"
	"strings"
)

// Private DNS limits (arm-rules §2.4).
const (
	maxZonesPerSub               = 1000
	maxRecordSetsPerZone         = 25000
	maxRecordsPerSet             = 20
	maxLinksPerZone              = 1000
	maxRegLinksPerZone           = 100
	maxRegZonesPerVNet           = 1
	typeZone                     = "Microsoft.Network/privateDnsZones"
	typeLink                     = typeZone + "/virtualNetworkLinks"
	typeRecordA                  = typeZone + "/A"
	defaultRecordSetTTL          = 3600
	zoneLabelsMin, zoneLabelsMax = 2, 34
)

func prepareZone(c *writeCtx) *armError {
	labels := strings.Split(strings.TrimSuffix(c.a.name(), "."), ".")
	if len(labels) < zoneLabelsMin || len(labels) > zoneLabelsMax {
		return badRequest("InvalidResourceName", "Private DNS zone name %s must have between %d and %d labels.", c.a.name(), zoneLabelsMin, zoneLabelsMax)
	}
	if c.old == nil && len(c.e.store.keysOfType(typeZone, "/subscriptions/"+c.a.sub+"/")) >= maxZonesPerSub {
		return badRequest("QuotaExceeded", "Subscription %s already has %d private DNS zones.", c.a.sub, maxZonesPerSub)
	}
	p := props(c.body)
	p["maxNumberOfRecordSets"] = maxRecordSetsPerZone
	p["maxNumberOfVirtualNetworkLinks"] = maxLinksPerZone
	p["maxNumberOfVirtualNetworkLinksWithRegistration"] = maxRegLinksPerZone
	p["internalId"] = stableGUID(c.id)
	return nil
}

// decorateZone fills the counts; a new zone already counts its SOA record set.
func decorateZone(e *Emulator, body obj, _ *http.Request) {
	var links, reg, records int
	for k := range e.store.children[key(getStr(body, "id"))] {
		en := e.store.get(k)
		switch strings.ToLower(en.armType) {
		case strings.ToLower(typeLink):
			links++
			if getBool(getObj(en.body(), "properties"), "registrationEnabled") {
				reg++
			}
		case strings.ToLower(typeRecordA):
			records++
		}
	}
	p := getObj(body, "properties")
	p["numberOfRecordSets"] = records + 1
	p["numberOfVirtualNetworkLinks"] = links
	p["numberOfVirtualNetworkLinksWithRegistration"] = reg
}

// deleteZone refuses while links exist (409, arm-rules §2.1) and deletes the
// zone's record sets with it.
func deleteZone(c *writeCtx) *armError {
	var records []string
	for k := range c.e.store.children[key(c.id)] {
		en := c.e.store.get(k)
		if strings.EqualFold(en.armType, typeLink) {
			return newErr(http.StatusConflict, "CannotDeleteResource",
				"Cannot delete resource while nested resources exist. Some existing nested resource IDs include: 'Microsoft.Network/privateDnsZones/%s/virtualNetworkLinks/%s'. Please delete all nested resources before deleting this resource.",
				c.a.name(), getStr(en.body(), "name"))
		}
		records = append(records, k)
	}
	for _, k := range records {
		c.t.remove(k)
	}
	return nil
}

func prepareLink(c *writeCtx) *armError {
	p := props(c.body)
	vnet := refID(p, "virtualNetwork")
	if vnet == "" || c.t.getID(vnet) == nil {
		return invalidReference(vnet, c.id)
	}
	if _, ok := p["registrationEnabled"].(bool); !ok {
		// Private DNS requires it (Azure/terraform-provider-azapi#649: a link
		// body without it got this answer).
		return badRequest("BadRequest", "The specified virtual network link registration setting is invalid.")
	}
	if getStr(p, "resolutionPolicy") == "" {
		p["resolutionPolicy"] = "Default"
	}
	p["virtualNetworkLinkState"] = "Completed"
	zoneKey := key(c.a.idOf(2))
	var links, reg int
	for k := range c.e.store.children[zoneKey] {
		en := c.e.store.get(k)
		if k == key(c.id) || !strings.EqualFold(en.armType, typeLink) {
			continue
		}
		lp := getObj(en.body(), "properties")
		if strings.EqualFold(refID(lp, "virtualNetwork"), vnet) {
			// HyperShift tolerates exactly this message (arm-rules §2.4).
			return newErr(http.StatusConflict, "Conflict",
				"A virtual network cannot be linked to the same private zone more than once: zone %s is already linked to the virtual network %s by link %s.",
				c.a.segs[1], vnet, getStr(en.body(), "name"))
		}
		links++
		if getBool(lp, "registrationEnabled") {
			reg++
		}
	}
	if links >= maxLinksPerZone {
		return badRequest("QuotaExceeded", "Private DNS zone %s already has %d virtual network links.", c.a.segs[1], maxLinksPerZone)
	}
	if getBool(p, "registrationEnabled") {
		if reg >= maxRegLinksPerZone {
			return badRequest("QuotaExceeded", "Private DNS zone %s already has %d registration-enabled links.", c.a.segs[1], maxRegLinksPerZone)
		}
		if other := registrationZoneOf(c, vnet); other != "" {
			return newErr(http.StatusConflict, "Conflict",
				"Virtual network %s already has auto-registration enabled with private DNS zone %s; a virtual network can be registered with %d zone only.", vnet, other, maxRegZonesPerVNet)
		}
	}
	return nil
}

func registrationZoneOf(c *writeCtx, vnet string) string {
	for _, k := range c.e.store.keysOfType(typeLink, "/subscriptions/") {
		en := c.e.store.get(k)
		lp := getObj(en.body(), "properties")
		if k != key(c.id) && getBool(lp, "registrationEnabled") && strings.EqualFold(refID(lp, "virtualNetwork"), vnet) {
			a, _ := parseAddress(en.id)
			return a.segs[1]
		}
	}
	return ""
}

func prepareRecordSet(c *writeCtx) *armError {
	delete(c.body, "location")
	p := props(c.body)
	zone := c.a.segs[1]
	if err := intDefault(p, "ttl", defaultRecordSetTTL, 0, 2147483647, c.id); err != nil {
		return err
	}
	recs := getObjs(p, "aRecords")
	if len(recs) > maxRecordsPerSet {
		return badRequest("QuotaExceeded", "Record set %s has %d records; the limit is %d.", c.id, len(recs), maxRecordsPerSet)
	}
	for _, r := range recs {
		ip, err := netip.ParseAddr(getStr(r, "ipv4Address"))
		if err != nil || !ip.Is4() {
			return badRequest("InvalidRequestFormat", "Record set %s: %q is not an IPv4 address.", c.id, getStr(r, "ipv4Address"))
		}
	}
	p["fqdn"] = c.a.name() + "." + strings.TrimSuffix(zone, ".") + "."
	p["isAutoRegistered"] = false
	delete(p, "provisioningState")
	if c.old == nil {
		n := 0
		for k := range c.e.store.children[key(c.a.idOf(2))] {
			if strings.EqualFold(c.e.store.get(k).armType, typeRecordA) {
				n++
			}
		}
		if n+1 >= maxRecordSetsPerZone { // the SOA record set counts too
			return badRequest("QuotaExceeded", "Private DNS zone %s already has %d record sets.", zone, maxRecordSetsPerZone)
		}
	}
	return nil
}

// validZoneName: a DNS name of labels of letters, digits, '-' and '_', at
// most 63 characters each and 253 in all (zone names are not ARM names:
// they may exceed 80 characters).
func validZoneName(n string) bool {
	if n == "" || len(n) > 253 {
		return false
	}
	for _, l := range strings.Split(n, ".") {
		if !validLabel(l) {
			return false
		}
	}
	return true
}

// validRecordName: "@" (the apex), or labels as in a zone name where the
// first may be the wildcard "*" (a record set named *.apps answers every
// name under apps).
func validRecordName(n string) bool {
	if n == "@" {
		return true
	}
	labels := strings.Split(n, ".")
	if labels[0] == "*" {
		labels = labels[1:]
	}
	for _, l := range labels {
		if !validLabel(l) {
			return false
		}
	}
	return len(n) <= 253
}

func validLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c != '-' && c != '_' && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
