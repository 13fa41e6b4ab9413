package engine

import (
	"context"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestRemovingLastPublicServiceDeletesItsNSGRule is the minimal form of a
// failure TestPropertyConverge found (seed 28 of -seeds 200): removing the
// last public Service (with --prune) must delete its NSG allow rule along
// with its frontend and public IP. Left behind, the rule keeps allowing
// traffic to an address the cluster released, and once a later public IP
// reuses the address the next plan deletes it (a non-empty second plan).
func TestRemovingLastPublicServiceDeletesItsNSGRule(t *testing.T) {
	cfg := exampleConfig(t)
	g := newGenerator(1)
	public, internal := g.service(), g.service()
	public.internal, public.dual, public.ranges, public.local = false, false, nil, false
	internal.internal, internal.pls, internal.ranges, internal.local = true, false, nil, false
	public.ports = []genPort{{"TCP", 80, 30100}}
	internal.ports = []genPort{{"TCP", 443, 30101}}
	other := g.service()
	other.internal, other.dual, other.ranges, other.local = false, false, nil, false
	other.ports = []genPort{{"TCP", 8443, 30102}}
	for _, tc := range []struct {
		name string
		keep []*genService
	}{
		{"another public Service remains", []*genService{internal, other}},
		{"internal Service remains", []*genService{internal}},
		{"no Service remains", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := mustInputs(t, cfg, manifests([]*genService{public, internal, other}), true)
			tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
			if _, err := apply.Run(context.Background(), mustPlan(t, in, tg), tg.Provider, apply.Options{}); err != nil {
				t.Fatal(err)
			}
			after := mustInputs(t, cfg, manifests(tc.keep), true)
			retarget(tg, after)
			p := mustPlan(t, after, tg)
			deleted := false
			for _, c := range p.Changes {
				deleted = deleted || c.ID().Kind == plan.KindSecurityRule && len(c.Actions) == 1 && c.Actions[0] == plan.ActionDelete
			}
			if !deleted {
				t.Fatalf("removing the public Service deletes no NSG rule; plan:\n%s", planLines(p))
			}
		})
	}
}
