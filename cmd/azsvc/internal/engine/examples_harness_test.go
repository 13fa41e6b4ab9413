package engine

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// newExampleTarget opens an in-memory emulator seeded with the BYO public
// IPs the examples name; the engine's baseline adds the VNet and the subnets
// the Services name, with ARM's defaults (PLS network policies Enabled:
// azsvc plans disabling them, as CCM does).
func newExampleTarget(t testing.TB, in *Inputs, opts emulator.Options) *Target {
	t.Helper()
	emu, err := emulator.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	seed, err := os.ReadFile(filepath.Join(examples, "emulator-seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	bodies := append(resourceGroups(t, in), seed)
	// Scenarios that need resources of their own (a guest VNet in another
	// subscription) keep them in <scenario>/emulator-seed.json: seeded for
	// every scenario, they only add resources the others never read.
	own, err := filepath.Glob(filepath.Join(examples, "*", "emulator-seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range own {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, data)
	}
	if err := emu.Seed(bodies...); err != nil {
		t.Fatal(err)
	}
	tg, err := EmulatorTarget(emu, in, "test emulator")
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// resourceGroups are the resource groups the Services name (annotations
// azure-load-balancer-resource-group, azure-pls-resource-group): they exist
// in Azure before CCM uses them, and neither CCM nor azsvc creates one.
func resourceGroups(t testing.TB, in *Inputs) [][]byte {
	t.Helper()
	scope := ReadScopeOf(in)
	groups := map[string]bool{}
	for _, g := range scope.AllGroups(in.Config.SubscriptionForIDs()) {
		groups["/subscriptions/"+g.Subscription+"/resourceGroups/"+g.Name] = true
	}
	var out [][]byte
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		body, err := json.Marshal(map[string]any{
			"id":       g,
			"location": in.Config.Location,
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, body)
	}
	return out
}

func loadExample(t testing.TB, files ...string) *Inputs {
	t.Helper()
	in, err := LoadInputs(exampleSettings(files...))
	if err != nil {
		t.Fatal(err)
	}
	if in.HasErrors() {
		t.Fatalf("example has error diagnostics: %+v", in.Diagnostics)
	}
	return in
}

func mustApply(t testing.TB, p *plan.Plan, tg *Target) {
	t.Helper()
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("apply: %v", err)
	}
}

// requireEmpty fails unless p changes nothing.
func requireEmpty(t testing.TB, what string, p *plan.Plan) {
	t.Helper()
	if len(p.Steps) == 0 && len(p.Changes) == 0 {
		return
	}
	for _, c := range p.Changes {
		t.Errorf("%s: %v %s %s %v", what, c.Actions, c.ID().Address(), c.Reason, c.Attributes)
	}
	t.Fatalf("%s has %d steps", what, len(p.Steps))
}
