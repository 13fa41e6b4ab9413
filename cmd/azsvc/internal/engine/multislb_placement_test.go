package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// placementConfig is a multi-SLB cluster of two load balancers, the second
// taking only Services labelled tier=edge (serviceLabelSelector).
func placementConfig(t *testing.T) *cluster.Config {
	t.Helper()
	data := []byte(`{
  "subscriptionId": "` + emulatorSubscription + `",
  "resourceGroup": "mc_aks-prod-weu", "location": "westeurope", "vmType": "vmss",
  "vnetName": "aks-vnet", "vnetResourceGroup": "mc_aks-prod-weu", "subnetName": "aks-subnet",
  "securityGroupName": "aks-agentpool-nsg", "primaryScaleSetName": "aks-nodepool1-vmss",
  "loadBalancerSku": "standard", "loadBalancerBackendPoolConfigurationType": "nodeIP",
  "multipleStandardLoadBalancerConfigurations": [
    {"name": "aks-prod-weu", "primaryVMSet": "aks-nodepool1-vmss"},
    {"name": "aks-prod-weu-2", "primaryVMSet": "aks-nodepool2-vmss"},
    {"name": "aks-prod-weu-edge", "primaryVMSet": "aks-nodepool3-vmss",
     "serviceLabelSelector": {"matchLabels": {"tier": "edge"}}}
  ]}`)
	return configFrom(t, data, "aks-prod-weu")
}

// placementService is a public Service with a UID derived from its name
// and one port of its own, labelled tier=<tier> unless tier is "".
func placementService(name string, port int, tier string) string {
	labels := ""
	if tier != "" {
		labels = "\n  labels: {tier: " + tier + "}"
	}
	uid := fmt.Sprintf("%08x-0000-4000-8000-%012x", port, port)
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: %s
  namespace: retail
  uid: %s%s
spec:
  type: LoadBalancer
  ports: [{name: p, protocol: TCP, port: %d, targetPort: 8080, nodePort: %d}]
---
`, name, uid, labels, port, 30000+port%2000)
}

func placementInputs(t *testing.T, cfg *cluster.Config, svcs ...string) *Inputs {
	t.Helper()
	return mustInputs(t, cfg, []byte(strings.Join(svcs, "")), false)
}

// lbOf is the load balancer whose frontend serves the Service with the
// given port (placementService's UID), "" when none does.
func lbOf(t *testing.T, tg *Target, port int) string {
	t.Helper()
	prefix := fmt.Sprintf("a%08x", port)
	for _, fe := range mustRead(t, tg).OfKind(plan.KindFrontend) {
		if strings.HasPrefix(fe.Name(), prefix) {
			lb, _ := fe.ID.ParentID()
			return lb.Name()
		}
	}
	return ""
}

// convergedPlacement applies storefront (443), payments (8443) and edge
// (9443, tier=edge) and checks where CCM would put them: the first two on
// the two load balancers without selectors, one each, edge on the one
// whose selector it matches.
func convergedPlacement(t *testing.T, cfg *cluster.Config, edgeTier string) (*Target, []string) {
	t.Helper()
	svcs := []string{placementService("storefront", 443, ""), placementService("payments", 8443, ""),
		placementService("edge", 9443, edgeTier)}
	in := placementInputs(t, cfg, svcs...)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	mustApply(t, mustPlan(t, in, tg), tg)
	requireEmptyPlan(t, in, tg, "converged")
	return tg, svcs
}

// TestMultiSLBKeepsPlacedServices: on a converged multi-SLB cluster a new
// Service that sorts before the others plans only its own resources (the
// placed Services stay on the load balancers ARM holds them on,
// ccm-semantics §7.6), and a plan of fewer Services (no --prune) is
// empty.
func TestMultiSLBKeepsPlacedServices(t *testing.T) {
	cfg := placementConfig(t)
	tg, svcs := convergedPlacement(t, cfg, "edge")
	want := map[int]string{443: "aks-prod-weu-2", 8443: "aks-prod-weu", 9443: "aks-prod-weu-edge"}
	for port, lb := range want {
		if got := lbOf(t, tg, port); got != lb {
			t.Errorf("port %d on %q, want %q", port, got, lb)
		}
	}

	in := placementInputs(t, cfg, append([]string{placementService("api", 7443, "")}, svcs...)...)
	p := mustPlan(t, in, tg)
	newPrefix := fmt.Sprintf("a%08x", 7443)
	for _, c := range p.Changes {
		if c.IsDelete() || c.ID().Kind == plan.KindFrontend && !strings.HasPrefix(c.ID().Name(), newPrefix) {
			t.Errorf("a new Service changes %v %s", c.Actions, c.ID().Address())
		}
		if c.ID().Kind == plan.KindRule && !strings.HasPrefix(c.ID().Name(), newPrefix) {
			t.Errorf("a new Service changes %v %s", c.Actions, c.ID().Address())
		}
	}
	mustApply(t, p, tg)
	requireEmptyPlan(t, in, tg, "new Service applied")
	// Both load balancers without selectors held one rule: the first in
	// configuration order takes it.
	if got := lbOf(t, tg, 7443); got != "aks-prod-weu" {
		t.Errorf("new Service on %q, want aks-prod-weu (fewest rules, first)", got)
	}
	for port, lb := range want {
		if got := lbOf(t, tg, port); got != lb {
			t.Errorf("after the new Service: port %d on %q, want %q", port, got, lb)
		}
	}

	for i := range svcs {
		requireEmptyPlan(t, placementInputs(t, cfg, svcs[i]), tg, fmt.Sprintf("Service %d alone", i))
	}
	requireEmptyPlan(t, placementInputs(t, cfg, svcs[1], svcs[2]), tg, "two Services")
}

// TestMultiSLBCountsPlacedRules: a new Service goes to the eligible load
// balancer with the fewest rules as ARM holds them, counting the rules of
// Services outside the input and those placed before it in the same plan.
func TestMultiSLBCountsPlacedRules(t *testing.T) {
	cfg := placementConfig(t)
	tg, svcs := convergedPlacement(t, cfg, "edge")
	// a1 and a2 sort first; ARM's two plain load balancers hold one rule
	// each: a1 goes to the first, a2 to the second.
	in := placementInputs(t, cfg, placementService("a1", 6001, ""), placementService("a2", 6002, ""))
	mustApply(t, mustPlan(t, in, tg), tg)
	if a, b := lbOf(t, tg, 6001), lbOf(t, tg, 6002); a != "aks-prod-weu" || b != "aks-prod-weu-2" {
		t.Errorf("a1 on %q, a2 on %q; want aks-prod-weu, aks-prod-weu-2", a, b)
	}
	all := placementInputs(t, cfg, append(svcs, placementService("a1", 6001, ""), placementService("a2", 6002, ""))...)
	requireEmptyPlan(t, all, tg, "every Service")
}
