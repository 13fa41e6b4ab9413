package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// nodeFaultWorld is three Services (public, public with floating IP off,
// internal) on three nodes with IP-based pools, and the same after the
// third node left.
func nodeFaultWorld() (before, after []byte) {
	w := &nodeWorld{g: newGenerator(9)}
	for i := range 3 {
		s := w.service()
		s.internal, s.dual, s.noFloat = i == 2, false, i == 1
		w.svcs = append(w.svcs, s)
	}
	for range 3 {
		w.addNode()
	}
	for _, n := range w.nodes {
		n.controlPlane = false
	}
	before = w.manifests()
	w.nodes = w.nodes[:2]
	return before, w.manifests()
}

// TestFaultNodeLeavesConverges injects each fault kind at each write of
// the plan that drains a departed node (both load balancers' pools and the
// NSG rule with its address): whatever the first apply did, planning and
// applying again converges, and no pool or NSG rule keeps the address.
func TestFaultNodeLeavesConverges(t *testing.T) {
	cfg := nodeIPConfig(t, false)
	before, after := nodeFaultWorld()
	tg := newMemTarget(t, mustInputs(t, cfg, before, false), emulator.Options{InstantOperations: true})
	first := mustPlan(t, mustInputs(t, cfg, before, false), tg)
	mustApply(t, first, tg)
	leave := mustPlan(t, mustInputs(t, cfg, after, false), tg)
	if got := stepTargets(leave); got[plan.KindLoadBalancer] != 2 || got[plan.KindSecurityGroup] != 1 || len(leave.Steps) != 3 {
		t.Fatalf("the departure writes %v, want both LBs and the NSG once each:\n%s", got, planLines(leave))
	}
	initial, steps := len(first.Steps), len(leave.Steps)
	for _, fc := range faultCases() {
		for k := range steps {
			t.Run(fmt.Sprintf("%s/step-%d", fc.name, k+1), func(t *testing.T) {
				opts := emulator.Options{InstantOperations: true}
				if fc.kind != 0 {
					opts.Faults = []emulator.Fault{{Kind: fc.kind, Method: emulator.MethodPut, Nth: initial + k + 1, Times: fc.times, RetryAfter: 2 * time.Millisecond}}
				}
				tg := newMemTarget(t, mustInputs(t, cfg, before, false), opts)
				mustApply(t, mustPlan(t, mustInputs(t, cfg, before, false), tg), tg)
				in := mustInputs(t, cfg, after, false)
				p := mustPlan(t, in, tg)
				res, err := applyWithFault(p, tg.Provider, fc, k)
				faultOutcome(t, res, err, fc, k, steps)
				in = mustInputs(t, cfg, after, false)
				if _, err := apply.Run(context.Background(), mustPlan(t, in, tg), tg.Provider, fastRetry()); err != nil {
					t.Fatalf("recovery apply: %v", err)
				}
				requireEmptyPlan(t, in, tg, fc.name)
				gone := "10.224.3.6"
				for _, r := range mustRead(t, tg).All() {
					if r.Kind() == plan.KindBackendPool || r.Kind() == plan.KindSecurityRule {
						if strings.Contains(fmt.Sprint(r.Properties), gone+" ") || strings.Contains(fmt.Sprint(r.Properties), gone+"]") {
							t.Errorf("%s still holds the departed node's %s", r.ID.Address(), gone)
						}
					}
				}
			})
		}
	}
}
