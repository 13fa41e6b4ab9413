package planview

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// The core records facts; these tests pin the sentences renderers make of
// them (ux-anchors §8.2 item 6 for impacts).
func TestImpactWording(t *testing.T) {
	pip := plan.NewID(sub, rg, plan.KindPublicIP, "kubernetes-a1")
	old := plan.NewID(sub, rg, plan.KindPublicIP, "kubernetes-a1-old")
	fe := plan.ChildID(lb(), plan.KindFrontend, "a1")
	probe := plan.ChildID(lb(), plan.KindProbe, "a1-TCP-80")
	pls := plan.NewID(sub, rg, plan.KindPrivateLinkService, "pls-a1")
	pipRes := &plan.Resource{ID: pip, Properties: map[string]any{"ipAddress": "20.0.0.3"}}
	tests := []struct {
		name   string
		change *plan.Change
		want   []string
	}{
		{"public IP released", &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Before: pipRes, Disruptive: true},
			[]string{"public IP 20.0.0.3 will be released, so DNS pointing at it breaks"}},
		{"public IP replaced", &plan.Change{Actions: []plan.Action{plan.ActionDelete, plan.ActionCreate}, Before: pipRes, After: pipRes, Disruptive: true},
			[]string{"public IP 20.0.0.3 will be replaced by a new address, so DNS pointing at it breaks"}},
		{"frontend moves to another public IP", &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Disruptive: true,
			Before:     &plan.Resource{ID: fe, Properties: map[string]any{"publicIPAddress": plan.Ref(old)}},
			After:      &plan.Resource{ID: fe, Properties: map[string]any{"publicIPAddress": plan.Ref(pip)}},
			Attributes: []plan.AttributeChange{{Path: []string{"properties", "publicIPAddress", "id"}, Before: old.String(), After: pip.String()}}},
			[]string{"frontend a1 IP changes from pip/kubernetes-a1-old to pip/kubernetes-a1"}},
		{"probe protocol", &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Disruptive: true,
			Before:     &plan.Resource{ID: probe, Properties: map[string]any{"protocol": "Tcp"}},
			After:      &plan.Resource{ID: probe, Properties: map[string]any{"protocol": "Http", "requestPath": "/healthz"}},
			Attributes: []plan.AttributeChange{{Path: []string{"properties", "protocol"}, Before: "Tcp", After: "Http"}}},
			[]string{"health probe moves from Tcp to Http /healthz, so backends that do not answer it go unhealthy"}},
		{"PLS with connections", &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Disruptive: true,
			Before: &plan.Resource{ID: pls, Properties: map[string]any{"privateEndpointConnections": []any{map[string]any{"name": "c1"}, map[string]any{"name": "c2"}}}}},
			[]string{"private link service pls-a1 is deleted: 2 private endpoint connections will be dropped"}},
		{"cascade replace", &plan.Change{Actions: []plan.Action{plan.ActionDelete, plan.ActionCreate}, Disruptive: true, Cause: pip.Key(),
			Before: &plan.Resource{ID: fe, Properties: map[string]any{"publicIPAddress": plan.Ref(pip)}}, After: &plan.Resource{ID: fe}},
			[]string{"frontend a1 (public IP pip/kubernetes-a1) is re-created, so traffic to it stops while it is rebuilt",
				"re-created because pip/kubernetes-a1 is replaced"}},
		{"not disruptive", &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Before: pipRes, After: pipRes}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Impact(tt.change); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestBlockedWording(t *testing.T) {
	tests := []struct {
		b    plan.Blocked
		want string
	}{
		{plan.Blocked{Address: "lb/kubernetes/frontend/a1", Code: plan.BlockDeleteInUse, Other: "pls/team-pls"},
			"cannot delete: lb/kubernetes/frontend/a1 is still used by pls/team-pls, which azsvc keeps"},
		{plan.Blocked{Code: plan.BlockSubnetMissing, Value: "pls", Other: "vnet", Group: "rg"},
			"subnet pls not found in vnet vnet (resource group rg)"},
		{plan.Blocked{Code: plan.BlockSubnetMissing, Services: []string{"payments/ledger-api"}, Value: "ilb-subnt", Other: "aks-vnet",
			Group: "rg", Suggestion: "ilb-subnet"},
			"Service payments/ledger-api: subnet ilb-subnt not found in vnet aks-vnet (resource group rg); did you mean ilb-subnet?"},
		{plan.Blocked{Code: plan.BlockSubnetMissing, Services: []string{"PrivateEndpoint/web/pe"}, Value: "pe-subnt", Other: "guest",
			Group: "rg"},
			"PrivateEndpoint web/pe: subnet pe-subnt not found in vnet guest (resource group rg)"},
		{plan.Blocked{Address: "lb/kubernetes/frontend/a1", Code: plan.BlockDeleteInUse, Other: "pls/team-pls", Services: []string{"web/a"}},
			"cannot delete: lb/kubernetes/frontend/a1 is still used by pls/team-pls, which azsvc keeps"},
		{plan.Blocked{Code: plan.BlockDependsOnBlocked, Other: "vnet/vnet/subnet/pls"}, "depends on vnet/vnet/subnet/pls, which is blocked"},
		{plan.Blocked{Code: plan.BlockPinnedIPNotFound, Services: []string{"web/a"}, Value: "20.62.10.9", Group: "rg"},
			"service web/a: user supplied IP Address 20.62.10.9 was not found in resource group rg " +
				"(CCM fails the Service: nothing is planned for it until a public IP there has that address)"},
		{plan.Blocked{Code: plan.BlockNodeIPsLeft, Services: []string{"web/a"}, Other: "lb/kubernetes/pool/kubernetes"},
			"the NSG rule for web/a is left as it is: with floating IP disabled its destinations are the node IPs, which backend pool " +
				"lb/kubernetes/pool/kubernetes does not show (a nodeIPConfiguration pool lists NICs); CCM adds them when it reconciles the Service"},
		{plan.Blocked{Code: plan.BlockSharedPort, Other: "lb/kubernetes/frontend/a1", Group: "a2-TCP-80", Value: "tcp/80", Owners: []string{""}},
			"frontend lb/kubernetes/frontend/a1 is shared with a Service outside the input, whose rule a2-TCP-80 already uses tcp/80 " +
				"(CCM fails the Service: use another port, or stop sharing the IP)"},
		{plan.Blocked{Code: plan.BlockNotManaged, Why: plan.Unmanaged{Code: plan.UnmanagedPriority, Value: "499"}},
			"already exists and azsvc does not manage it (priority 499 is outside the managed band 500-4096)"},
	}
	for _, tt := range tests {
		if got := BlockedText(tt.b); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.b.Code, got, tt.want)
		}
	}
}
