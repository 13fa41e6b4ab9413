package azure

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
)

func testLB() plan.ID { return plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes") }

func TestToARMUnknowns(t *testing.T) {
	lb := testLB()
	fe := plan.ChildID(lb, plan.KindFrontend, "a1")
	nsg := plan.NewID("sub", "rg", plan.KindSecurityGroup, "nsg")
	tests := []struct {
		name     string
		body     *plan.Resource
		children []*plan.Resource
		want     string // JSON of properties, or the error's text
		err      bool
	}{
		{
			name: "dynamic frontend IP is omitted",
			body: &plan.Resource{ID: lb, Properties: map[string]any{}},
			children: []*plan.Resource{{ID: fe, Properties: map[string]any{
				"privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown}}},
			want: `{"backendAddressPools":[],"frontendIPConfigurations":[{"name":"a1","properties":{"privateIPAllocationMethod":"Dynamic"}}],"loadBalancingRules":[],"probes":[]}`,
		},
		{
			name: "copied value must be resolved first",
			body: &plan.Resource{ID: nsg, Properties: map[string]any{}},
			children: []*plan.Resource{{ID: plan.ChildID(nsg, plan.KindSecurityRule, "r"), Properties: map[string]any{
				"destinationAddressPrefixes": []any{plan.AfterApply(fe.Key(), "privateIPAddress")}}}},
			want: "nsg/nsg: properties.securityRules[0].properties.destinationAddressPrefixes[0] is still (known after apply)",
			err:  true,
		},
		{
			name: "unknown in a field ARM does not assign",
			body: &plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPublicIP, "p"), Properties: map[string]any{"idleTimeoutInMinutes": plan.Unknown}},
			want: "pip/p: properties.idleTimeoutInMinutes is still (known after apply)",
			err:  true,
		},
		{
			name: "computed fields are not sent",
			body: &plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPrivateLinkService, "pls"), Properties: map[string]any{
				"alias": "x.y.eastus.azure.privatelinkservice", "privateEndpointConnections": []any{}, "fqdns": []any{}}},
			want: `{"fqdns":[]}`,
		},
		{
			name:     "child of another parent",
			body:     &plan.Resource{ID: lb, Properties: map[string]any{}},
			children: []*plan.Resource{{ID: plan.ChildID(plan.NewID("sub", "rg", plan.KindLoadBalancer, "other"), plan.KindProbe, "p")}},
			want:     "lb/kubernetes: lb/other/probe/p is not an inline child of it",
			err:      true,
		},
		{
			name:     "children of a kind without any",
			body:     &plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPublicIP, "p")},
			children: []*plan.Resource{{ID: plan.ChildID(lb, plan.KindProbe, "p")}},
			want:     "pip/p: a publicIP has no inline children, got 1",
			err:      true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := ToARM(tt.body, tt.children)
			if tt.err {
				if err == nil || err.Error() != tt.want {
					t.Fatalf("error %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(m["properties"])
			if string(got) != tt.want {
				t.Errorf("properties %s, want %s", got, tt.want)
			}
		})
	}
}

// ToARM must not change the step it was given: apply may retry it.
func TestToARMLeavesInputAlone(t *testing.T) {
	fe := &plan.Resource{ID: plan.ChildID(testLB(), plan.KindFrontend, "a1"), Properties: map[string]any{
		"privateIPAddress": plan.Unknown, "subnet": map[string]any{"id": "/subscriptions/sub/x"}}}
	before := len(fe.Properties)
	if _, err := ToARM(&plan.Resource{ID: testLB()}, []*plan.Resource{fe}); err != nil {
		t.Fatal(err)
	}
	if len(fe.Properties) != before || !plan.IsUnknown(fe.Properties["privateIPAddress"]) {
		t.Errorf("ToARM changed its input: %v", fe.Properties)
	}
}

func TestToARMEnvelope(t *testing.T) {
	r := &plan.Resource{
		ID: plan.NewID("sub", "rg", plan.KindPublicIP, "p"), Location: "eastus",
		SKU: map[string]any{"name": "Standard"}, Zones: []string{"1"}, Tags: map[string]string{"k": "v"},
		Properties: map[string]any{"publicIPAllocationMethod": "Static", "ipAddress": plan.Unknown},
	}
	body, err := ToARM(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"location":"eastus","properties":{"publicIPAllocationMethod":"Static"},"sku":{"name":"Standard"},"tags":{"k":"v"},"zones":["1"]}`
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	if strings.Contains(string(body), "null") {
		t.Errorf("body carries a null: %s", body)
	}
}
