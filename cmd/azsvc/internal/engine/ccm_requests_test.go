package engine

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

// ccmServices are an internal Service with a Private Link Service and none
// of the PLS settings (no visibility, no auto-approval, no FQDNs, no proxy
// protocol), and a public one: the cases issue 21 items 1 and 2 found CCM
// and azsvc disagree on.
const ccmServices = `apiVersion: v1
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
  ports: [{name: https, protocol: TCP, port: 443, nodePort: 31443}]
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  uid: 9e1d4c7b-3a2f-4b6e-8d5c-1f0a2b3c4d5e
spec:
  type: LoadBalancer
  ports: [{name: http, protocol: TCP, port: 80, nodePort: 30080}]
`

// ccmRequests sends the requests CCM's EnsureLoadBalancer sends for
// ccmServices on a fresh cluster (cloud-provider-azure 7b31c76), in its
// order, with only the fields CCM sets. Every ARM client copies a body's
// etag into If-Match (ccm-semantics §7.1); these bodies have none.
type ccmRequests struct {
	t    *testing.T
	emu  *emulator.Emulator
	base string // .../resourceGroups/<rg>/providers/Microsoft.Network/
}

// newLB is a load balancer as CCM creates it for one Service with one TCP
// port: azure_loadbalancer.go:981-990 (sku {Name: Standard}, no tier),
// azure_loadbalancer_backendpool.go:673-676 (the cluster's pool),
// azure_loadbalancer_healthprobe.go:159-198 (a Tcp probe on the node port,
// interval 5 and threshold 2), azure_loadbalancer.go:3356-3373 and
// :3298-3302 (the rule).
func (c ccmRequests) newLB(lbID string, frontend map[string]any, port, nodePort int) map[string]any {
	name := frontend["name"].(string)
	rule := fmt.Sprintf("%s-TCP-%d", name, port)
	return map[string]any{
		"location": "westeurope",
		"sku":      map[string]any{"name": "Standard"},
		"properties": map[string]any{
			"frontendIPConfigurations": []any{frontend},
			"backendAddressPools":      []any{map[string]any{"name": "aks-prod-weu", "properties": map[string]any{}}},
			"probes": []any{map[string]any{"name": rule, "properties": map[string]any{
				"protocol": "Tcp", "port": nodePort, "intervalInSeconds": 5, "probeThreshold": 2}}},
			"loadBalancingRules": []any{map[string]any{"name": rule, "properties": map[string]any{
				"protocol": "Tcp", "frontendPort": port, "backendPort": port, "disableOutboundSnat": false,
				"enableFloatingIP": true, "loadDistribution": "Default", "idleTimeoutInMinutes": 4, "enableTcpReset": true,
				"frontendIPConfiguration": map[string]any{"id": lbID + "/frontendIPConfigurations/" + name},
				"backendAddressPool":      map[string]any{"id": lbID + "/backendAddressPools/aks-prod-weu"},
				"probe":                   map[string]any{"id": lbID + "/probes/" + rule},
			}}},
		},
	}
}

// internal is shop/orders: its load balancer, its PLS subnet's policy,
// its PLS.
func (c ccmRequests) internal() {
	const prefix = "a3f2a1c9e8b7d4e6fa5b4c3d2e1f0a9b" // "a" + UID without dashes, cut to 32 (ccm-semantics §2.1)
	lbID := c.base + "loadBalancers/aks-prod-weu-internal"
	vnet := c.base + "virtualNetworks/aks-vnet"
	// azure_loadbalancer.go:2943-2980, 2998-3009: the whole subnet as read,
	// Dynamic, the region's zones.
	putBody(c.t, c.emu, lbID, jsonOf(c.t, c.newLB(lbID, map[string]any{
		"name": prefix, "id": lbID + "/frontendIPConfigurations/" + prefix, "zones": []any{"1", "2", "3"},
		"properties": map[string]any{"privateIPAllocationMethod": "Dynamic", "subnet": c.get(vnet + "/subnets/aks-subnet")},
	}, 443, 31443)))
	// azure_privatelinkservice.go:207-244 (disablePLSNetworkPolicy): the
	// subnet as read, with the policy Disabled.
	plsSubnet := c.get(vnet + "/subnets/pls-subnet")
	plsSubnet["properties"].(map[string]any)["privateLinkServiceNetworkPolicies"] = "Disabled"
	putBody(c.t, c.emu, vnet+"/subnets/pls-subnet", jsonOf(c.t, plsSubnet))
	plsName := "pls-" + prefix
	putBody(c.t, c.emu, c.base+"privateLinkServices/"+plsName, jsonOf(c.t, map[string]any{
		// azure_privatelinkservice.go:136-138: location and empty properties;
		// :333-336 set the frontend, :486-505 one dynamic NAT IP; :514-551
		// leave enableProxyProtocol and fqdns unset when false and empty;
		// :553-590 leave visibility and autoApproval unset when both are
		// empty; reconcilePLSTags (:592-622) the two ownership tags.
		"location": "westeurope",
		"tags":     map[string]any{"k8s-azure-cluster-name": "aks-prod-weu", "k8s-azure-owner-service": "shop/orders"},
		"properties": map[string]any{
			"loadBalancerFrontendIpConfigurations": []any{map[string]any{"id": lbID + "/frontendIPConfigurations/" + prefix}},
			"ipConfigurations": []any{map[string]any{
				"name": "pls-subnet-" + plsName + "-dynamic-0",
				"properties": map[string]any{"privateIPAllocationMethod": "Dynamic", "primary": true,
					"privateIPAddressVersion": "IPv4", "subnet": map[string]any{"id": vnet + "/subnets/pls-subnet"}},
			}},
		},
	}))
}

