package plantest

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Test fixtures: a small, CCM-shaped world. svc describes one Service; world
// builds the desired state CCM would want for a set of them, and observe
// turns a desired state into what ARM would return once it is applied.

const (
	tSub     = "sub"
	tRG      = "rg"
	tCluster = "kubernetes"
	tNSG     = "aks-agentpool-nsg"
	tSubnet  = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/nodes"
)

type svc struct {
	name     string // namespace/name
	uid      string // 31 hex chars after the "a"
	internal bool
	ports    []int
	pls      bool
	zones    []string // PIP zones
	lb       string   // load balancer base name; default the cluster's
}

func (s svc) prefix() string { return "a" + s.uid }

func (s svc) ref() plan.ServiceRef { return plan.ServiceRef{Name: s.name, Prefix: s.prefix()} }

func uid(n int) string { return fmt.Sprintf("%031x", n+0xabc0000) }

func scopeOf(prune bool, svcs ...svc) plan.Scope {
	sc := plan.Scope{Cluster: tCluster, Prune: prune}
	for _, s := range svcs {
		sc.Services = append(sc.Services, s.ref())
	}
	return sc
}

func lbName(internal bool) string {
	if internal {
		return tCluster + "-internal"
	}
	return tCluster
}

func lbID(internal bool) plan.ID {
	return plan.NewID(tSub, tRG, plan.KindLoadBalancer, lbName(internal))
}
func nsgID() plan.ID { return plan.NewID(tSub, tRG, plan.KindSecurityGroup, tNSG) }

// world builds the desired state for svcs.
func world(svcs ...svc) *plan.State {
	st := plan.NewState()
	st.Put(&plan.Resource{ID: nsgID(), Location: "eastus"})
	rules := map[plan.Key]*plan.Resource{}
	for _, s := range svcs {
		addService(st, rules, s)
	}
	for _, r := range rules {
		st.Put(r)
	}
	return st
}

func addService(st *plan.State, rules map[plan.Key]*plan.Resource, s svc) {
	lb := lbID(s.internal)
	if s.lb != "" {
		lb = plan.NewID(tSub, tRG, plan.KindLoadBalancer, s.lb+strings.TrimPrefix(lbName(s.internal), tCluster))
	}
	if _, ok := st.Get(lb.Key()); !ok {
		st.Put(&plan.Resource{ID: lb, Location: "eastus", SKU: map[string]any{"name": "Standard"}, Services: []string{s.name}})
		st.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindBackendPool, tCluster), Properties: map[string]any{}, Services: []string{s.name}})
	}
	fe := plan.ChildID(lb, plan.KindFrontend, s.prefix())
	var dest any
	feProps := map[string]any{}
	if s.internal {
		feProps["subnet"] = map[string]any{"id": tSubnet}
		feProps["privateIPAllocationMethod"] = "Dynamic"
		feProps["privateIPAddress"] = plan.Unknown
		dest = plan.AfterApply(fe.Key(), "privateIPAddress")
	} else {
		pip := plan.NewID(tSub, tRG, plan.KindPublicIP, tCluster+"-"+s.prefix())
		st.Put(&plan.Resource{ID: pip, Location: "eastus", SKU: map[string]any{"name": "Standard"}, Zones: s.zones,
			Tags:       map[string]string{plan.TagService: s.name, plan.TagClusterName: tCluster},
			Properties: map[string]any{"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4"},
			Services:   []string{s.name}})
		feProps["publicIPAddress"] = plan.Ref(pip)
		dest = plan.AfterApply(pip.Key(), "ipAddress")
	}
	st.Put(&plan.Resource{ID: fe, Properties: feProps, Services: []string{s.name}})
	var ports []any
	for _, p := range s.ports {
		name := fmt.Sprintf("%s-TCP-%d", s.prefix(), p)
		probe := plan.ChildID(lb, plan.KindProbe, name)
		st.Put(&plan.Resource{ID: probe, Services: []string{s.name}, Properties: map[string]any{
			"protocol": "Tcp", "port": 30000 + p, "intervalInSeconds": 5, "numberOfProbes": 2}})
		st.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindRule, name), Services: []string{s.name}, Properties: map[string]any{
			"protocol": "Tcp", "frontendPort": p, "backendPort": p, "enableFloatingIP": true,
			"idleTimeoutInMinutes": 4, "enableTcpReset": true, "loadDistribution": "Default", "disableOutboundSnat": false,
			"frontendIPConfiguration": plan.Ref(fe), "probe": plan.Ref(probe),
			"backendAddressPool": plan.Ref(plan.ChildID(lb, plan.KindBackendPool, tCluster))}})
		ports = append(ports, fmt.Sprint(p))
	}
	if !s.internal {
		name := "k8s-azure-lb_allow_IPv4_" + strings.Join(anyStrings(ports), "_")
		rk := plan.ChildID(nsgID(), plan.KindSecurityRule, name)
		r := rules[rk.Key()]
		if r == nil {
			r = &plan.Resource{ID: rk, Properties: map[string]any{
				"protocol": "Tcp", "access": "Allow", "direction": "Inbound", "sourceAddressPrefix": "Internet",
				"sourcePortRange": "*", "destinationPortRanges": ports, plan.DestinationField: []any{}}}
			rules[rk.Key()] = r
		}
		r.Properties[plan.DestinationField] = append(r.Properties[plan.DestinationField].([]any), dest)
		r.AddService(s.name)
	}
	if s.pls {
		st.Put(&plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPrivateLinkService, "pls-"+s.prefix()), Location: "eastus",
			Tags:     map[string]string{plan.TagClusterName: tCluster, plan.TagOwnerService: s.name},
			Services: []string{s.name},
			Properties: map[string]any{
				"loadBalancerFrontendIpConfigurations": []any{plan.Ref(fe)},
				"ipConfigurations": []any{map[string]any{"name": "nodes-pls-dynamic-0", "properties": map[string]any{
					"subnet": map[string]any{"id": tSubnet}, "privateIPAllocationMethod": "Dynamic", "primary": true}}},
			}})
	}
}

