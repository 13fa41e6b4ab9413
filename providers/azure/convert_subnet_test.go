package azure

import (
	"encoding/json"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/google/go-cmp/cmp"
)

// A subnet as GET returns it, with the server-filled back-references a
// busy AKS subnet has (arm-rules §1.2: subnets have their own endpoint).
const subnetGet = `{
  "id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/pls",
  "name": "pls", "etag": "W/\"e1\"", "type": "Microsoft.Network/virtualNetworks/subnets",
  "properties": {
    "provisioningState": "Succeeded",
    "addressPrefix": "10.225.1.0/24",
    "networkSecurityGroup": {"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/nsg"},
    "routeTable": {"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/routeTables/rt"},
    "serviceEndpoints": [{"service": "Microsoft.Storage", "locations": ["westeurope"], "provisioningState": "Succeeded"}],
    "delegations": [],
    "ipConfigurations": [{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/kubernetes-internal/frontendIPConfigurations/fe"}],
    "privateEndpoints": [{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/privateEndpoints/pe"}],
    "serviceAssociationLinks": [], "resourceNavigationLinks": [], "purpose": "PrivateEndpoints",
    "privateEndpointNetworkPolicies": "Disabled",
    "privateLinkServiceNetworkPolicies": "Enabled"
  }
}`

func TestSubnetFromAndToARM(t *testing.T) {
	var sn armnetwork.Subnet
	if err := json.Unmarshal([]byte(subnetGet), &sn); err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(&sn)
	if err != nil {
		t.Fatal(err)
	}
	res, children, err := FromARM(body)
	if err != nil {
		t.Fatal(err)
	}
	if res.ID.Address() != "vnet/vnet/subnet/pls" || res.Etag != `W/"e1"` || len(children) != 0 {
		t.Fatalf("read %s etag %q with %d children", res.ID.Address(), res.Etag, len(children))
	}
	want := map[string]any{
		"addressPrefix":                     "10.225.1.0/24",
		"networkSecurityGroup":              map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/nsg"},
		"routeTable":                        map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/routeTables/rt"},
		"serviceEndpoints":                  []any{map[string]any{"service": "Microsoft.Storage", "locations": []any{"westeurope"}}},
		"delegations":                       []any{},
		"privateEndpointNetworkPolicies":    "Disabled",
		"privateLinkServiceNetworkPolicies": "Enabled",
	}
	if d := cmp.Diff(want, res.Properties); d != "" {
		t.Errorf("read properties (-want +got):\n%s", d)
	}
	if refs := res.References(); len(refs) != 2 {
		t.Errorf("references = %v, want the NSG and route table only (no back-references)", refs)
	}
	out, err := ToARM(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sent map[string]any
	if err := json.Unmarshal(out, &sent); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"properties": want}, sent); d != "" {
		t.Errorf("write body (-want +got):\n%s", d)
	}
}
