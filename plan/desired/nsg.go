package desired

import (
	"maps"
	"slices"
	"sort"
	"strconv"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
)

// dest is one NSG destination: an address known now, the value of another
// resource's field after apply, or the node IPs of a backend pool (floating
// IP off; source is the pool).
type dest struct {
	known  string
	source plan.Key
	field  string
	nodes  bool
}

// destSet is the de-duplicated destinations of one family.
type destSet struct {
	known map[string]bool
	after map[string]dest   // by source#field
	nodes map[plan.Key]bool // backend pools whose node IPs are destinations
}

// The maps of a destSet are made on first write: most sets hold one kind
// of destination, and 10,000 Services make tens of thousands of sets.
func (d *destSet) with(x dest) *destSet {
	if d == nil {
		d = &destSet{}
	}
	switch {
	case x.nodes:
		d.addNode(x.source)
	case x.known != "":
		d.addKnown(x.known)
	default:
		d.addAfter(string(x.source)+"#"+x.field, x)
	}
	return d
}

func (d *destSet) addNode(k plan.Key) {
	if d.nodes == nil {
		d.nodes = map[plan.Key]bool{}
	}
	d.nodes[k] = true
}

func (d *destSet) addKnown(addr string) {
	if d.known == nil {
		d.known = map[string]bool{}
	}
	d.known[addr] = true
}

func (d *destSet) addAfter(k string, x dest) {
	if d.after == nil {
		d.after = map[string]dest{}
	}
	d.after[k] = x
}

func (d *destSet) merge(o *destSet) *destSet {
	if o == nil {
		return d
	}
	if d == nil {
		d = &destSet{}
	}
	for k := range o.nodes {
		d.addNode(k)
	}
	for k := range o.known {
		d.addKnown(k)
	}
	for k, v := range o.after {
		d.addAfter(k, v)
	}
	return d
}

func (d *destSet) empty() bool {
	return d == nil || (len(d.nodes) == 0 && len(d.known) == 0 && len(d.after) == 0)
}

// setOn writes the destinations onto rule properties: one value as
// destinationAddressPrefix, several as destinationAddressPrefixes, known
// addresses string-sorted first, then markers by source (§5.3). The node
// IPs of a pool are its members' addresses when poolIPs knows them (the
// input has Nodes); otherwise a list known only from ARM: alone, they are
// the whole destinationAddressPrefixes; with other destinations, one
// element of it that the planner expands. It reports whether the rule has
// any destination.
func (d *destSet) setOn(props map[string]any, poolIPs map[plan.Key][]string) bool {
	var pools []plan.Key
	for p := range d.nodes {
		ips, known := poolIPs[p]
		if !known {
			pools = append(pools, p)
			continue
		}
		for _, ip := range ips {
			d.addKnown(ip)
		}
	}
	slices.Sort(pools)
	if len(pools) == 1 && len(d.known) == 0 && len(d.after) == 0 {
		props["destinationAddressPrefixes"] = plan.BackendNodeIPs(pools[0])
		return true
	}
	known := slices.Sorted(maps.Keys(d.known))
	keys := slices.Sorted(maps.Keys(d.after))
	vals := make([]any, 0, len(known)+len(keys)+len(pools))
	for _, k := range known {
		vals = append(vals, k)
	}
	for _, k := range keys {
		vals = append(vals, plan.AfterApply(d.after[k].source, d.after[k].field))
	}
	for _, p := range pools {
		vals = append(vals, plan.BackendNodeIPs(p))
	}
	switch len(vals) {
	case 0:
		// The pools hold no node: CCM drops a rule left without
		// destinations (§5.5 step 4); finish leaves it out.
		return false
	case 1:
		props["destinationAddressPrefix"] = vals[0]
	default:
		props["destinationAddressPrefixes"] = vals
	}
	return true
}

// nsgRule accumulates one security rule shared by every Service with the
// same protocol, sources and destination ports (§5.3).
type nsgRule struct {
	res   *plan.Resource
	dests *destSet
}

// nsgRules accumulates the cluster NSG's rules, by name, as Services are
// placed.
type nsgRules struct {
	id       plan.ID
	location string
	tags     map[string]string
	byName   map[string]*nsgRule
	order    []*nsgRule // as CCM builds them: Service by Service, then protocol, family, source
}

func newNSGRules(cfg *cluster.Config, sub string, tags map[string]string) *nsgRules {
	return &nsgRules{id: plan.NewID(sub, cfg.NSGResourceGroup(), plan.KindSecurityGroup, cfg.SecurityGroupName),
		location: cfg.Location, tags: tags, byName: map[string]*nsgRule{}}
}

