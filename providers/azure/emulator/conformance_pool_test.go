package emulator

import (
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

func ipMember(name, ip string) *armnetwork.LoadBalancerBackendAddress {
	return &armnetwork.LoadBalancerBackendAddress{Name: to(name), Properties: &armnetwork.LoadBalancerBackendAddressPropertiesFormat{IPAddress: to(ip)}}
}

// TestLBPoolMembers: IP-based pool members as NRP validates them, in an
// LB PUT and in a pool PUT, and read back as written (CCM's shape: the
// virtualNetwork on the pool, members named after their node).
func TestLBPoolMembers(t *testing.T) {
	vnet := &armnetwork.SubResource{ID: to(id("virtualNetworks", "vnet"))}
	ccmShaped := func(p *armnetwork.BackendAddressPool) {
		p.Properties.VirtualNetwork = vnet
		p.Properties.LoadBalancerBackendAddresses = []*armnetwork.LoadBalancerBackendAddress{ipMember("aks-np-0", "10.0.0.4"), ipMember("aks-np-1", "10.0.0.5")}
	}
	tests := []struct {
		name   string
		mutate func(*armnetwork.BackendAddressPool)
		code   string
	}{
		{"CCM-shaped members", ccmShaped, ""},
		{"member-level virtual network", func(p *armnetwork.BackendAddressPool) {
			m := ipMember("a", "10.0.0.4")
			m.Properties.VirtualNetwork = vnet
			p.Properties.LoadBalancerBackendAddresses = []*armnetwork.LoadBalancerBackendAddress{m}
		}, ""},
		{"not an address", func(p *armnetwork.BackendAddressPool) {
			ccmShaped(p)
			p.Properties.LoadBalancerBackendAddresses[1].Properties.IPAddress = to("10.0.0")
		}, "InvalidIPAddressInBackendAddressPool"},
		{"same address twice", func(p *armnetwork.BackendAddressPool) {
			ccmShaped(p)
			p.Properties.LoadBalancerBackendAddresses[1].Properties.IPAddress = to("10.0.0.4")
		}, "DuplicateIpAddressInBackendAddressPool"},
		{"same name twice", func(p *armnetwork.BackendAddressPool) {
			ccmShaped(p)
			p.Properties.LoadBalancerBackendAddresses[1].Name = to("AKS-NP-0")
		}, "DuplicateResourceName"},
		{"no name", func(p *armnetwork.BackendAddressPool) {
			ccmShaped(p)
			p.Properties.LoadBalancerBackendAddresses[0].Name = nil
		}, "InvalidRequestFormat"},
		{"virtual network that does not exist", func(p *armnetwork.BackendAddressPool) {
			ccmShaped(p)
			p.Properties.VirtualNetwork = &armnetwork.SubResource{ID: to(id("virtualNetworks", "gone"))}
		}, "InvalidResourceReference"},
		{"no virtual network", func(p *armnetwork.BackendAddressPool) {
			p.Properties.LoadBalancerBackendAddresses = []*armnetwork.LoadBalancerBackendAddress{ipMember("a", "10.0.0.4")}
		}, "BackendAddressWithoutVirtualNetwork"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			en := newEnv(t, Options{})
			en.putPIP("pip1")
			body := basicLB("lb")
			body.Properties.BackendAddressPools[0].Properties = &armnetwork.BackendAddressPoolPropertiesFormat{}
			tt.mutate(body.Properties.BackendAddressPools[0])
			_, err := en.putLB("lb", body)
			if tt.code != "" {
				wantCode(t, err, tt.code, http.StatusBadRequest)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := en.getLB("lb").Properties.BackendAddressPools[0].Properties
			want := body.Properties.BackendAddressPools[0].Properties.LoadBalancerBackendAddresses
			if len(got.LoadBalancerBackendAddresses) != len(want) {
				t.Fatalf("read back %d members, want %d", len(got.LoadBalancerBackendAddresses), len(want))
			}
			for i, m := range got.LoadBalancerBackendAddresses {
				if *m.Name != *want[i].Name || *m.Properties.IPAddress != *want[i].Properties.IPAddress {
					t.Errorf("member %d: %s %s", i, *m.Name, *m.Properties.IPAddress)
				}
			}
		})
	}
	// The pool's own endpoint validates the same way.
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	if _, err := en.putLB("lb", basicLB("lb")); err != nil {
		t.Fatal(err)
	}
	p := pool("kubernetes")
	p.Properties = &armnetwork.BackendAddressPoolPropertiesFormat{LoadBalancerBackendAddresses: []*armnetwork.LoadBalancerBackendAddress{ipMember("a", "fd00::1"), ipMember("b", "fd00:0::1")}, VirtualNetwork: vnet}
	_, err := en.net.NewLoadBalancerBackendAddressPoolsClient().BeginCreateOrUpdate(en.ctx, testRG, "lb", "kubernetes", *p, nil)
	wantCode(t, err, "DuplicateIpAddressInBackendAddressPool", http.StatusBadRequest)
}
