package emulator

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// A public IP carved from a public IP prefix needs the prefix: ARM refuses
// one that does not exist (ResourceNotFound, Azure/azure-cli#24377), and
// gives an address from the prefix otherwise. Prefixes are seeded, never
// written: azsvc only reads them.
func TestPublicIPFromPrefix(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	prefix := id("publicIPPrefixes", "web-prefix")
	put := func(name, prefixID string) (armnetwork.PublicIPAddress, error) {
		p, err := en.net.NewPublicIPAddressesClient().BeginCreateOrUpdate(en.ctx, testRG, name, armnetwork.PublicIPAddress{
			Location: to(testLocation),
			SKU:      &armnetwork.PublicIPAddressSKU{Name: to(armnetwork.PublicIPAddressSKUNameStandard)},
			Properties: &armnetwork.PublicIPAddressPropertiesFormat{
				PublicIPAllocationMethod: to(armnetwork.IPAllocationMethodStatic),
				PublicIPAddressVersion:   to(armnetwork.IPVersionIPv6),
				PublicIPPrefix:           &armnetwork.SubResource{ID: to(prefixID)},
			},
		}, nil)
		if err != nil {
			return armnetwork.PublicIPAddress{}, err
		}
		res, err := p.PollUntilDone(en.ctx, en.poll)
		return res.PublicIPAddress, err
	}
	_, err := put("from-missing", prefix)
	wantCode(t, err, "ResourceNotFound", http.StatusNotFound)
	if w := do(t, en.e, "GET", id("publicIPAddresses", "from-missing")+apiVersion, ""); w.Code != http.StatusNotFound {
		t.Fatalf("the refused public IP exists: %d", w.Code)
	}

	if err := en.e.Seed([]byte(`{"id": "` + prefix + `", "location": "` + testLocation + `", "sku": {"name": "Standard"},
	  "properties": {"prefixLength": 126, "publicIPAddressVersion": "IPv6", "ipPrefix": "2603:1020:206:4::/126"}}`)); err != nil {
		t.Fatal(err)
	}
	pfx := netip.MustParsePrefix("2603:1020:206:4::/126")
	seen := map[string]bool{}
	for _, name := range []string{"a", "b", "c", "d"} {
		pip, err := put(name, prefix)
		if err != nil {
			t.Fatalf("public IP %s from the prefix: %v", name, err)
		}
		addr := *pip.Properties.IPAddress
		if !pfx.Contains(netip.MustParseAddr(addr)) || seen[addr] {
			t.Fatalf("public IP %s got %s, want a free address of %s", name, addr, pfx)
		}
		seen[addr] = true
	}
	_, err = put("e", prefix)
	wantCode(t, err, "PublicIPPrefixAllIpsAllocated", http.StatusBadRequest)
	w := do(t, en.e, "PUT", prefix+apiVersion, `{"location":"`+testLocation+`"}`, "Content-Type", "application/json")
	if w.Code != http.StatusMethodNotAllowed || !strings.Contains(w.Body.String(), "MethodNotAllowed") {
		t.Fatalf("PUT of a prefix: %d %s", w.Code, w.Body)
	}
}
