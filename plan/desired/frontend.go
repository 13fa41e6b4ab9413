package desired

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// frontendChoice is the frontend a Service wants for one family, before it
// is placed: either a new one or one another Service already created.
type frontendChoice struct {
	key    string // sharing key: Services with the same key share one frontend
	id     plan.ID
	family family
	props  map[string]any
	zones  []string
	pip    *plan.Resource // a managed PIP to create, else nil
	pipKey plan.Key       // the PIP referenced by ID (managed or by name)
	pinned string         // address known up front (BYO by address, static ILB IP)
}

type frontendEntry struct {
	res   *plan.Resource
	ports map[string]string // "<protocol>/<frontend port>" -> Service
}

// chooseFrontend decides a Service's frontend for family f (§3, §6): an
// external one references a PIP (by name, by pinned address, or a managed
// one), an internal one a subnet with a static or dynamic private IP.
// Services pinning the same PIP or private IP share one frontend, named by
// the first of them (§2.4 secondary FIPs).
func (b *builder) chooseFrontend(info *svcInfo, lbID plan.ID, lbKey plan.Key, f family) frontendChoice {
	name := FrontendName(info.prefix, info.subnet, info.dualStack, info.isV6(f))
	c := frontendChoice{family: f, id: plan.ChildID(lbID, plan.KindFrontend, name)}
	pinned := info.pinned.of(f)
	switch {
	case info.internal:
		c.props = map[string]any{
			"subnet":                  map[string]any{"id": b.subnetID(orDefault(info.subnet, b.cfg.SubnetName))},
			"privateIPAddressVersion": string(f),
		}
		if pinned != "" {
			c.key, c.pinned = "ip:"+pinned, pinned
			c.props["privateIPAllocationMethod"], c.props["privateIPAddress"] = "Static", pinned
		} else {
			c.key = "svc:" + info.key + "/" + string(f)
			c.props["privateIPAllocationMethod"], c.props["privateIPAddress"] = "Dynamic", plan.Unknown
		}
		c.zones = b.zones()
	case info.pipName.of(f) != "":
		id := plan.NewID(b.sub, info.pipRG, plan.KindPublicIP, info.pipName.of(f))
		c.key, c.pipKey = "pip:"+string(id.Key()), id.Key()
		c.props = map[string]any{"publicIPAddress": plan.Ref(id)}
	case pinned != "":
		c.key, c.pinned = "addr:"+strings.ToLower(info.pipRG)+"/"+pinned, pinned
		c.props = map[string]any{"publicIPAddress": map[string]any{
			"id": plan.PublicIPByAddress(plan.PublicIPCollection(b.sub, info.pipRG), pinned)}}
	default:
		c.pip = b.managedPIP(info, f)
		c.key, c.pipKey = "pip:"+string(c.pip.Key()), c.pip.Key()
		c.props = map[string]any{"publicIPAddress": plan.Ref(c.pip.ID)}
	}
	c.key = string(lbKey) + "|" + c.key
	if e, ok := b.frontends[c.key]; ok {
		c.id = e.res.ID
	}
	return c
}

// dest is the NSG destination this frontend contributes (§5.2): with
// floating IP disabled, the node IPs of the Service's backend pool.
func (c frontendChoice) dest(floatingOff bool, pool plan.Key) dest {
	switch {
	case floatingOff:
		return dest{nodes: true, source: pool}
	case c.pinned != "":
		return dest{known: c.pinned}
	case c.pipKey != "":
		return dest{source: c.pipKey, field: "ipAddress"}
	}
	return dest{source: c.id.Key(), field: "privateIPAddress"}
}

// checkConflicts is checkLoadBalancerResourcesConflicts (§3): on a shared
// frontend no two Services may use the same protocol and frontend port.
func (b *builder) checkConflicts(info *svcInfo, c frontendChoice, rules []*plan.Resource) bool {
	e, ok := b.frontends[c.key]
	if !ok {
		return true
	}
	for _, r := range rules {
		if r.Kind() != plan.KindRule {
			continue
		}
		k := portKey(r)
		if owner, used := e.ports[k]; used && owner != info.key {
			rf := &refusal{svc: info.svc}
			rf.add(CodePortConflict, "spec.ports", "use another port, or stop sharing the IP",
				"frontend %s is shared with service %s, which already uses %s", e.res.Name(), owner, k)
			b.diags = append(b.diags, rf.diags...)
			return false
		}
	}
	return true
}

func portKey(rule *plan.Resource) string {
	return rule.Properties["protocol"].(string) + "/" + itoa(rule.Properties["frontendPort"].(int))
}

// placeFrontend creates or joins the chosen frontend and its managed PIP.
func (b *builder) placeFrontend(info *svcInfo, c frontendChoice, rules []*plan.Resource) *plan.Resource {
	e, ok := b.frontends[c.key]
	if !ok {
		res := &plan.Resource{ID: c.id, Zones: c.zones, Properties: c.props, Owned: true}
		e = &frontendEntry{res: res, ports: map[string]string{}}
		b.frontends[c.key] = e
		b.state.Put(res)
	}
	e.res.AddService(info.key)
	for _, r := range rules {
		if r.Kind() == plan.KindRule {
			e.ports[portKey(r)] = info.key
		}
	}
	if c.pip != nil {
		b.state.Put(c.pip)
	}
	if pip, ok := b.state.Get(c.pipKey); ok && c.pip == nil {
		bindPIP(pip, info.key) // azure-pip-name naming another Service's managed PIP
	}
	return e.res
}

// subnetID is the ID of a subnet of the cluster's virtual network.
func (b *builder) subnetID(subnet string) string {
	vnet := plan.NewID(b.sub, b.cfg.VnetRG(), plan.KindVirtualNetwork, b.cfg.VnetName)
	return plan.ChildID(vnet, plan.KindSubnet, subnet).String()
}

// zones are the region's zones for new standard frontends and PIPs, none at
// an edge zone (§6 Zones, getFrontendZones).
func (b *builder) zones() []string {
	if !b.cfg.Standard() || b.cfg.ExtendedLocationName != "" {
		return nil
	}
	return RegionZones(b.cfg.Location)
}

// PublicIPCollection is the key of a resource group's publicIPAddresses
// collection: where a PIP known only by address is looked up. The
// convention is plan's (plan.PublicIPByAddress).
func PublicIPCollection(sub, rg string) plan.Key { return plan.PublicIPCollection(sub, rg) }

// ByAddress reports whether v is the reference to a PIP known only by
// address, and returns the collection to search and the address.
func ByAddress(v any) (collection plan.Key, address string, ok bool) {
	return plan.ParsePublicIPByAddress(v)
}
