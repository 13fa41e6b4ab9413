package emulator

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// The bodies CCM sends on create (cloud-provider-azure 7b31c76), and what
// ARM answers to them (issue 21 items 1 and 2).

// TestLBDefaultTier: CCM creates a load balancer with sku {name: Standard}
// and no tier (azure_loadbalancer.go:987); ARM answers with its default
// tier, Regional, as it does for public IPs.
func TestLBDefaultTier(t *testing.T) {
	en := newEnv(t, Options{})
	lb, err := en.putLB("kubernetes-internal", armnetwork.LoadBalancer{
		SKU: &armnetwork.LoadBalancerSKU{Name: to(armnetwork.LoadBalancerSKUNameStandard)},
		Properties: &armnetwork.LoadBalancerPropertiesFormat{
			FrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{feInternal("fe0", "")}}})
	if err != nil {
		t.Fatal(err)
	}
	if lb.SKU.Tier == nil || *lb.SKU.Tier != armnetwork.LoadBalancerSKUTierRegional {
		t.Errorf("PUT answered sku %+v, want tier Regional", lb.SKU)
	}
	got, err := en.net.NewLoadBalancersClient().Get(en.ctx, testRG, "kubernetes-internal", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.SKU.Tier == nil || *got.SKU.Tier != armnetwork.LoadBalancerSKUTierRegional {
		t.Errorf("GET answered sku %+v, want tier Regional", got.SKU)
	}
}

// TestReferencesAnsweredAsIDs: CCM puts the whole subnet it read into a new
// internal frontend (azure_loadbalancer.go:2944); ARM stores and answers a
// reference as {"id"} only. So does it for a PLS's frontend and NAT subnet
// references.
func TestReferencesAnsweredAsIDs(t *testing.T) {
	en := newEnv(t, Options{})
	sn, err := en.net.NewSubnetsClient().Get(en.ctx, testRG, "vnet", "nodes", nil)
	if err != nil {
		t.Fatal(err)
	}
	fe := feInternal("fe0", "")
	fe.Properties.Subnet = &sn.Subnet
	if _, err := en.putLB("lb", armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{
		FrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{fe}}}); err != nil {
		t.Fatal(err)
	}
	body := plsBody("lb", "fe0", 1, "pls")
	body.Properties.IPConfigurations[0].Properties.Subnet.Properties = &armnetwork.SubnetPropertiesFormat{AddressPrefix: to("10.0.8.0/24")}
	body.Properties.LoadBalancerFrontendIPConfigurations[0].Name = to("fe0")
	if _, err := en.putPLS("pls", body); err != nil {
		t.Fatal(err)
	}
	lb := rawGet(t, en, id("loadBalancers", "lb"))
	feProps := firstItem(t, lb, "frontendIPConfigurations")["properties"].(map[string]any)
	pls := rawGet(t, en, id("privateLinkServices", "pls"))
	natProps := firstItem(t, pls, "ipConfigurations")["properties"].(map[string]any)
	for what, ref := range map[string]any{
		"frontend subnet": feProps["subnet"],
		"PLS frontend":    firstItem(t, pls, "loadBalancerFrontendIpConfigurations"),
		"PLS NAT subnet":  natProps["subnet"],
	} {
		if m, ok := ref.(map[string]any); !ok || len(m) != 1 || m["id"] == nil {
			t.Errorf("%s answered as %v, want only its id", what, ref)
		}
	}
}

// TestPLSWithoutVisibility: CCM creates a PLS without visibility and
// autoApproval when the Service sets neither (azure_privatelinkservice.go
// :553-590 leaves both nil). ARM answers without them too: a PLS PUT
// without them (api-version 2021-02-01, Azure PowerShell's recorded
// TestPrivateLinkServiceInEdgeZone) was answered, and read back, with
// neither field. The emulator adds nothing there.
func TestPLSWithoutVisibility(t *testing.T) {
	en := newEnv(t, Options{})
	en.ilb("ilb", 1)
	body := plsBody("ilb", "fe0", 1, "pls")
	body.Properties.AutoApproval = nil
	if _, err := en.putPLS("pls", body); err != nil {
		t.Fatal(err)
	}
	props := rawGet(t, en, id("privateLinkServices", "pls"))["properties"].(map[string]any)
	for _, f := range []string{"visibility", "autoApproval"} {
		if v, ok := props[f]; ok {
			t.Errorf("GET answers %s = %v for a PLS created without it", f, v)
		}
	}
}

// rawGet returns a resource as the wire carries it, so an absent field
// and a null one are told apart.
func rawGet(t *testing.T, en *env, path string) map[string]any {
	t.Helper()
	w := do(t, en.e, http.MethodGet, path+apiVersion, "")
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, w.Code, w.Body.String())
	}
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func firstItem(t *testing.T, m map[string]any, list string) map[string]any {
	t.Helper()
	items, _ := m["properties"].(map[string]any)[list].([]any)
	if len(items) == 0 {
		t.Fatalf("%s: no %s", m["id"], list)
	}
	return items[0].(map[string]any)
}
