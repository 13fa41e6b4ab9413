package exposure

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

var (
	pubLB = plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes")
	intLB = plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes-internal")
	nsg   = plan.NewID("sub", "rg", plan.KindSecurityGroup, "aks-agentpool-nsg")
	pip   = plan.NewID("sub", "rg", plan.KindPublicIP, "kubernetes-a1")
)

func res(id plan.ID, services []string, props map[string]any) *plan.Resource {
	return &plan.Resource{ID: id, Services: services, Properties: props}
}

func create(r *plan.Resource) *plan.Change {
	return &plan.Change{Actions: []plan.Action{plan.ActionCreate}, After: r, Services: r.Services}
}

func del(r *plan.Resource) *plan.Change {
	return &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Before: r, Services: r.Services}
}

func update(b, a *plan.Resource) *plan.Change {
	return &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Before: b, After: a, Services: a.Services}
}

func frontend(lb plan.ID, name string, public bool, svcs ...string) *plan.Resource {
	props := map[string]any{"subnet": plan.Ref(plan.ID{Subscription: "sub", ResourceGroup: "rg", Kind: plan.KindSubnet, Names: []string{"vnet", "nodes"}})}
	if public {
		props = map[string]any{"publicIPAddress": plan.Ref(pip)}
	}
	return res(plan.ChildID(lb, plan.KindFrontend, name), svcs, props)
}

func lbRule(lb plan.ID, name string, port int, svcs ...string) *plan.Resource {
	return res(plan.ChildID(lb, plan.KindRule, name), svcs, map[string]any{"protocol": "Tcp", "frontendPort": port,
		"frontendIPConfiguration": plan.Ref(plan.ChildID(lb, plan.KindFrontend, "a1"))})
}

func nsgRule(name string, sources, ports []string, dests []any, svcs ...string) *plan.Resource {
	var src, dst []any
	for _, s := range sources {
		src = append(src, s)
	}
	for _, p := range ports {
		dst = append(dst, p)
	}
	return res(plan.ChildID(nsg, plan.KindSecurityRule, name), svcs, map[string]any{"access": "Allow", "direction": "Inbound",
		"protocol": "Tcp", "sourceAddressPrefixes": src, "destinationPortRanges": dst, "destinationAddressPrefixes": dests})
}

// ip1 and ip2 are the public addresses of web and api.
var ip1, ip2 = []any{"20.0.0.1"}, []any{"20.0.0.2"}

