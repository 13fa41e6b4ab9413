package preflight

import (
	"errors"
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

var (
	lbID     = plan.NewID("s", "rg", plan.KindLoadBalancer, "kubernetes-internal")
	pipID    = plan.NewID("s", "rg", plan.KindPublicIP, "kubernetes-a1")
	subnetID = plan.ID{Subscription: "s", ResourceGroup: "rg", Kind: plan.KindSubnet, Names: []string{"vnet", "nodes"}}
	plsID    = plan.NewID("s", "rg", plan.KindPrivateLinkService, "pls-a1")
)

func lb(sku string, kids ...*plan.Resource) *plan.Step {
	return &plan.Step{Op: plan.OpPut, Target: lbID, Body: &plan.Resource{ID: lbID, SKU: map[string]any{"name": sku}}, Children: kids}
}

func frontend(name string, props map[string]any) *plan.Resource {
	return &plan.Resource{ID: plan.ChildID(lbID, plan.KindFrontend, name), Properties: props}
}

func static(ip string) map[string]any {
	return map[string]any{"subnet": plan.Ref(subnetID), "privateIPAllocationMethod": "Static", "privateIPAddress": ip}
}

func subnet(policies string) *plan.Resource {
	return &plan.Resource{ID: subnetID, Properties: map[string]any{"addressPrefix": "10.224.0.0/16", "privateLinkServiceNetworkPolicies": policies}}
}

func pls(natIP string) *plan.Step {
	body := &plan.Resource{ID: plsID, Properties: map[string]any{
		"loadBalancerFrontendIpConfigurations": []any{plan.Ref(plan.ChildID(lbID, plan.KindFrontend, "a1"))},
		"ipConfigurations": []any{map[string]any{"name": "nat", "properties": map[string]any{
			"subnet": plan.Ref(subnetID), "privateIPAllocationMethod": "Static", "privateIPAddress": natIP}}}}}
	return &plan.Step{Op: plan.OpPut, Target: plsID, Body: body}
}

func probe(name string) *plan.Resource {
	return &plan.Resource{ID: plan.ChildID(lbID, plan.KindProbe, name), Properties: map[string]any{"port": 80}}
}

func rule(name, fe, probe string) *plan.Resource {
	return &plan.Resource{ID: plan.ChildID(lbID, plan.KindRule, name), Properties: map[string]any{
		"frontendIPConfiguration": plan.Ref(plan.ChildID(lbID, plan.KindFrontend, fe)),
		"probe":                   plan.Ref(plan.ChildID(lbID, plan.KindProbe, probe))}}
}

func TestCheck(t *testing.T) {
	existingLB := &plan.Resource{ID: lbID, SKU: map[string]any{"name": "Basic"}}
	const (
		fe     = "lb/kubernetes-internal/frontend/a1"
		nodes  = "vnet/vnet/subnet/nodes"
		nodesP = "10.224.0.0/16"
	)
	tests := []struct {
		name     string
		observed []*plan.Resource
		steps    []*plan.Step
		want     []plan.Refusal
	}{
		{"a standard internal frontend in its subnet", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10")))}, nil},
		{"creating a Basic load balancer", nil, []*plan.Step{lb("Basic")},
			[]plan.Refusal{{Address: "lb/kubernetes-internal", Code: plan.RefuseBasicLB}}},
		// Issue 21 item 5: CCM creates the public IP, then fails at the LB.
		{"creating a Basic load balancer on a new public IP", nil,
			[]*plan.Step{{Op: plan.OpPut, Target: pipID, Body: &plan.Resource{ID: pipID}},
				lb("Basic", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)}))},
			[]plan.Refusal{{Address: "lb/kubernetes-internal", Code: plan.RefuseBasicLB, LeftBehind: []string{"pip/kubernetes-a1"}}}},
		{"creating a Basic public IP", nil, []*plan.Step{{Op: plan.OpPut, Target: pipID,
			Body: &plan.Resource{ID: pipID, SKU: map[string]any{"name": "Basic"}}}},
			[]plan.Refusal{{Address: "pip/kubernetes-a1", Code: plan.RefuseBasicPIP}}},
		{"a new public IP (Standard by default) on an existing Basic LB", []*plan.Resource{existingLB},
			[]*plan.Step{{Op: plan.OpPut, Target: pipID, Body: &plan.Resource{ID: pipID}},
				lb("Basic", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)}))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseSKUMismatch, Other: "pip/kubernetes-a1", OtherSKU: "Standard", SKU: "Basic"}}},
		{"static IP outside the subnet", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.9.0.10")))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseIPOutsideSubnet, IP: "10.9.0.10", Subnet: nodes, Prefixes: []string{nodesP}}}},
		{"static IP reserved", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.3")))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseIPReserved, IP: "10.224.0.3", Subnet: nodes, Prefixes: []string{nodesP}}}},
		{"last address reserved", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.255.255")))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseIPReserved, IP: "10.224.255.255", Subnet: nodes, Prefixes: []string{nodesP}}}},
		{"static IP taken by another frontend", []*plan.Resource{subnet("Enabled"), frontend("team", static("10.224.0.10"))},
			[]*plan.Step{lb("Standard", frontend("team", static("10.224.0.10")), frontend("a1", static("10.224.0.10")))},
			[]plan.Refusal{{Address: "lb/kubernetes-internal/frontend/team", Code: plan.RefuseIPTaken, IP: "10.224.0.10", Subnet: nodes, Other: fe},
				{Address: fe, Code: plan.RefuseIPTaken, IP: "10.224.0.10", Subnet: nodes, Other: "lb/kubernetes-internal/frontend/team"}}},
		{"static IP of a node of the input", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.5")))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseIPTaken, IP: "10.224.0.5", Subnet: nodes, Other: "node aks-nodepool1-vmss000001"}}},
		{"a frontend freed in the same plan", []*plan.Resource{subnet("Enabled"), frontend("old", static("10.224.0.10"))},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10")))}, nil},
		{"PLS NAT IP in a subnet with policies enabled", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10"))), pls("10.224.0.20")},
			[]plan.Refusal{{Address: "pls/pls-a1", Code: plan.RefusePLSSubnetPolicies, Other: nodes}}},
		{"PLS NAT subnet disabled in the same plan", []*plan.Resource{subnet("Enabled")},
			[]*plan.Step{{Op: plan.OpPut, Target: subnetID, Body: subnet("Disabled")},
				lb("Standard", frontend("a1", static("10.224.0.10"))), pls("10.224.0.20")}, nil},
		{"a frontend on a public IP nobody has", nil,
			[]*plan.Step{lb("Standard", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)}))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseReferenceMissing, Other: "pip/kubernetes-a1"}}},
		{"a frontend on a public IP an earlier step creates", nil,
			[]*plan.Step{{Op: plan.OpPut, Target: pipID, Body: &plan.Resource{ID: pipID}},
				lb("Standard", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)}))}, nil},
		{"a frontend on a public IP a later step creates", nil,
			[]*plan.Step{lb("Standard", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)})),
				{Op: plan.OpPut, Target: pipID, Body: &plan.Resource{ID: pipID}}},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseReferenceMissing, Other: "pip/kubernetes-a1"}}},
		{"a frontend on a public IP an earlier step deletes", []*plan.Resource{{ID: pipID}},
			[]*plan.Step{{Op: plan.OpDelete, Target: pipID},
				lb("Standard", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)}))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseReferenceDeleted, Other: "pip/kubernetes-a1"}}},
		{"a frontend in a subnet nobody has", nil,
			[]*plan.Step{lb("Standard", frontend("a1", map[string]any{"subnet": plan.Ref(subnetID)}))},
			[]plan.Refusal{{Address: fe, Code: plan.RefuseReferenceMissing, Other: nodes}}},
		{"a rule on a frontend and probe of the same body", []*plan.Resource{subnet("Disabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10")), probe("a1-TCP-80"), rule("a1-TCP-80", "a1", "a1-TCP-80"))}, nil},
		{"a rule on a probe the body drops", []*plan.Resource{subnet("Disabled"), probe("old")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10")), rule("a1-TCP-80", "a1", "old"))},
			[]plan.Refusal{{Address: "lb/kubernetes-internal/rule/a1-TCP-80", Code: plan.RefuseReferenceDeleted, Other: "lb/kubernetes-internal/probe/old"}}},
		{"a PLS on a frontend its load balancer gets later", []*plan.Resource{subnet("Disabled")},
			[]*plan.Step{pls("10.224.0.20"), lb("Standard", frontend("a1", static("10.224.0.10")))},
			[]plan.Refusal{{Address: "pls/pls-a1", Code: plan.RefuseReferenceMissing, Other: fe}}},
		{"a PLS on a frontend an earlier write of its load balancer dropped", []*plan.Resource{subnet("Disabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10"))), lb("Standard", frontend("b1", static("10.224.0.11"))), pls("10.224.0.20")},
			[]plan.Refusal{{Address: "pls/pls-a1", Code: plan.RefuseReferenceDeleted, Other: fe}}},
		{"a reference ARM already holds is not checked", []*plan.Resource{frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)})},
			[]*plan.Step{lb("Standard", frontend("a1", map[string]any{"publicIPAddress": plan.Ref(pipID)}))}, nil},
		{"PLS NAT IP outside its subnet", []*plan.Resource{subnet("Disabled")},
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10"))), pls("10.1.0.20")},
			[]plan.Refusal{{Address: "pls/pls-a1", Code: plan.RefuseIPOutsideSubnet, IP: "10.1.0.20", Subnet: nodes, Prefixes: []string{nodesP}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			observed := plan.NewState()
			for _, r := range tt.observed {
				observed.Put(r)
			}
			p := &plan.Plan{Steps: tt.steps}
			err := Check(p, plan.NewIndex(observed), map[string]string{"10.224.0.5": "aks-nodepool1-vmss000001", "10.224.0.4": "aks-nodepool1-vmss000000"})
			if (err != nil) != (len(tt.want) > 0) || err != nil && !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want a refusal: %v", err, len(tt.want) > 0)
			}
			if !reflect.DeepEqual(p.Refused, tt.want) {
				t.Fatalf("refused %+v\nwant    %+v", p.Refused, tt.want)
			}
		})
	}
}

