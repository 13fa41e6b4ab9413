package emulator

import (
	"net/http"
	"strings"
)

// Every private DNS zone has an SOA record set "@", created and deleted with
// the zone: it can be read, listed and updated, never created or deleted
// (learn.microsoft.com, Private DNS "Record Sets - Create Or Update" and
// "Remove-AzPrivateDnsRecordSet": "You cannot delete SOA records that are
// automatically created at the private zone apex"). The emulator stores it
// only once it is updated; until then a GET shows the one ARM creates, with
// the values ARM templates exported from real zones show (the spec example
// RecordSetSOAGet.json idealises email and minimumTtl).
const (
	typeRecordSOA = typeZone + "/SOA"
	soaName       = "@"
)

// defaultSOA is a zone's SOA record set as ARM creates it; nil when the
// zone does not exist.
func (e *Emulator) defaultSOA(id string) *entry {
	a, ok := parseAddress(id)
	if !ok || len(a.segs) != 4 || a.segs[3] != soaName {
		return nil
	}
	zone := e.store.get(key(a.idOf(2)))
	if zone == nil {
		return nil
	}
	return newEntry(typeRecordSOA, obj{
		"id": zone.id + "/SOA/" + soaName, "name": soaName, "type": typeRecordSOA,
		"etag": stableGUID(id),
		"properties": obj{
			"ttl": 3600, "fqdn": getStr(zone.body(), "name") + ".", "isAutoRegistered": false,
			"soaRecord": obj{
				"host": "azureprivatedns.net", "email": "azureprivatedns-host.microsoft.com", "serialNumber": 1,
				"refreshTime": 3600, "retryTime": 300, "expireTime": 2419200, "minimumTtl": 10,
			},
		},
	})
}

// prepareSOA applies an update of the SOA record set: its host and serial
// number stay ARM's (they cannot be updated, Azure/azure-rest-api-specs#11674).
func prepareSOA(c *writeCtx) *armError {
	delete(c.body, "location")
	p := props(c.body)
	if err := intDefault(p, "ttl", 3600, 0, 2147483647, c.id); err != nil {
		return err
	}
	old := getObj(getObj(c.old, "properties"), "soaRecord")
	soa := getObj(p, "soaRecord")
	if soa == nil {
		soa = copyObj(old)
		p["soaRecord"] = soa
	}
	for _, fixed := range []string{"host", "serialNumber"} {
		soa[fixed] = old[fixed]
	}
	for f, v := range old {
		if _, ok := soa[f]; !ok {
			soa[f] = v
		}
	}
	p["fqdn"] = strings.TrimSuffix(c.a.segs[1], ".") + "."
	p["isAutoRegistered"] = false
	delete(p, "provisioningState")
	return nil
}

// refuseSOADelete: the refusal is documented, its code is the emulator's
// own (Private DNS answers its validation errors with BadRequest,
// Azure/terraform-provider-azapi#649).
func refuseSOADelete(c *writeCtx) *armError {
	return badRequest("BadRequest", "Record sets of type SOA cannot be deleted: %s is deleted with its private DNS zone.", c.id)
}

// listRecordSets answers a zone's record set list: one type, or ALL.
func (e *Emulator) listRecordSets(w http.ResponseWriter, r *http.Request, a *address) *armError {
	zone := a.idOf(2)
	var entries []*entry
	if a.segs[2] == "ALL" || a.segs[2] == "A" {
		for _, k := range e.store.keysOfType(typeRecordA, zone+"/") {
			entries = append(entries, e.store.get(k))
		}
	}
	if a.segs[2] == "ALL" || a.segs[2] == "SOA" {
		soa := zone + "/SOA/" + soaName
		if en := e.store.get(key(soa)); en != nil {
			entries = append(entries, en)
		} else {
			entries = append(entries, e.defaultSOA(soa))
		}
	}
	return e.writePage(w, r, len(entries), func(i int) []byte {
		return e.render(entries[i], e.kinds[strings.ToLower(entries[i].armType)], r)
	})
}
