package emulator

import (
	"strings"
)

// lbLimits are the per-LB limits of arm-rules §2.4.
type lbLimits struct{ frontends, rules, poolSize int }

func limitsFor(sku string) lbLimits {
	if strings.EqualFold(sku, "Basic") {
		return lbLimits{frontends: 200, rules: 250, poolSize: 300}
	}
	return lbLimits{frontends: 600, rules: 1500, poolSize: 5000}
}

// lbBody is a load balancer PUT being validated: its children indexed by
// lower-cased ID so every reference resolves in O(1).
type lbBody struct {
	c                                         *writeCtx
	sku                                       string
	frontends, pools, probes, rules, nat, out []obj
	feIdx, poolIdx, probeIdx                  map[string]obj // lower-cased child name → child
}

// child resolves a reference to a child of this LB: the ID must be
// <lb id>/<collection>/<name>, compared case-insensitively. Only the short
// name is lower-cased, which keeps a 1,500-child PUT cheap.
func (b *lbBody) child(idx map[string]obj, collection, ref string) obj {
	prefix := len(b.c.id) + len(collection) + 2
	if len(ref) <= prefix || !strings.EqualFold(ref[:len(b.c.id)], b.c.id) || ref[len(b.c.id)] != '/' ||
		!strings.EqualFold(ref[len(b.c.id)+1:prefix-1], collection) || ref[prefix-1] != '/' {
		return nil
	}
	return idx[strings.ToLower(ref[prefix:])]
}

// nameIndex maps lower-cased child names to their objects.
func nameIndex(items []obj) map[string]obj {
	m := make(map[string]obj, len(items))
	for _, it := range items {
		m[strings.ToLower(getStr(it, "name"))] = it
	}
	return m
}