// TestWritesIntoMissingGroup: a write into a resource group the reads
// found missing is refused (azsvc creates none); one into an existing
// group is not, and a delete never is.
func TestWritesIntoMissingGroup(t *testing.T) {
	observed := plan.NewState()
	observed.MarkGroupMissing(pipID.Subscription, pipID.ResourceGroup)
	p := &plan.Plan{Steps: []*plan.Step{
		{Op: plan.OpPut, Target: pipID, Body: &plan.Resource{ID: pipID}},
		{Op: plan.OpDelete, Target: pipID},
	}}
	err := Check(p, plan.NewIndex(observed), nil)
	want := []plan.Refusal{{Address: "pip/kubernetes-a1", Code: plan.RefuseGroupMissing, Other: pipID.ResourceGroup}}
	if !errors.Is(err, ErrRefused) || !reflect.DeepEqual(p.Refused, want) {
		t.Fatalf("err %v, refused %+v; want %+v", err, p.Refused, want)
	}
	other := plan.NewState()
	other.MarkGroupMissing(pipID.Subscription, "another-group")
	p = &plan.Plan{Steps: []*plan.Step{{Op: plan.OpPut, Target: pipID, Body: &plan.Resource{ID: pipID}}}}
	if err := Check(p, plan.NewIndex(other), nil); err != nil {
		t.Fatalf("a write into an existing group: %v", err)
	}
}
