package engine

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestMissingReferencesFailOnlyTheirService applies examples/dual-stack to
// an emulator without the bring-your-own public IPs it names
// (examples/emulator-seed.json holds them): CCM fails edge/gateway and
// edge/gateway-v6 only (ccm-semantics §1.3 #22, #24). The plan blocks
// them, the load balancer write carries the other Service alone, apply
// succeeds, and the next plan is empty: it converges instead of failing
// half-way on every run (InvalidResourceReference).
func TestMissingReferencesFailOnlyTheirService(t *testing.T) {
	in := loadExample(t, filepath.Join(examples, "dual-stack"))
	emu, err := emulator.Open(emulator.Options{InstantOperations: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	if err := emu.Seed(resourceGroups(t, in)...); err != nil {
		t.Fatal(err)
	}
	tg, err := EmulatorTarget(emu, in, "test emulator")
	if err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, in, tg)
	var blocked []string
	for _, b := range p.Blocked {
		blocked = append(blocked, b.Code.String()+" "+b.Address)
	}
	for _, want := range []string{"user_pip_missing pip/gateway-pip-v4", "user_pip_missing pip/gateway-pip-v6",
		"pinned_ip_not_found lb/aks-prod-weu/frontend/ac4e7a2d16b3f48e99a0c7f5d1e2b8c6"} {
		if !slices.Contains(blocked, want) {
			t.Errorf("blocked %q, want %q among them", blocked, want)
		}
	}
	mustApply(t, p, tg)
	requireEmpty(t, "second plan", mustPlan(t, in, tg))
	for _, r := range in.Desired.Resources() {
		_, exists := getBody(t, emu, r.ID.String())
		if slices.Contains(r.Services, "web/storefront-ds") && r.Kind() != plan.KindSecurityRule && !exists {
			t.Errorf("%s of web/storefront-ds was not created", r.ID.Address())
		}
	}
}
