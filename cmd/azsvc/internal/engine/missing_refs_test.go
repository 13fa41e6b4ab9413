package engine

import (
	"os"
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

// TestBaselineCreatesOnlyTheClusterSubnet: the local emulator's baseline
// is azure.json's VNet with its one subnet. A Service naming another
// subnet (a typo, or one nobody created) is blocked as CCM fails it, on
// the emulator as on Azure, instead of the baseline inventing the subnet
// (where the typo applied fine) at an address that may collide with the
// VNet's other subnets (NetcfgSubnetRangesOverlap, exit 1).
func TestBaselineCreatesOnlyTheClusterSubnet(t *testing.T) {
	const internal = "    service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"\n"
	const subnet = "    service.beta.kubernetes.io/azure-load-balancer-internal-subnet: "
	tests := []struct {
		name, typo string
		seeded     bool // examples/emulator-seed.json: the examples' subnets
	}{
		{"a typo of the cluster subnet", "aks-subnett", false},
		{"a subnet sorting before the seeded ones", "aaa-subnet", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := exampleConfig(t)
			in := mustInputs(t, cfg, []byte(soloService("good", internal, 80, 30080)+"---\n"+
				soloService("typo", internal+subnet+tt.typo+"\n", 81, 30081)), true)
			emu, err := emulator.Open(emulator.Options{InstantOperations: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { emu.Close() })
			if tt.seeded {
				seed, err := os.ReadFile(filepath.Join(examples, "emulator-seed.json"))
				if err != nil {
					t.Fatal(err)
				}
				if err := emu.Seed(seed); err != nil {
					t.Fatal(err)
				}
			}
			tg, err := EmulatorTarget(emu, in, "test emulator")
			if err != nil {
				t.Fatalf("open the target: %v", err)
			}
			vnet := plan.NewID(cfg.SubscriptionForIDs(), cfg.VnetRG(), plan.KindVirtualNetwork, cfg.VnetName)
			if _, created := getBody(t, emu, vnet.String()+"/subnets/"+tt.typo); created {
				t.Fatalf("the baseline created subnet %s", tt.typo)
			}
			p := mustPlan(t, in, tg)
			if len(p.Blocked) != 1 || p.Blocked[0].Code != plan.BlockSubnetMissing || p.Blocked[0].Value != tt.typo ||
				!slices.Equal(p.Blocked[0].Services, []string{"web/typo"}) {
				t.Fatalf("blocked %+v, want subnet %s missing for web/typo", p.Blocked, tt.typo)
			}
			mustApply(t, p, tg)
			requireEmpty(t, "second plan", mustPlan(t, in, tg))
		})
	}
}
