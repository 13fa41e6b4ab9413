package plan

import (
	"strings"
)

// A frontend pinned to a user-assigned public IP by address references
// PublicIPByAddress(collection, addr). CCM looks the address up among the
// public IPs of the resource group and fails the Service when none has it
// (ccm-semantics §6 "BYO pinned by IP", annotation 22). The diff does the
// same before comparing or ordering anything: found, the marker becomes the
// public IP's ID; not found, every change of the Service is withdrawn and
// the plan says why, so the Service's Azure resources stay as they are, as
// they do while CCM retries.

// pipByAddress finds the observed public IP of a collection with address
// addr, comparing canonical forms so IPv6 spellings match.
func (d *differ) pipByAddress(collection Key, addr string) (*Resource, bool) {
	if d.pipIndex == nil {
		d.pipIndex = map[Key]map[string]*Resource{}
		for _, e := range ofKind(d.obsList, KindPublicIP) {
			ip, _ := e.r.Properties["ipAddress"].(string)
			if ip == "" {
				continue // never matched by IP (ccm-semantics §2.4 PIP)
			}
			coll := PublicIPCollection(e.r.ID.Subscription, e.r.ID.ResourceGroup)
			if d.pipIndex[coll] == nil {
				d.pipIndex[coll] = map[string]*Resource{}
			}
			d.pipIndex[coll][canonicalIP(ip)] = e.r
		}
	}
	r, ok := d.pipIndex[collection][canonicalIP(addr)]
	return r, ok
}

// findMissingPIPs records the Services whose pinned public IP address is
// not in the observed resource group, with the error CCM reports.
func (d *differ) findMissingPIPs() {
	found := map[string]bool{}
	missing := map[string]bool{}
	for _, e := range ofKind(d.desList, KindFrontend) {
		coll, addr, ok := ParsePublicIPByAddress(refMarker(e.r.Properties["publicIPAddress"]))
		if !ok {
			continue
		}
		if _, ok := d.pipByAddress(coll, addr); ok {
			found[canonicalIP(addr)] = true
			continue
		}
		missing[canonicalIP(addr)] = true
		d.conflicts[e.key] = true
		for _, s := range e.r.Services {
			d.failed[s] = e.r.ID.Address()
			d.block(Blocked{Address: e.r.ID.Address(), Code: BlockPinnedIPNotFound, Services: []string{s},
				Value: addr, Group: collectionGroup(coll)})
		}
	}
	for ip := range missing {
		if !found[ip] {
			d.failedAddrs[ip] = true
		}
	}
}

// refMarker returns the id of a reference object, whatever its type.
func refMarker(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	return m["id"]
}

// collectionGroup is the resource group named by a collection key.
func collectionGroup(coll Key) string {
	parts := strings.Split(strings.Trim(string(coll), "/"), "/")
	if len(parts) < 4 {
		return string(coll)
	}
	return parts[3]
}

// allFailed reports whether every one of services failed: a resource only
// they want is left alone.
func (d *differ) allFailed(services []string) bool {
	if len(services) == 0 || len(d.failed) == 0 {
		return false
	}
	for _, s := range services {
		if d.failed[s] == "" {
			return false
		}
	}
	return true
}

// withdrawFailed removes the creates and updates that serve only failed
// Services; blockDependents then withdraws what references them. The
// frontend's Blocked entry speaks for all of them: one line per Service
// reads better than one per rule and probe.
func (d *differ) withdrawFailed() {
	if len(d.failed) == 0 {
		return
	}
	for _, k := range sortedChangeKeys(d.changes) {
		c := d.changes[k]
		if c.After == nil || !d.allFailed(c.Services) {
			continue
		}
		delete(d.changes, k)
		d.conflicts[k] = true
	}
}

// withoutFailedAddrs drops the pinned addresses that failed from a desired
// NSG rule's destinations: CCM never got as far as adding them.
func (d *differ) withoutFailedAddrs(r *Resource) *Resource {
	if len(d.failedAddrs) == 0 {
		return r
	}
	var kept []any
	dropped := false
	for _, v := range destinations(r) {
		if s, ok := v.(string); ok && d.failedAddrs[canonicalIP(s)] {
			dropped = true
			continue
		}
		kept = append(kept, v)
	}
	if !dropped {
		return r
	}
	c := cloneResource(r)
	setDestinations(c.Properties, kept)
	return c
}
