package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Seed adds resources in GET shape, e.g. the output of `az network lb show
// -o json`. Each argument is one body, a JSON array of bodies, an ARM list
// ({"value":[…]}) or a state file. Seeded bodies are stored as given (their
// references are not validated: real Azure already accepted them); missing
// resource groups are created.
func (e *Emulator) Seed(bodies ...[]byte) error { return e.seed(false, bodies) }

// SeedMissing is Seed for the resources the emulator does not hold yet:
// a persisted emulator seeded on every run keeps what applies changed
// since (a subnet's network policies, say).
func (e *Emulator) SeedMissing(bodies ...[]byte) error { return e.seed(true, bodies) }

func (e *Emulator) seed(skipExisting bool, bodies [][]byte) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, data := range bodies {
		items, err := splitBodies(data)
		if err != nil {
			return fmt.Errorf("seed document %d: %w", i, err)
		}
		for j, b := range items {
			if id := getStr(b, "id"); skipExisting && id != "" {
				if cur := e.store.get(key(id)); cur != nil {
					if b = withMissingSubnets(cur.body(), b); b == nil {
						continue
					}
				}
			}
			if err := e.seedOne(b, nil); err != nil {
				return fmt.Errorf("seed document %d, resource %d: %w", i, j, err)
			}
		}
	}
	return e.saveLocked()
}

