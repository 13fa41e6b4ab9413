package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestEndpointWithoutItsVNet: examples/private-endpoint-manual on an
// emulator without the partner's network (its own seed left out): the
// endpoint is blocked for its missing subnet, and so are the zone and link
// that serve only it, so the apply does not stop at a link to a network
// that does not exist; the next plan has nothing left to do.
func TestEndpointWithoutItsVNet(t *testing.T) {
	in := loadExample(t, filepath.Join(examples, "private-endpoint-manual"))
	emu, err := emulator.Open(emulator.Options{InstantOperations: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	seed, err := os.ReadFile(filepath.Join(examples, "emulator-seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Seed(append(resourceGroups(t, in), seed)...); err != nil {
		t.Fatal(err)
	}
	tg, err := EmulatorTarget(emu, in, "test emulator")
	if err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, in, tg)
	for _, s := range stepList(p) {
		if strings.Contains(s, "dnszone/") || strings.Contains(s, "pe/") {
			t.Errorf("the plan writes %s for a blocked endpoint", s)
		}
	}
	if !slices.ContainsFunc(p.Blocked, func(b plan.Blocked) bool { return strings.Contains(b.Address, "/link/") }) {
		t.Errorf("the zone's link is not listed as blocked: %+v", p.Blocked)
	}
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("apply: %v\n%s", err, planLines(p))
	}
	if again := mustPlan(t, in, tg); len(again.Steps) != 0 {
		t.Errorf("a second plan still writes:\n%s", planLines(again))
	}
}