// prepareLB validates a whole LB body atomically (arm-rules §2.2, §7.2) and
// fills server fields and back-references.
func prepareLB(c *writeCtx) *armError {
	b := &lbBody{c: c}
	if err := b.collect(); err != nil {
		return err
	}
	steps := []func() *armError{b.checkLimits, b.checkFrontends, b.checkProbes, b.checkPools,
		b.checkRules, b.checkNATAndOutbound, b.checkPLSFrontends}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (b *lbBody) collect() *armError {
	c := b.c
	sku := getObj(c.body, "sku")
	if sku == nil {
		sku = obj{"name": "Standard", "tier": "Regional"}
		c.body["sku"] = sku
	}
	b.sku = getStr(sku, "name")
	if getStr(sku, "tier") == "" {
		// ARM answers with the default tier when the body has none, as CCM
		// sends it (azure_loadbalancer.go:987 sets only the name).
		sku["tier"] = "Regional"
	}
	if !oneOf(b.sku, "Basic", "Standard", "Gateway") {
		return badRequest("InvalidLoadBalancerSku", "Load balancer SKU %q of %s is not supported.", b.sku, c.id)
	}
	if err := refuseRetiredSKU(c, b.sku, "load balancers"); err != nil {
		return err
	}
	p := props(c.body)
	var err *armError
	fill := func(prop string) []obj {
		if err != nil {
			return nil
		}
		items, e := c.fillChildren(p, prop)
		err = e
		return items
	}
	b.frontends, b.pools, b.probes = fill("frontendIPConfigurations"), fill("backendAddressPools"), fill("probes")
	b.rules, b.nat, b.out = fill("loadBalancingRules"), fill("inboundNatRules"), fill("outboundRules")
	fill("inboundNatPools")
	if err != nil {
		return err
	}
	b.feIdx, b.poolIdx, b.probeIdx = nameIndex(b.frontends), nameIndex(b.pools), nameIndex(b.probes)
	return nil
}

func (b *lbBody) checkLimits() *armError {
	l := limitsFor(b.sku)
	if len(b.frontends) > l.frontends {
		return badRequest("LoadBalancerFrontendIPConfigurationCountLimitReached",
			"Load balancer %s has %d frontend IP configurations; the limit is %d.", b.c.id, len(b.frontends), l.frontends)
	}
	if n := len(b.rules) + len(b.nat); n > l.rules {
		return badRequest("LoadBalancerRuleCountLimitReached",
			"Load balancer %s has %d rules (load balancing and inbound NAT); the limit is %d.", b.c.id, n, l.rules)
	}
	if len(b.frontends) == 0 && len(b.rules)+len(b.nat)+len(b.out)+len(b.probes) > 0 {
		return badRequest("LoadBalancerWithoutFrontendIPCantHaveChildResources",
			"Load balancer %s does not have Frontend IP Configuration, hence it cannot have Load Balancing Rules, Inbound Nat Rules, Probes, or Outbound rules.", b.c.id)
	}
	return nil
}

// checkPools clears the pools' back-references (rebuilt from the rules),
// applies the pool size limit and validates IP-based members.
func (b *lbBody) checkPools() *armError {
	limit := limitsFor(b.sku).poolSize
	for _, pool := range b.pools {
		pp := props(pool)
		delete(pp, "loadBalancingRules")
		delete(pp, "outboundRules")
		delete(pp, "inboundNatRules")
		if n := len(getArr(pp, "loadBalancerBackendAddresses")); n > limit {
			return badRequest("LoadBalancerBackendAddressPoolSizeLimitReached",
				"Backend address pool %s has %d addresses; the limit is %d.", getStr(pool, "id"), n, limit)
		}
		if err := b.checkPoolMembers(pool); err != nil {
			return err
		}
	}
	return nil
}

func (b *lbBody) checkProbes() *armError {
	for _, pr := range b.probes {
		id, pp := getStr(pr, "id"), props(pr)
		delete(pp, "loadBalancingRules")
		proto := canonical(getStr(pp, "protocol"), "Tcp", "Http", "Https")
		if proto == "" {
			return badRequest("InvalidRequestFormat", "Probe %s: protocol must be Tcp, Http or Https.", id)
		}
		pp["protocol"] = proto
		if port, ok := getInt(pp, "port"); !ok || (port < 1 || port > 65535) && !b.c.e.placeholder(port) {
			return badRequest("InvalidRequestFormat", "Probe %s: port must be between 1 and 65535.", id)
		}
		path := getStr(pp, "requestPath")
		if proto == "Tcp" && path != "" {
			return badRequest("InvalidRequestFormat", "Probe %s: requestPath is not allowed for a Tcp probe.", id)
		}
		if proto != "Tcp" && path == "" {
			return badRequest("InvalidRequestFormat", "Probe %s: requestPath is required for an %s probe.", id, proto)
		}
		if err := intDefault(pp, "intervalInSeconds", 15, 5, 2147483647, id); err != nil {
			return err
		}
		if err := intDefault(pp, "numberOfProbes", 2, 1, 2147483647, id); err != nil {
			return err
		}
		if err := intDefault(pp, "probeThreshold", 1, 1, 2147483647, id); err != nil {
			return err
		}
	}
	return nil
}

// checkNATAndOutbound resolves the frontend and pool references of inbound
// NAT rules and outbound rules.
func (b *lbBody) checkNATAndOutbound() *armError {
	for _, nr := range b.nat {
		id, np := getStr(nr, "id"), props(nr)
		fe := refID(np, "frontendIPConfiguration")
		feObj := b.child(b.feIdx, "frontendIPConfigurations", fe)
		if feObj == nil {
			return invalidReference(fe, id)
		}
		addBackRef(feObj, "inboundNatRules", id)
	}
	for _, or := range b.out {
		id, op := getStr(or, "id"), props(or)
		pool := refID(op, "backendAddressPool")
		poolObj := b.child(b.poolIdx, "backendAddressPools", pool)
		if poolObj == nil {
			return invalidReference(pool, id)
		}
		addBackRef(poolObj, "outboundRules", id)
		fes := getObjs(op, "frontendIPConfigurations")
		if len(fes) == 0 {
			return badRequest("InvalidRequestFormat", "Outbound rule %s needs at least one frontend IP configuration.", id)
		}
		for _, f := range fes {
			feObj := b.child(b.feIdx, "frontendIPConfigurations", getStr(f, "id"))
			if feObj == nil {
				return invalidReference(getStr(f, "id"), id)
			}
			addBackRef(feObj, "outboundRules", id)
		}
	}
	return nil
}

// checkPLSFrontends refuses to drop a frontend that a private link service
// uses. UNVERIFIED code (arm-rules §2.2): InvalidResourceReference.
func (b *lbBody) checkPLSFrontends() *armError {
	for _, ed := range b.c.e.store.inboundFrom(key(b.c.id)) {
		if under(ed.target, b.c.id) && b.child(b.feIdx, "frontendIPConfigurations", ed.target) == nil {
			return invalidReference(ed.target, ed.source)
		}
	}
	return nil
}

// deleteLB refuses while a private link service uses the LB (arm-rules §2.1).
func deleteLB(c *writeCtx) *armError {
	for _, ed := range c.e.store.inboundFrom(key(c.id)) {
		pls, _ := parseAddress(ed.source)
		return badRequest("CannotDeleteLoadBalancerWithPrivateLinkService",
			"Cannot delete load balancer %s since it is referenced by private link service %s. Please delete private link service prior to deleting load balancer.",
			c.a.name(), pls.name())
	}
	return nil
}

func addBackRef(child obj, prop, id string) {
	p := props(child)
	arr, _ := p[prop].([]any)
	p[prop] = append(arr, ref(id))
}

func oneOf(s string, options ...string) bool { return canonical(s, options...) != "" }

// canonical returns the option equal to s ignoring case, or "".
func canonical(s string, options ...string) string {
	for _, o := range options {
		if strings.EqualFold(s, o) {
			return o
		}
	}
	return ""
}

// intDefault sets p[f] to def when absent and checks the range otherwise.
func intDefault(p obj, f string, def, lo, hi int, id string) *armError {
	if _, present := p[f]; !present || p[f] == nil {
		p[f] = def
		return nil
	}
	v, ok := getInt(p, f)
	if !ok || v < lo || v > hi {
		return badRequest("InvalidRequestFormat", "%s: %s must be an integer between %d and %d.", id, f, lo, hi)
	}
	return nil
}
