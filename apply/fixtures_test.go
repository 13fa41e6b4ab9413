package apply

import (
	"fmt"

	"github.com/azsvc/azsvc/plan"
)

// The fixture is a typical three-write plan: create a public IP, update the
// cluster LB (a new internal frontend with a dynamic IP, a public frontend on
// the new IP, a rule), then update the cluster NSG with rules whose
// destinations are the frontend's private IP and the public IP's address.
var (
	lbID    = plan.NewID("sub", "rg", plan.KindLoadBalancer, "kubernetes")
	nsgID   = plan.NewID("sub", "rg", plan.KindSecurityGroup, "aks-agentpool-nsg")
	pipID   = plan.NewID("sub", "rg", plan.KindPublicIP, "kubernetes-a1")
	feIntID = plan.ChildID(lbID, plan.KindFrontend, "a1-snet")
	fePubID = plan.ChildID(lbID, plan.KindFrontend, "a1")
)

func observedLB() *plan.Resource {
	return &plan.Resource{ID: lbID, Location: "westeurope", Etag: `W/"lb-0"`, Properties: map[string]any{}, Owned: true}
}

func observedNSG() *plan.Resource {
	return &plan.Resource{ID: nsgID, Location: "westeurope", Etag: `W/"nsg-0"`, Properties: map[string]any{}, Owned: true}
}

func pipStep() *plan.Step {
	pip := &plan.Resource{ID: pipID, Location: "westeurope", Properties: map[string]any{
		"publicIPAllocationMethod": "Static", "ipAddress": plan.Unknown,
	}}
	return &plan.Step{Op: plan.OpPut, Target: pipID, Body: pip, Changes: []*plan.Change{created(pip)}}
}

func lbStep() *plan.Step {
	feInt := &plan.Resource{ID: feIntID, Properties: map[string]any{
		"privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown,
		"subnet": map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/snet"},
	}}
	fePub := &plan.Resource{ID: fePubID, Properties: map[string]any{"publicIPAddress": plan.Ref(pipID)}}
	rule := &plan.Resource{ID: plan.ChildID(lbID, plan.KindRule, "a1-TCP-80"), Properties: map[string]any{
		"frontendIPConfiguration": plan.Ref(fePubID), "frontendPort": 80,
	}}
	return &plan.Step{
		Op: plan.OpPut, Target: lbID, Body: observedLB(), IfMatch: `W/"lb-0"`,
		Children: []*plan.Resource{fePub, feInt, rule},
		Changes:  []*plan.Change{created(fePub), created(feInt), created(rule)},
	}
}

func nsgStep() *plan.Step {
	toInternal := &plan.Resource{ID: plan.ChildID(nsgID, plan.KindSecurityRule, "a1-TCP-80-internal"), Properties: map[string]any{
		"destinationAddressPrefix": plan.AfterApply(feIntID.Key(), "privateIPAddress"), "priority": 500,
	}}
	toPublic := &plan.Resource{ID: plan.ChildID(nsgID, plan.KindSecurityRule, "a1-TCP-80-Internet"), Properties: map[string]any{
		"destinationAddressPrefixes": []any{plan.AfterApply(pipID.Key(), "ipAddress")}, "priority": 501,
	}}
	return &plan.Step{
		Op: plan.OpPut, Target: nsgID, Body: observedNSG(), IfMatch: `W/"nsg-0"`,
		Children: []*plan.Resource{toInternal, toPublic},
		Changes:  []*plan.Change{created(toInternal), created(toPublic)},
	}
}

func fixturePlan() *plan.Plan {
	return &plan.Plan{Steps: []*plan.Step{pipStep(), lbStep(), nsgStep()}}
}

func fixtureARM() *fakeARM { return newFakeARM(observedLB(), observedNSG()) }

func created(r *plan.Resource) *plan.Change {
	return &plan.Change{Actions: []plan.Action{plan.ActionCreate}, After: r}
}

// pipPlan is n public IP creations.
func pipPlan(n int) *plan.Plan {
	p := &plan.Plan{}
	for i := range n {
		id := plan.NewID("sub", "rg", plan.KindPublicIP, fmt.Sprintf("kubernetes-%03d", i))
		r := &plan.Resource{ID: id, Properties: map[string]any{"ipAddress": plan.Unknown}}
		p.Steps = append(p.Steps, &plan.Step{Op: plan.OpPut, Target: id, Body: r, Changes: []*plan.Change{created(r)}})
	}
	return p
}
