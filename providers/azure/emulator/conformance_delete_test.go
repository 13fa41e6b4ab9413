package emulator

import (
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

func TestDeleteProtection(t *testing.T) {
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	if _, err := en.putLB("lb", basicLB("lb")); err != nil {
		t.Fatal(err)
	}
	wantCode(t, en.deletePIP("pip1"), "PublicIPAddressCannotBeDeleted", http.StatusBadRequest)

	nsgs := en.net.NewSecurityGroupsClient()
	_, err := nsgs.BeginDelete(en.ctx, testRG, "nsg", nil)
	wantCode(t, err, "InUseNetworkSecurityGroupCannotBeDeleted", http.StatusBadRequest)

	vnets := en.net.NewVirtualNetworksClient()
	vnet, err := vnets.Get(en.ctx, testRG, "vnet", nil)
	if err != nil {
		t.Fatal(err)
	}
	var kept []*armnetwork.Subnet
	for _, s := range vnet.Properties.Subnets {
		if *s.Name != "nodes" {
			kept = append(kept, s)
		}
	}
	vnet.Properties.Subnets = kept
	_, err = vnets.BeginCreateOrUpdate(en.ctx, testRG, "vnet", vnet.VirtualNetwork, nil)
	wantCode(t, err, "InUseSubnetCannotBeDeleted", http.StatusBadRequest)
	_, err = en.net.NewSubnetsClient().BeginDelete(en.ctx, testRG, "vnet", "nodes", nil)
	wantCode(t, err, "InUseSubnetCannotBeDeleted", http.StatusBadRequest)
	_, err = vnets.BeginDelete(en.ctx, testRG, "vnet", nil)
	wantCode(t, err, "InUseSubnetCannotBeDeleted", http.StatusBadRequest)

	// Order matters, as in CCM: the LB goes first, then its public IP.
	if err := en.deleteLB("lb"); err != nil {
		t.Fatal(err)
	}
	if err := en.deletePIP("pip1"); err != nil {
		t.Fatal(err)
	}
	// Deleting what does not exist succeeds (204).
	if err := en.deletePIP("pip1"); err != nil {
		t.Fatal(err)
	}
	_, err = en.net.NewPublicIPAddressesClient().Get(en.ctx, testRG, "pip1", nil)
	wantCode(t, err, "ResourceNotFound", http.StatusNotFound)
}
