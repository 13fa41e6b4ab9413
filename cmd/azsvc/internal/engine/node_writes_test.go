package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/scalegen"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestNodeJoinLeaveWrites asserts the ARM writes of a node joining and
// leaving a multi-SLB cluster of 1,000 Services on 500 Nodes: the node's
// configuration's two load balancers, one PUT each, whatever the number of
// Services (DESIGN.md "one PUT per changed load balancer"), and nothing
// for the 38 others; the plan reads no more than a plan without Nodes.
func TestNodeJoinLeaveWrites(t *testing.T) {
	cfg := scaleConfig(t)
	services := scaleManifests(1000)
	with := func(nodes []byte) *Inputs {
		return mustInputs(t, cfg, append(append(append([]byte{}, services...), "\n---\n"...), nodes...), false)
	}
	base := scalegen.Nodes(500)
	in := with(base)
	tg := appliedTarget(t, in, emulator.Options{InstantOperations: true})
	members := 0
	for _, pool := range mustRead(t, tg).OfKind(plan.KindBackendPool) {
		members += len(plan.AsBackendPool(pool).Addresses())
	}
	if members != 1000 {
		t.Fatalf("the pools hold %d members, want 1,000 (500 nodes on a public and an internal LB each)", members)
	}
	joined := append(append(append([]byte{}, base...), "\n---\n"...), []byte(fmt.Sprintf(
		"apiVersion: v1\nkind: Node\nmetadata: {name: aks-pool05-vmss-new}\nspec:\n  providerID: azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Compute/virtualMachineScaleSets/aks-pool05-vmss/virtualMachines/999\nstatus:\n  addresses: [{type: InternalIP, address: %s}]\n", "10.224.9.9"))...)
	for _, step := range []struct {
		name  string
		nodes []byte
	}{{"a node joins", joined}, {"the node leaves", base}} {
		next := with(step.nodes)
		c := tg.Emulator.Counters()
		c.Reset()
		p := mustPlan(t, next, tg)
		reads := c.Reads("")
		c.Reset()
		if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
			t.Fatalf("%s: apply: %v", step.name, err)
		}
		if got := c.Writes(""); got != 2 || c.Writes(armLB) != 2 || len(p.Steps) != 2 {
			t.Errorf("%s: %d writes (%d LB PUTs) in %d steps, want 2 LB PUTs:\n%s", step.name, got, c.Writes(armLB), len(p.Steps), planLines(p))
		}
		for _, st := range p.Steps {
			if n := st.Target.Name(); n != "slb-05" && n != "slb-05-internal" {
				t.Errorf("%s: writes %s", step.name, n)
			}
		}
		t.Logf("%s: %d ARM reads to plan, %d writes to apply", step.name, reads, c.Writes(""))
		requireEmptyPlan(t, next, tg, step.name)
	}
}
