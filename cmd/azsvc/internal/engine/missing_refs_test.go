package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// dualStackPrefix is the public IP prefix web/storefront-ds of
// examples/dual-stack carves its IPv6 address from.
const dualStackPrefix = `{"id": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/publicIPPrefixes/web-prefix-ipv6",
  "location": "westeurope", "sku": {"name": "Standard"}, "properties": {"publicIPAddressVersion": "IPv6", "prefixLength": 124, "ipPrefix": "2603:1020:206:4::/124"}}`

// TestMissingReferencesFailOnlyTheirService applies examples/dual-stack to
// an emulator without what its Services name (examples/emulator-seed.json
// holds it): CCM fails each Service whose public IP (§1.3 #22, #24) or
// public IP prefix (#26) is missing, and only those. The plan blocks them,
// the load balancer write carries the other Services alone, apply
// succeeds, and the next plan is empty: it converges instead of failing
// half-way on every run (InvalidResourceReference).
func TestMissingReferencesFailOnlyTheirService(t *testing.T) {
	gateways := []string{"user_pip_missing pip/gateway-pip-v4", "user_pip_missing pip/gateway-pip-v6",
		"pinned_ip_not_found lb/aks-prod-weu/frontend/ac4e7a2d16b3f48e99a0c7f5d1e2b8c6"}
	tests := []struct {
		name    string
		seed    []string
		blocked []string
		applied []string // Services whose resources all exist after apply
	}{
		{"the public IPs missing", []string{dualStackPrefix}, gateways, []string{"web/storefront-ds"}},
		{"the prefix missing too", nil, append([]string{"pip_prefix_missing pipprefix/web-prefix-ipv6"}, gateways...), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadExample(t, filepath.Join(examples, "dual-stack"))
			emu, err := emulator.Open(emulator.Options{InstantOperations: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { emu.Close() })
			seed := resourceGroups(t, in)
			for _, s := range tt.seed {
				seed = append(seed, []byte(s))
			}
			if err := emu.Seed(seed...); err != nil {
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
			slices.Sort(blocked)
			slices.Sort(tt.blocked)
			if !slices.Equal(blocked, tt.blocked) {
				t.Fatalf("blocked %q\nwant    %q", blocked, tt.blocked)
			}
			mustApply(t, p, tg)
			requireEmpty(t, "second plan", mustPlan(t, in, tg))
			for _, r := range in.Desired.Resources() {
				_, exists := getBody(t, emu, r.ID.String())
				applied := slices.ContainsFunc(r.Services, func(s string) bool { return slices.Contains(tt.applied, s) })
				if r.Kind() != plan.KindSecurityRule && len(r.Services) == 1 && applied != exists {
					t.Errorf("%s of %v: exists %v, want %v", r.ID.Address(), r.Services, exists, applied)
				}
			}
		})
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
