package engine

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// ccmService is an internal Service with a Private Link Service and none of
// the PLS settings (no visibility, no auto-approval, no FQDNs, no proxy
// protocol): the case issue 21 items 1 and 2 found CCM and azsvc disagree on.
const ccmService = `apiVersion: v1
kind: Service
metadata:
  name: orders
  namespace: shop
  uid: 3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-pls-create: "true"
    service.beta.kubernetes.io/azure-pls-ip-configuration-subnet: pls-subnet
spec:
  type: LoadBalancer
  ports:
    - name: https
      protocol: TCP
      port: 443
      nodePort: 31443
`

// ccmWrites sends the requests CCM's EnsureLoadBalancer sends for
// ccmService on a fresh cluster (cloud-provider-azure 7b31c76), in its
// order, with its bodies: the load balancer, then the PLS subnet's policy,
// then the PLS. Only the fields CCM sets are in the bodies.
func ccmWrites(t *testing.T, emu *emulator.Emulator, sub, rg string) {
	t.Helper()
	const prefix = "a3f2a1c9e8b7d4e6fa5b4c3d2e1f0a9b" // "a" + UID without dashes, cut to 32 (ccm-semantics §2.1)
	base := fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/", sub, rg)
	lbID := base + "loadBalancers/aks-prod-weu-internal"
	feID := lbID + "/frontendIPConfigurations/" + prefix
	ruleName := prefix + "-TCP-443"
	vnet := base + "virtualNetworks/aks-vnet"
	putBody(t, emu, lbID, jsonOf(t, map[string]any{
		"location": "westeurope",
		// azure_loadbalancer.go:981-990: a new LB gets sku {Name: Standard}
		// and no tier.
		"sku": map[string]any{"name": "Standard"},
		"properties": map[string]any{
			// azure_loadbalancer.go:2943-2980, 2998-3009: the subnet, Dynamic,
			// the region's zones.
			"frontendIPConfigurations": []any{map[string]any{
				"name": prefix, "id": feID, "zones": []any{"1", "2", "3"},
				"properties": map[string]any{"privateIPAllocationMethod": "Dynamic",
					"subnet": subnetAsRead(t, emu, vnet+"/subnets/aks-subnet")},
			}},
			// azure_loadbalancer_backendpool.go:673-676.
			"backendAddressPools": []any{map[string]any{"name": "aks-prod-weu", "properties": map[string]any{}}},
			// azure_loadbalancer_healthprobe.go:159-198: Tcp on the node port,
			// interval 5 and threshold 2 by default.
			"probes": []any{map[string]any{"name": ruleName, "properties": map[string]any{
				"protocol": "Tcp", "port": 31443, "intervalInSeconds": 5, "probeThreshold": 2}}},
			// azure_loadbalancer.go:3356-3373, 3298-3302.
			"loadBalancingRules": []any{map[string]any{"name": ruleName, "properties": map[string]any{
				"protocol": "Tcp", "frontendPort": 443, "backendPort": 443, "disableOutboundSnat": false,
				"enableFloatingIP": true, "loadDistribution": "Default", "idleTimeoutInMinutes": 4, "enableTcpReset": true,
				"frontendIPConfiguration": map[string]any{"id": feID},
				"backendAddressPool":      map[string]any{"id": lbID + "/backendAddressPools/aks-prod-weu"},
				"probe":                   map[string]any{"id": lbID + "/probes/" + ruleName},
			}}},
		},
	}))
	// azure_privatelinkservice.go:207-244 (disablePLSNetworkPolicy): the
	// subnet as read, with the policy Disabled.
	plsSubnet := subnetAsRead(t, emu, vnet+"/subnets/pls-subnet")
	plsSubnet["properties"].(map[string]any)["privateLinkServiceNetworkPolicies"] = "Disabled"
	putBody(t, emu, vnet+"/subnets/pls-subnet", jsonOf(t, plsSubnet))
	plsName := "pls-" + prefix
	putBody(t, emu, base+"privateLinkServices/"+plsName, jsonOf(t, map[string]any{
		// azure_privatelinkservice.go:136-138: location and empty properties;
		// :333-336 set the frontend, :486-505 one dynamic NAT IP; :514-551
		// leave enableProxyProtocol and fqdns unset when false and empty;
		// :553-590 leave visibility and autoApproval unset when both are
		// empty; reconcilePLSTags (:592-622) the two ownership tags.
		"location": "westeurope",
		"tags":     map[string]any{"k8s-azure-cluster-name": "aks-prod-weu", "k8s-azure-owner-service": "shop/orders"},
		"properties": map[string]any{
			"loadBalancerFrontendIpConfigurations": []any{map[string]any{"id": feID}},
			"ipConfigurations": []any{map[string]any{
				"name": "pls-subnet-" + plsName + "-dynamic-0",
				"properties": map[string]any{"privateIPAllocationMethod": "Dynamic", "primary": true,
					"privateIPAddressVersion": "IPv4", "subnet": map[string]any{"id": vnet + "/subnets/pls-subnet"}},
			}},
		},
	}))
}

// subnetAsRead is a subnet as a GET returns it: CCM embeds the object it
// read (azure_loadbalancer.go:2944 puts the whole subnet in the frontend).
func subnetAsRead(t *testing.T, emu *emulator.Emulator, id string) map[string]any {
	t.Helper()
	rec := serveARM(emu, http.MethodGet, id, "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", id, rec.Code, rec.Body.String())
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlanAdoptsCCMCreateRequests: over the state CCM's own create
// requests leave (an LB without sku.tier, a PLS without visibility or
// auto-approval), azsvc plans nothing (issue 21 items 1 and 2). Before,
// it planned replacing the LB (sku.tier null -> "Regional") and updating
// the PLS.
func TestPlanAdoptsCCMCreateRequests(t *testing.T) {
	cfg := exampleConfig(t)
	in := mustInputs(t, cfg, []byte(ccmService), false)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	ccmWrites(t, tg.Emulator, cfg.SubscriptionForIDs(), cfg.ResourceGroup)
	lb, _ := getBody(t, tg.Emulator, "/subscriptions/"+cfg.SubscriptionForIDs()+"/resourceGroups/"+cfg.ResourceGroup+
		"/providers/Microsoft.Network/loadBalancers/aks-prod-weu-internal")
	if !strings.Contains(lb, `"tier":"Regional"`) {
		t.Errorf("the emulator did not fill ARM's default LB tier: %s", lb)
	}
	requireEmptyPlan(t, in, tg, "plan over CCM's create requests")
}