func TestOf(t *testing.T) {
	const web, api = "shop/web", "shop/api"
	tests := []struct {
		name    string
		changes []*plan.Change
		want    []Exposure
	}{{
		name: "internal to public",
		changes: []*plan.Change{
			create(frontend(pubLB, "a1", true, web)), create(lbRule(pubLB, "a1-TCP-443", 443, web)),
			create(nsgRule("k8s-azure-lb_allow_IPv4_1", []string{"Internet"}, []string{"443"}, []any{plan.AfterApply(pip.Key(), "ipAddress")})),
			create(res(pip, []string{web}, map[string]any{})),
			del(lbRule(intLB, "a1-TCP-443", 443, web)), del(frontend(intLB, "a1", false, web)),
		},
		want: []Exposure{{Service: web, Direction: Wider, From: ReachInternal, To: ReachPublic, Opened: []string{"tcp/443"}, Closed: []string{},
			Sources:     []Sources{{Ports: []string{"tcp/443"}, Before: []string{}, After: []string{"Internet"}, Direction: Wider}},
			PrivateLink: []PrivateLink{},
			Changes: []string{"lb/kubernetes/frontend/a1", "lb/kubernetes/rule/a1-TCP-443", "nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_1",
				"lb/kubernetes-internal/frontend/a1"}}},
	}, {
		name: "source range widened",
		changes: []*plan.Change{
			del(nsgRule("k8s-azure-lb_allow_IPv4_1", []string{"198.51.100.16/28", "203.0.113.0/24"}, []string{"443"}, ip1, web)),
			create(nsgRule("k8s-azure-lb_allow_IPv4_2", []string{"0.0.0.0/0"}, []string{"443"}, ip1, web)),
		},
		want: []Exposure{{Service: web, Direction: Wider, Opened: []string{}, Closed: []string{},
			Sources: []Sources{{Ports: []string{"tcp/443"}, Before: []string{"198.51.100.16/28", "203.0.113.0/24"}, After: []string{"0.0.0.0/0"},
				Direction: Wider}},
			PrivateLink: []PrivateLink{},
			Changes:     []string{"nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_1", "nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_2"}}},
	}, {
		name: "source range narrowed to a part",
		changes: []*plan.Change{
			update(nsgRule("r", []string{"10.0.0.0/8"}, []string{"443"}, ip1), nsgRule("r", []string{"10.1.0.0/16"}, []string{"443"}, ip1, web)),
		},
		want: []Exposure{{Service: web, Direction: Narrower, Opened: []string{}, Closed: []string{},
			Sources:     []Sources{{Ports: []string{"tcp/443"}, Before: []string{"10.0.0.0/8"}, After: []string{"10.1.0.0/16"}, Direction: Narrower}},
			PrivateLink: []PrivateLink{}, Changes: []string{"nsg/aks-agentpool-nsg/rule/r"}}},
	}, {
		name: "ranges merged: the same addresses",
		changes: []*plan.Change{
			update(nsgRule("r", []string{"10.0.0.0/24", "10.0.1.0/24"}, []string{"443"}, ip1), nsgRule("r", []string{"10.0.0.0/23"}, []string{"443"}, ip1, web)),
		},
	}, {
		// web's source range changes to api's: it leaves its rule for
		// api's, which the plan rewrites with both addresses; the rules
		// read say nothing of whose addresses they hold.
		name: "a Service joins a shared rule, the other keeps it",
		changes: []*plan.Change{
			update(nsgRule("r1", []string{"Internet"}, []string{"80"}, ip2), nsgRule("r1", []string{"Internet"}, []string{"80"}, append(ip1, ip2...), api, web)),
			del(nsgRule("r2", []string{"10.0.0.0/8"}, []string{"80"}, ip1, web)),
		},
		want: []Exposure{{Service: web, Direction: Wider, Opened: []string{}, Closed: []string{},
			Sources:     []Sources{{Ports: []string{"tcp/80"}, Before: []string{"10.0.0.0/8"}, After: []string{"Internet"}, Direction: Wider}},
			PrivateLink: []PrivateLink{}, Changes: []string{"nsg/aks-agentpool-nsg/rule/r1", "nsg/aks-agentpool-nsg/rule/r2"}}},
	}, {
		name: "a public port opened, another closed",
		changes: []*plan.Change{
			create(lbRule(pubLB, "a1-TCP-8443", 8443, web)), del(lbRule(pubLB, "a1-TCP-80", 80, web)),
			del(lbRule(intLB, "a2-TCP-80", 80, api)), // internal: no public port
		},
		want: []Exposure{{Service: web, Direction: Changed, Opened: []string{"tcp/8443"}, Closed: []string{"tcp/80"}, Sources: []Sources{},
			PrivateLink: []PrivateLink{}, Changes: []string{"lb/kubernetes/rule/a1-TCP-8443", "lb/kubernetes/rule/a1-TCP-80"}}},
	}, {
		name:    "pruned public Service known by its prefix",
		changes: []*plan.Change{del(frontend(pubLB, "a1b2c3d4e5f60718293a4b5c6d7e8f90", true)), del(lbRule(pubLB, "a1b2c3d4e5f60718293a4b5c6d7e8f90-TCP-80", 80))},
		want: []Exposure{{Prefix: "a1b2c3d4e5f60718293a4b5c6d7e8f90", Direction: Narrower, From: ReachPublic, To: ReachNone, Opened: []string{},
			Closed: []string{"tcp/80"}, Sources: []Sources{}, PrivateLink: []PrivateLink{},
			Changes: []string{"lb/kubernetes/frontend/a1b2c3d4e5f60718293a4b5c6d7e8f90", "lb/kubernetes/rule/a1b2c3d4e5f60718293a4b5c6d7e8f90-TCP-80"}}},
	}, {
		name: "private link service visible to everyone",
		changes: []*plan.Change{update(
			res(plan.NewID("sub", "rg", plan.KindPrivateLinkService, "pls-web"), []string{web}, map[string]any{
				"visibility": map[string]any{"subscriptions": []any{"s1"}}, "autoApproval": map[string]any{"subscriptions": []any{}}}),
			res(plan.NewID("sub", "rg", plan.KindPrivateLinkService, "pls-web"), []string{web}, map[string]any{
				"visibility": map[string]any{"subscriptions": []any{"*"}}, "autoApproval": map[string]any{"subscriptions": []any{"s1"}}}))},
		want: []Exposure{{Service: web, Direction: Wider, Opened: []string{}, Closed: []string{}, Sources: []Sources{},
			PrivateLink: []PrivateLink{{Address: "pls/pls-web", Direction: Wider,
				Visibility: Subscriptions{Added: []string{"*"}, Removed: []string{"s1"}}, AutoApproval: Subscriptions{Added: []string{"s1"}, Removed: []string{}}}},
			Changes: []string{"pls/pls-web"}}},
	}, {
		name: "nothing about reach",
		changes: []*plan.Change{update(lbRule(pubLB, "a1-TCP-80", 80, web), func() *plan.Resource {
			r := lbRule(pubLB, "a1-TCP-80", 80, web)
			r.Properties["idleTimeoutInMinutes"] = 30
			return r
		}())},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Of(&plan.Plan{Changes: tt.changes})
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