// public is shop/web: its public IP, its load balancer, its NSG rule.
func (c ccmRequests) public() {
	const prefix = "a9e1d4c7b3a2f4b6e8d5c1f0a2b3c4d5"
	pipID := c.base + "publicIPAddresses/aks-prod-weu-" + prefix
	// azure_loadbalancer.go:1317-1365: Static, IPv4, the two tags, sku
	// {Name: Standard} (no tier), the region's zones.
	putBody(c.t, c.emu, pipID, jsonOf(c.t, map[string]any{
		"location": "westeurope", "zones": []any{"1", "2", "3"},
		"tags":       map[string]any{"k8s-azure-service": "shop/web", "k8s-azure-cluster-name": "aks-prod-weu"},
		"sku":        map[string]any{"name": "Standard"},
		"properties": map[string]any{"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4"},
	}))
	lbID := c.base + "loadBalancers/aks-prod-weu"
	// azure_loadbalancer.go:2993-3002: the public IP by ID, no zones.
	putBody(c.t, c.emu, lbID, jsonOf(c.t, c.newLB(lbID, map[string]any{
		"name": prefix, "id": lbID + "/frontendIPConfigurations/" + prefix,
		"properties": map[string]any{"publicIPAddress": map[string]any{"id": pipID}},
	}, 80, 30080)))
	// securitygroup/securitygroup.go:166-203 (addAllowRule) on the NSG as
	// read: the name hashes protocol, sources and ports
	// (securityrule.go GenerateAllowSecurityRuleName), priority 500 is the
	// first free one.
	ip := c.get(pipID)["properties"].(map[string]any)["ipAddress"]
	sum := md5.Sum([]byte("Tcp_Internet_80"))
	nsgID := c.base + "networkSecurityGroups/aks-agentpool-nsg"
	nsg := c.get(nsgID)
	props := nsg["properties"].(map[string]any)
	rules, _ := props["securityRules"].([]any)
	props["securityRules"] = append(rules, map[string]any{
		"name": "k8s-azure-lb_allow_IPv4_" + hex.EncodeToString(sum[:]),
		"properties": map[string]any{"protocol": "Tcp", "access": "Allow", "direction": "Inbound", "priority": 500,
			"sourceAddressPrefix": "Internet", "sourcePortRange": "*",
			"destinationAddressPrefix": ip, "destinationPortRanges": []any{"80"}},
	})
	delete(nsg, "etag")
	putBody(c.t, c.emu, nsgID, jsonOf(c.t, nsg))
}

// get is a resource as a GET returns it: CCM builds on the objects it read
// (azure_loadbalancer.go:2944 puts the whole subnet in the frontend).
func (c ccmRequests) get(id string) map[string]any {
	c.t.Helper()
	rec := serveARM(c.emu, http.MethodGet, id, "")
	if rec.Code != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", id, rec.Code, rec.Body.String())
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		c.t.Fatal(err)
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
// requests leave (load balancers without sku.tier, a PLS without
// visibility or auto-approval), azsvc plans nothing (issue 21 items 1 and
// 2). Before, it planned replacing each LB (sku.tier null -> "Regional")
// and updating the PLS.
func TestPlanAdoptsCCMCreateRequests(t *testing.T) {
	cfg := exampleConfig(t)
	in := mustInputs(t, cfg, []byte(ccmServices), false)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	c := ccmRequests{t: t, emu: tg.Emulator,
		base: fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/", cfg.SubscriptionForIDs(), cfg.ResourceGroup)}
	c.internal()
	c.public()
	for _, lb := range []string{"aks-prod-weu-internal", "aks-prod-weu"} {
		if sku := c.get(c.base + "loadBalancers/" + lb)["sku"]; fmt.Sprint(sku) != "map[name:Standard tier:Regional]" {
			t.Errorf("the emulator answers LB %s with sku %v, not ARM's default tier", lb, sku)
		}
	}
	p := mustPlan(t, in, tg)
	requireEmpty(t, "plan over CCM's create requests", p)
	var text bytes.Buffer
	if err := planview.Text(&text, View(p, in, tg, []string{"services.yaml"}), style.New(false)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "No changes.") {
		t.Errorf("azsvc plan does not say No changes.:\n%s", text.String())
	}
}
