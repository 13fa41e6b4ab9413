package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// newExampleTarget opens an in-memory emulator seeded with the BYO public
// IPs the examples name and the cluster's private link subnets.
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
	if err := emu.Seed(append(resourceGroups(t, in), seed, plsSubnets(t, in))...); err != nil {
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
	scope := readScope(in)
	groups := map[string]bool{}
	for _, l := range [][]string{scope.LoadBalancerGroups, scope.PublicIPGroups, scope.SecurityGroupGroups,
		scope.PrivateLinkGroups, scope.PrivateEndpointGroups, scope.DNSZoneGroups} {
		for _, g := range l {
			groups[g] = true
		}
	}
	var out [][]byte
	for _, g := range sortedSet(groups) {
		body, err := json.Marshal(map[string]any{
			"id":       "/subscriptions/" + in.Config.SubscriptionForIDs() + "/resourceGroups/" + g,
			"location": in.Config.Location,
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, body)
	}
	return out
}

// plsSubnets is the cluster VNet with the private link NAT subnets the
// Services name, with privateLinkServiceNetworkPolicies Disabled. CCM
// disables the policy with a subnet PUT before it creates a PLS
// (ccm-semantics §8 "Subnet policy"); azsvc does not plan subnets, and the
// emulator's baseline creates them with the policy Enabled, so ARM would
// refuse the PLS (arm-rules §2.x, the emulator's pls.go). The rest of the
// VNet is left to EnsureBaseline, which adds the missing subnets.
func plsSubnets(t testing.TB, in *Inputs) []byte {
	t.Helper()
	cfg := in.Config
	cidrs := baselineSubnets(cfg, in.Service.Services)
	names := map[string]bool{}
	for _, s := range in.Service.Services {
		if v, ok := s.Annotation(service.AnnPLSIPConfigurationSubnet); ok && v != "" {
			names[v] = true
		}
	}
	var subnets []any
	for _, n := range sortedSet(names) {
		subnets = append(subnets, map[string]any{"name": n, "properties": map[string]any{
			"addressPrefix": cidrs[n], "privateLinkServiceNetworkPolicies": "Disabled",
		}})
	}
	body, err := json.Marshal(map[string]any{
		"id": "/subscriptions/" + cfg.SubscriptionForIDs() + "/resourceGroups/" + cfg.ResourceGroup +
			"/providers/Microsoft.Network/virtualNetworks/" + cfg.VnetName,
		"location":   cfg.Location,
		"properties": map[string]any{"addressSpace": map[string]any{"addressPrefixes": []any{baselineVNetCIDR}}, "subnets": subnets},
	})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
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