func anyStrings(l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// observe returns what ARM would hold after applying desired: addresses
// assigned, markers resolved, priorities given, etags set, and fields Azure
// fills added. n seeds the addresses.
func observe(desired *plan.State) *plan.State {
	out := plan.NewState()
	ips := map[plan.Key]string{}
	n := 0
	for _, r := range desired.Resources() {
		o := r.Clone()
		o.Etag = fmt.Sprintf("W/\"%s\"", r.Name())
		o.Services, o.Owned = nil, false
		if o.Properties == nil {
			o.Properties = map[string]any{}
		}
		switch r.Kind() {
		case plan.KindPublicIP:
			n++
			o.Properties["ipAddress"] = fmt.Sprintf("20.0.%d.%d", n/250, n%250+1)
			o.Properties["idleTimeoutInMinutes"] = 4
			o.Properties["ipTags"] = []any{}
			o.SKU["tier"] = "Regional"
			ips[r.Key()] = o.Properties["ipAddress"].(string)
		case plan.KindFrontend:
			if _, ok := r.Properties["subnet"]; ok {
				n++
				// above the four addresses Azure reserves at the start of a subnet
				o.Properties["privateIPAddress"] = fmt.Sprintf("10.0.%d.%d", n/250, n%250+4)
				ips[r.Key()] = o.Properties["privateIPAddress"].(string)
			}
			o.Properties["privateIPAddressVersion"] = "IPv4"
		case plan.KindProbe:
			o.Properties["protocol"] = "TCP" // case differs from desired; ARM compares case-insensitively
			o.Properties["probeThreshold"] = 1.0
		}
		out.Put(o)
	}
	prio := 500
	for _, r := range out.OfKind(plan.KindSecurityRule) {
		var dests []any
		for _, d := range plan.AsSecurityRule(r).Destinations() {
			if src, _, ok := plan.UnknownSource(d); ok {
				d = ips[src]
			}
			dests = append(dests, d)
		}
		plan.SetDestinations(r.Properties, dests)
		r.Properties["priority"] = float64(prio)
		r.Properties["sourceAddressPrefixes"] = []any{}
		prio++
	}
	return out
}

func mustDiff(t interface {
	Helper()
	Fatalf(string, ...any)
}, desired, observed *plan.State, scope plan.Scope) *plan.Plan {
	t.Helper()
	p, err := diffOf(desired, observed, scope)
	if err != nil {
		t.Fatalf("Diff: %v", err)
	}
	return p
}

// stepLines renders steps one per line, "op address [change actions]", for
// comparisons in tests.
func stepLines(p *plan.Plan) []string {
	var out []string
	for _, st := range p.Steps {
		var cs []string
		for _, c := range st.Changes {
			cs = append(cs, fmt.Sprintf("%s:%s", strings.Join(actionStrings(c.Actions), "+"), c.ID().Address()))
		}
		out = append(out, fmt.Sprintf("%s %s [%s]", st.Op, st.Target.Address(), strings.Join(cs, " ")))
	}
	return out
}

func actionStrings(as []plan.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = string(a)
	}
	return out
}

// diffOf plans desired against observed as azsvc does.
func diffOf(desired, observed *plan.State, scope plan.Scope) (*plan.Plan, error) {
	p, _, err := Plan(desired, withNodeSubnet(observed), scope)
	return p, err
}

// withNodeSubnet adds the cluster's node subnet (tSubnet), where internal
// frontends and the fixtures' PLS NAT IPs go (policies disabled), to
// observed unless it holds it: every cluster has it, and
// a frontend in a missing subnet fails its Service (missing_refs_test.go).
func withNodeSubnet(observed *plan.State) *plan.State {
	id, err := plan.ParseID(tSubnet)
	if err != nil {
		panic(err)
	}
	if _, ok := observed.Get(id.Key()); !ok {
		observed.Put(&plan.Resource{ID: id, Properties: map[string]any{"addressPrefix": "10.0.0.0/16", "privateLinkServiceNetworkPolicies": "Disabled"}})
	}
	return observed
}