// add adds a Service's allow and deny-all rules (§5.2-§5.3), unless
// azure-disable-load-balancer-nsg-rule is set.
func (b *nsgRules) add(info *svcInfo, dests map[family]*destSet) {
	a := info.access
	if a.disabled {
		return
	}
	for _, proto := range plan.Protocols() {
		ports := nsgPorts(info, proto.Kubernetes)
		if len(ports) == 0 {
			continue
		}
		for _, f := range []family{ipv4, ipv6} {
			if dests[f].empty() {
				continue
			}
			for _, tag := range a.tags {
				b.allowRule(info, proto.NSG, f, []string{tag}, ports, dests[f])
			}
			if ranges := a.rangesOf(f); len(ranges) > 0 {
				b.allowRule(info, proto.NSG, f, ranges, ports, dests[f])
			}
		}
	}
	if !a.denyAll {
		return
	}
	for _, f := range []family{ipv4, ipv6} {
		if dests[f].empty() {
			continue
		}
		b.rule(info, NSGDenyAllRuleName(string(f)), dests[f], func() map[string]any {
			return map[string]any{
				"protocol": "*", "access": "Deny", "direction": "Inbound",
				"sourceAddressPrefix": "*", "sourcePortRange": "*", "destinationPortRange": "*",
			}
		})
	}
}

// nsgPorts are the destination ports of one protocol: the Service ports, or
// nodePorts with floating IP disabled; no_lb_rule ports included
// (SecurityRuleDestinationPortsByProtocol).
func nsgPorts(info *svcInfo, k8sProto string) []string {
	var out []string
	for _, p := range info.svc.Spec.Ports {
		if protoOf(p) != k8sProto {
			continue
		}
		n := p.Port
		if info.floatingOff {
			n = p.NodePort
		}
		out = append(out, strconv.Itoa(int(n)))
	}
	sort.Strings(out)
	return out
}

func (b *nsgRules) allowRule(info *svcInfo, proto string, f family, sources, ports []string, dests *destSet) {
	name := NSGAllowRuleName(proto, string(f), sources, ports)
	portValues := make([]any, len(ports))
	for i, p := range ports {
		portValues[i] = info.portListValue(p)
	}
	if plan.HasServerValue(portValues) {
		// The name hashes the ports: with one unknown, so is the name.
		name = plan.UnknownHashName(name)
	}
	b.rule(info, name, dests, func() map[string]any {
		props := map[string]any{
			"protocol": proto, "access": "Allow", "direction": "Inbound", "sourcePortRange": "*",
			"destinationPortRanges": portValues,
		}
		if len(sources) == 1 {
			props["sourceAddressPrefix"] = sources[0]
		} else {
			props["sourceAddressPrefixes"] = toAny(sources)
		}
		return props
	})
}

func (b *nsgRules) rule(info *svcInfo, name string, dests *destSet, props func() map[string]any) {
	r, ok := b.byName[name]
	if !ok {
		id := plan.ChildID(b.id, plan.KindSecurityRule, name)
		r = &nsgRule{res: &plan.Resource{ID: id, Properties: props(), Owned: true}}
		b.byName[name] = r
		b.order = append(b.order, r)
	}
	r.res.AddService(info.key)
	r.dests = r.dests.merge(dests)
}

// finish writes the merged destinations and puts the rules and the NSG
// (which CCM never creates, but whose config tags it keeps) into state.
// Each rule gets the priority CCM would give it in an empty NSG, in the
// order CCM builds the rules (§5.4): allow rules from 500 up, deny rules
// from 4095 down. Against an NSG that holds rules already, the planner
// allocates again, in the same order (plan/resolve).
func (b *nsgRules) finish(state *plan.State, poolIPs map[plan.Key][]string) {
	if len(b.byName) == 0 {
		return
	}
	nsg := &plan.Resource{ID: b.id, Location: b.location, Tags: b.tags, Properties: map[string]any{}, Owned: true}
	allow, deny := plan.ManagedPriorityMin, plan.ManagedPriorityMax-1
	for _, r := range b.order {
		if !r.dests.setOn(r.res.Properties, poolIPs) {
			continue
		}
		if plan.AsSecurityRule(r.res).Deny() {
			r.res.Properties["priority"], deny = deny, deny-1
		} else {
			r.res.Properties["priority"], allow = allow, allow+1
		}
		for _, s := range r.res.Services {
			nsg.AddService(s)
		}
		state.Put(r.res)
	}
	if len(nsg.Services) > 0 {
		state.Put(nsg)
	}
}
