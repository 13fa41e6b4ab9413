package emulator

import (
	"net/http"
	"strings"
)

// kind describes one separately addressable resource type.
type kind struct {
	armType   string
	lro       lroStyle
	etag      func(t *tx) string
	global    bool // location defaults to "global" (Private DNS)
	lowerName bool // Private DNS lower-cases child names in IDs (arm-rules §1.2)
	readOnly  bool // server-created (NICs): GET only
	prepare   func(c *writeCtx) *armError
	onDelete  func(c *writeCtx) *armError // checks, and stages cascading writes
	decorate  func(e *Emulator, body obj, r *http.Request)
	children  map[string]*childSpec // inline children by path segment
	validName func(string) bool     // nil: ARM's rule (validName); DNS names differ
	// implicit returns the resource ARM creates with its parent, while the
	// emulator stores none (a zone's SOA record set); nil: none.
	implicit func(e *Emulator, id string) *entry
}

// lookup returns the stored resource, or the one ARM creates implicitly.
func (e *Emulator) lookup(k *kind, id string) *entry {
	if en := e.store.get(key(id)); en != nil || k.implicit == nil {
		return en
	}
	return k.implicit(e, id)
}

// nameOK applies the kind's name rule.
func (k *kind) nameOK(n string) bool {
	if k.validName != nil {
		return k.validName(n)
	}
	return validName(n)
}

// childSpec describes an inline child collection (properties[segment]).
type childSpec struct {
	writable  bool
	lro       lroStyle
	mustExist bool                                   // PUT may only update (PLS connections)
	afterPut  func(c *writeCtx, child obj) *armError // mirrors state elsewhere
	afterDel  func(c *writeCtx, child obj) *armError
}

// writeCtx is one write of a resource: old is nil on create.
type writeCtx struct {
	e     *Emulator
	t     *tx
	k     *kind
	a     *address
	id    string
	old   obj
	body  obj
	child bool // the write comes from a child PUT/DELETE
	// after runs once the body validated, before it is staged (child hooks).
	after func(c *writeCtx) *armError
}

func weakTag(t *tx) string { return t.etag }

func bareTag(t *tx) string { return strings.Trim(strings.TrimPrefix(t.etag, "W/"), `"`) }

func quotedTag(t *tx) string { return `"` + bareTag(t) + `"` }

func newKinds() map[string]*kind {
	ks := []*kind{
		{armType: "Microsoft.Network/virtualNetworks", lro: lroNRP, prepare: prepareVNet, onDelete: deleteVNet,
			children: map[string]*childSpec{"subnets": {writable: true, lro: lroNRP}}},
		{armType: "Microsoft.Network/publicIPAddresses", lro: lroNRP, prepare: preparePIP, onDelete: deletePIP, decorate: decoratePIP},
		{armType: "Microsoft.Network/loadBalancers", lro: lroNRP, prepare: prepareLB, onDelete: deleteLB,
			children: map[string]*childSpec{
				"frontendIPConfigurations": {}, "loadBalancingRules": {}, "probes": {},
				"inboundNatRules": {writable: true, lro: lroNRP}, "outboundRules": {},
				"backendAddressPools": {writable: true, lro: lroNRP},
			}},
		{armType: "Microsoft.Network/networkSecurityGroups", lro: lroNRP, prepare: prepareNSG, onDelete: deleteNSG,
			children: map[string]*childSpec{"securityRules": {writable: true, lro: lroNRP}, "defaultSecurityRules": {}}},
		{armType: "Microsoft.Network/privateLinkServices", lro: lroNRP, prepare: preparePLS, onDelete: deletePLS,
			children: map[string]*childSpec{"privateEndpointConnections": {writable: true, mustExist: true,
				afterPut: mirrorConnectionToPE, afterDel: disconnectPE}}},
		{armType: "Microsoft.Network/privateEndpoints", lro: lroNRP, prepare: preparePE, onDelete: deletePE, decorate: decoratePE},
		{armType: "Microsoft.Network/networkInterfaces", readOnly: true},
		// Public IP prefixes come from seeds: azsvc only reads them.
		{armType: "Microsoft.Network/publicIPPrefixes", readOnly: true},
		{armType: "Microsoft.Network/privateDnsZones", lro: lroDNS, etag: bareTag, global: true,
			prepare: prepareZone, onDelete: deleteZone, decorate: decorateZone, validName: validZoneName},
		{armType: "Microsoft.Network/privateDnsZones/virtualNetworkLinks", lro: lroDNS, etag: quotedTag, global: true,
			lowerName: true, prepare: prepareLink},
		{armType: "Microsoft.Network/privateDnsZones/A", lro: lroNone, etag: bareTag, lowerName: true, prepare: prepareRecordSet,
			validName: validRecordName},
		{armType: typeRecordSOA, lro: lroNone, etag: bareTag, prepare: prepareSOA, onDelete: refuseSOADelete,
			validName: func(n string) bool { return n == soaName }, implicit: (*Emulator).defaultSOA},
	}
	m := map[string]*kind{}
	for _, k := range ks {
		if k.etag == nil {
			k.etag = weakTag
		}
		m[strings.ToLower(k.armType)] = k
	}
	return m
}

// fill sets the fields every write renews: id, name, type, location, etag,
// provisioningState and (NRP) resourceGuid.
func (c *writeCtx) fill() *armError {
	b := c.body
	if err := checkTags(b); err != nil {
		return err
	}
	b["id"], b["name"], b["type"] = c.id, c.a.name(), c.k.armType
	loc := strings.ToLower(strings.ReplaceAll(getStr(b, "location"), " ", ""))
	switch {
	case loc == "" && c.old != nil:
		loc = getStr(c.old, "location")
	case loc == "" && c.k.global:
		loc = "global"
	case loc == "" && c.k.armType != "Microsoft.Network/privateDnsZones/A":
		return badRequest("LocationRequired", "The location property is required for this definition.")
	}
	if loc != "" {
		b["location"] = loc
	}
	b["etag"] = c.k.etag(c.t)
	p := props(b)
	p["provisioningState"] = "Succeeded"
	if c.k.lro == lroNRP {
		if g := getStr(getObj(c.old, "properties"), "resourceGuid"); g != "" {
			p["resourceGuid"] = g
		} else {
			p["resourceGuid"] = stableGUID(c.id)
		}
	}
	return nil
}

// fillChildren validates the names of an inline child collection and sets
// each child's server fields; it returns the children in body order.
func (c *writeCtx) fillChildren(p obj, prop string) ([]obj, *armError) {
	items := getObjs(p, prop)
	if len(items) != len(getArr(p, prop)) {
		return nil, badRequest("InvalidRequestFormat", "%s of %s must be an array of objects.", prop, c.id)
	}
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		n := getStr(it, "name")
		if !validName(n) {
			return nil, badRequest("InvalidResourceName", "Resource name %q in %s of %s is invalid.", n, prop, c.id)
		}
		if seen[strings.ToLower(n)] {
			return nil, badRequest("DuplicateResourceName", "%s of %s has more than one child named %s.", prop, c.id, n)
		}
		seen[strings.ToLower(n)] = true
		it["id"] = c.id + "/" + prop + "/" + n
		it["etag"] = c.t.etag
		it["type"] = c.k.armType + "/" + prop
		props(it)["provisioningState"] = "Succeeded"
	}
	setObjs(p, prop, items)
	return items, nil
}

// childIndex maps lower-cased child IDs to their objects.
func childIndex(items []obj) map[string]obj {
	m := make(map[string]obj, len(items))
	for _, it := range items {
		m[key(getStr(it, "id"))] = it
	}
	return m
}
