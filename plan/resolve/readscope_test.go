package resolve

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// The read scope is a function of the inputs: the configuration's groups,
// and every group the desired state places or finds a resource in.
func TestReadScope(t *testing.T) {
	lb := plan.NewID("sub", "MC_rg", plan.KindLoadBalancer, "kubernetes")
	pip := plan.NewID("sub", "PipRG", plan.KindPublicIP, "kubernetes-a1")
	userPIP := plan.NewID("sub", "ByoRG", plan.KindPublicIP, "byo")
	subnet := plan.ID{Subscription: "sub", ResourceGroup: "MC_rg", Kind: plan.KindSubnet, Names: []string{"aks-vnet", "PlsSubnet"}}
	desired := plan.NewState()
	desired.Put(&plan.Resource{ID: lb})
	desired.Put(&plan.Resource{ID: pip})
	desired.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "a1"), Properties: map[string]any{"publicIPAddress": plan.Ref(pip)}})
	desired.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "a2"), Properties: map[string]any{"publicIPAddress": plan.Ref(userPIP)}})
	desired.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "a3"), Properties: map[string]any{
		"publicIPAddress": map[string]any{"id": plan.PublicIPByAddress(plan.PublicIPCollection("sub", "AddrRG"), "20.1.1.1")}}})
	desired.Put(&plan.Resource{ID: plan.NewID("sub", "PlsRG", plan.KindPrivateLinkService, "pls-a1"), Properties: map[string]any{
		"ipConfigurations": []any{map[string]any{"properties": map[string]any{"subnet": plan.Ref(subnet)}}}}})
	scope := plan.Scope{Placement: plan.Placement{LoadBalancers: "MC_rg", PublicIPs: "mc_RG", SecurityGroups: "MC_rg",
		PrivateLinks: "MC_rg", Endpoints: "MC_rg", DNSZones: "MC_rg", VNet: plan.VNetRef{ResourceGroup: "MC_rg", Name: "aks-vnet"}}}

	got := ReadScope(desired, scope)
	want := map[plan.Kind][]string{
		plan.KindLoadBalancer:       {"MC_rg"},
		plan.KindPublicIP:           {"mc_RG", "PipRG", "ByoRG", "addrrg"},
		plan.KindSecurityGroup:      {"MC_rg"},
		plan.KindPrivateLinkService: {"MC_rg", "PlsRG"},
		plan.KindPrivateEndpoint:    {"MC_rg"},
		plan.KindPrivateDNSZone:     {"MC_rg"},
	}
	// Groups carry their subscription; the configuration's have none (the
	// target's), so they count once with the desired state's.
	names := map[plan.Kind][]string{}
	for k := range got.Groups {
		for _, g := range got.GroupsOf(k, "sub") {
			if g.Subscription != "sub" {
				t.Errorf("group %+v of %s is not in the cluster's subscription", g, k)
			}
			names[k] = append(names[k], g.Name)
		}
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("groups = %v\nwant     %v", names, want)
	}
	if v := got.VNetsIn("sub"); len(v) != 1 || v[0].Name != "aks-vnet" {
		t.Errorf("vnets = %v, want the cluster VNet once", v)
	}
	if len(got.Subnets) != 1 || got.Subnets[0].Name() != "PlsSubnet" {
		t.Errorf("subnets = %v, want the PLS subnet as written", got.Subnets)
	}
	var all []string
	for _, g := range got.AllGroups("sub") {
		all = append(all, g.Name)
	}
	if !reflect.DeepEqual(all, []string{"MC_rg", "PipRG", "ByoRG", "addrrg", "PlsRG"}) {
		t.Errorf("all groups = %v", all)
	}
}
