package desired

import (
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// TestGoneNodeIPs: addresses pools or managed NSG rules hold that are no
// current node's (kubernetes.azure.com/managed=false nodes do not count)
// nor a frontend's; public destinations and unmanaged rules are not
// CCM's to drop.
func TestGoneNodeIPs(t *testing.T) {
	cfg := testConfig(t)
	lb := plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes")
	nsg := plan.NewID("sub", "rg", plan.KindSecurityGroup, "nsg")
	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindBackendPool, "kubernetes"), Properties: map[string]any{
		plan.PoolMembersField: []any{member("n1", "10.0.0.4"), member("gone-1", "10.0.0.9")}}})
	observed.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "ilb"), Properties: map[string]any{"privateIPAddress": "10.0.0.20"}})
	rule := func(name string, priority int, dests ...any) {
		observed.Put(&plan.Resource{ID: plan.ChildID(nsg, plan.KindSecurityRule, name),
			Properties: map[string]any{"priority": priority, "destinationAddressPrefixes": dests}})
	}
	rule("k8s-azure-lb_allow_IPv4_x", 500, "10.0.0.4", "10.0.0.7", "10.0.0.20", "20.1.2.3", "10.0.0.8")
	rule("user-rule", 500, "10.0.0.30")
	rule("k8s-azure-lb_allow_IPv4_low", 200, "10.0.0.31")
	in := service.Decode("n.yaml", []byte(nodeYAML("n1", []string{"10.0.0.4"})+"---\n"+
		nodeYAML("byo", []string{"10.0.0.8"}, "labels: {kubernetes.azure.com/managed: \"false\"}")))
	got := fmt.Sprint(GoneNodeIPs(observed, cfg, &in.Topology))
	if want := "[10.0.0.7 10.0.0.8 10.0.0.9]"; got != want {
		t.Errorf("gone %s, want %s", got, want)
	}
	if GoneNodeIPs(observed, cfg, &service.Decode("none.yaml", nil).Topology) != nil {
		t.Error("without Node input nothing is gone")
	}
}

func member(name, ip string) any {
	return map[string]any{"name": name, "properties": map[string]any{"ipAddress": ip}}
}