// withMissingSubnets is the held virtual network with the subnets a seed
// body of it has and it lacks (the baseline made the network with the
// cluster's subnet only), or nil when it lacks none: what it holds stays.
func withMissingSubnets(held, seed obj) obj {
	var missing []obj
	for _, sn := range getObjs(props(seed), "subnets") {
		if findChild(held, "subnets", getStr(sn, "name")) == nil {
			missing = append(missing, sn)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	merged := copyObj(held)
	p := props(merged)
	setObjs(p, "subnets", append(getObjs(p, "subnets"), missing...))
	return merged
}

// seedOne stores one GET-shaped body. raw, when given, is the body's JSON
// as read from the state file or journal: kept as the entry's JSON when the
// body needs no completing (no re-encoding on load), and the decoded body
// is then dropped until something needs it.
func (e *Emulator) seedOne(body obj, raw []byte) error {
	id := getStr(body, "id")
	if id == "" {
		return errors.New("resource has no id")
	}
	a, ok := parseAddress(id)
	if !ok || a.rg == "" {
		return fmt.Errorf("id %q is not a resource group or resource ID", id)
	}
	if a.namespace == "" {
		e.putRG(a, getStr(body, "location"), body)
		return nil
	}
	k := e.kinds[strings.ToLower(a.armType())]
	if k == nil || len(a.segs)%2 != 0 {
		return fmt.Errorf("resource %s: type %s is not supported by the emulator", id, a.armType())
	}
	if t := getStr(body, "type"); t != "" && !strings.EqualFold(t, k.armType) {
		return fmt.Errorf("resource %s: type %q does not match its id", id, t)
	}
	if e.store.get(key(a.rgID())) == nil {
		e.putRG(a, getStr(body, "location"), nil)
	}
	completed := getStr(body, "type") != k.armType || getStr(body, "name") != a.name() || getObj(body, "properties") == nil
	body["type"], body["name"] = k.armType, a.name()
	if getStr(body, "etag") == "" {
		body["etag"] = k.etag(&tx{etag: weakETag()})
		completed = true
	}
	childEtag := ""
	if raw == nil { // a seed, not the emulator's own state: complete it as ARM would show it
		childEtag = getStr(body, "etag")
	}
	if fillSeededChildIDs(id, body, childEtag) {
		completed = true
	}
	if completed || raw == nil || bytes.ContainsAny(raw, "\r\n") {
		e.store.put(key(id), newEntry(k.armType, body))
		return nil
	}
	en := &entry{armType: k.armType, id: id, raw: raw, decoded: body}
	e.store.put(key(id), en)
	en.decoded = nil
	return nil
}

// fillSeededChildIDs gives named inline children (subnets, frontends,
// security rules, ...) the ID and etag ARM would show (the etag of their
// parent's last write), when a hand-written seed body leaves them out:
// every ARM client expects a child's id, and a write of a child carries its
// etag as If-Match. It reports whether it filled any.
func fillSeededChildIDs(id string, body obj, etag string) bool {
	filled := false
	for prop, v := range props(body) {
		items, ok := v.([]any)
		if !ok {
			continue
		}
		for _, item := range items {
			child, ok := item.(obj)
			if !ok || getStr(child, "name") == "" {
				continue
			}
			if getStr(child, "id") == "" {
				child["id"] = id + "/" + prop + "/" + getStr(child, "name")
				filled = true
			}
			if getStr(child, "etag") == "" && etag != "" {
				child["etag"] = etag
				filled = true
			}
		}
	}
	return filled
}

func (e *Emulator) putRG(a *address, location string, body obj) {
	if location == "" || location == "global" {
		location = "eastus"
	}
	if body == nil {
		body = obj{"location": location}
	}
	body["id"], body["name"], body["type"] = a.rgID(), a.rg, typeRG
	if getObj(body, "properties") == nil {
		body["properties"] = obj{"provisioningState": "Succeeded"}
	}
	e.store.put(key(a.rgID()), newEntry(typeRG, body))
}

// EnsureBaseline creates what the cluster configuration says exists when it
// is missing: the resource group, the NSG, and the VNet with its subnets
// (name → CIDR), each subnet associated with the NSG as on an AKS cluster.
// Existing resources are left as they are, apart from adding missing
// subnets. A missing subnet gets its CIDR when no subnet of the VNet
// overlaps it, else (or for "") the first /24 of the VNet's address space
// that none does.
func (e *Emulator) EnsureBaseline(sub, rg, location, vnet, vnetCIDR string, subnets map[string]string, nsg string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	rgAddr := &address{sub: sub, rg: rg}
	if e.store.get(key(rgAddr.rgID())) == nil {
		e.putRG(rgAddr, location, nil)
	}
	base := rgAddr.rgID() + "/providers/Microsoft.Network/"
	nsgID := ""
	if nsg != "" {
		nsgID = base + "networkSecurityGroups/" + nsg
		if e.store.get(key(nsgID)) == nil {
			if err := e.writeInternal(nsgID, obj{"location": location}); err != nil {
				return fmt.Errorf("ensure baseline NSG %s: %w", nsg, err)
			}
		}
	}
	if vnet == "" {
		return e.saveLocked()
	}
	vnetID := base + "virtualNetworks/" + vnet
	body := obj{"location": location, "properties": obj{"addressSpace": obj{"addressPrefixes": []any{vnetCIDR}}}}
	if cur := e.store.get(key(vnetID)); cur != nil {
		body = copyObj(cur.body())
	}
	p := props(body)
	items := getObjs(p, "subnets")
	names := make([]string, 0, len(subnets))
	for n := range subnets {
		names = append(names, n)
	}
	sort.Strings(names)
	added := false
	for _, n := range names {
		if findChild(body, "subnets", n) != nil {
			continue
		}
		cidr, err := freeSubnetPrefix(strList(getObj(p, "addressSpace"), "addressPrefixes"), items, subnets[n])
		if err != nil {
			return fmt.Errorf("ensure baseline subnet %s of %s: %w", n, vnet, err)
		}
		added = true
		sp := obj{"addressPrefix": cidr}
		if nsgID != "" {
			sp["networkSecurityGroup"] = ref(nsgID)
		}
		items = append(items, obj{"name": n, "properties": sp})
	}
	if e.store.get(key(vnetID)) != nil && !added {
		// Rewriting an unchanged VNet would renew every subnet's etag and
		// make saved plans look stale.
		return e.saveLocked()
	}
	setObjs(p, "subnets", items)
	if err := e.writeInternal(vnetID, body); err != nil {
		return fmt.Errorf("ensure baseline virtual network %s: %w", vnet, err)
	}
	return nil
}

// writeInternal validates and stores a body as a PUT would.
func (e *Emulator) writeInternal(id string, body obj) error {
	a, ok := parseAddress(id)
	if !ok {
		return fmt.Errorf("invalid resource id %q", id)
	}
	k := e.kinds[strings.ToLower(a.armType())]
	if k == nil || len(a.segs)%2 != 0 {
		return fmt.Errorf("resource %s: type %s is not supported by the emulator", id, a.armType())
	}
	var old obj
	if cur := e.store.get(key(id)); cur != nil {
		old = cur.body()
	}
	c := &writeCtx{e: e, t: e.store.begin(), k: k, a: a, id: a.id(), old: old, body: body}
	if err := e.write(c); err != nil {
		return err
	}
	return nil
}
