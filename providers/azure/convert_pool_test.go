package azure

import (
	"encoding/json"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
)

// TestPoolMembersRoundTrip: the members of an IP-based pool
// (arm-examples/LBBackendAddressPoolWithBackendAddressesPut.json) read into
// the pool resource without ARM's ids, and write back as they were, so a
// converged plan compares them equal.
func TestPoolMembersRoundTrip(t *testing.T) {
	var pool armnetwork.BackendAddressPool
	if err := json.Unmarshal(exampleBody(t, "LBBackendAddressPoolWithBackendAddressesPut.json", &armnetwork.BackendAddressPool{}), &pool); err != nil {
		t.Fatal(err)
	}
	var lb armnetwork.LoadBalancer
	if err := json.Unmarshal(exampleBody(t, "LoadBalancerCreateStandardSku.json", &armnetwork.LoadBalancer{}), &lb); err != nil {
		t.Fatal(err)
	}
	lb.Properties.BackendAddressPools[0].Properties.LoadBalancerBackendAddresses = pool.Properties.LoadBalancerBackendAddresses
	body, err := json.Marshal(lb)
	if err != nil {
		t.Fatal(err)
	}
	res, children, err := FromARM(body)
	if err != nil {
		t.Fatal(err)
	}
	var got *plan.Resource
	for _, c := range children {
		if c.Kind() == plan.KindBackendPool {
			got = c
		}
	}
	vnet := map[string]any{"id": "/subscriptions/subid/resourceGroups/rg1/providers/Microsoft.Network/virtualNetworks/vnetlb"}
	want := []any{
		map[string]any{"name": "address1", "properties": map[string]any{"ipAddress": "10.0.0.4", "virtualNetwork": vnet}},
		map[string]any{"name": "address2", "properties": map[string]any{"ipAddress": "10.0.0.5", "virtualNetwork": vnet}},
	}
	if diff := cmp.Diff(want, got.Properties[plan.PoolMembersField]); diff != "" {
		t.Fatalf("members (-want +got):\n%s", diff)
	}
	if ips := plan.AsBackendPool(got).Addresses(); len(ips) != 2 || ips[1] != "10.0.0.5" {
		t.Errorf("addresses %v", ips)
	}
	out, err := ToARM(res, children)
	if err != nil {
		t.Fatal(err)
	}
	var written armnetwork.LoadBalancer
	if err := json.Unmarshal(out, &written); err != nil {
		t.Fatal(err)
	}
	m := written.Properties.BackendAddressPools[0].Properties.LoadBalancerBackendAddresses
	if len(m) != 2 || *m[0].Name != "address1" || *m[1].Properties.IPAddress != "10.0.0.5" || *m[1].Properties.VirtualNetwork.ID != vnet["id"] {
		t.Errorf("written members %+v", m)
	}
}
