package emulator

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// ilb creates an internal Standard LB with frontends fe0..fe{n-1}.
func (en *env) ilb(name string, n int) {
	en.t.Helper()
	body := armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{}}
	for i := range n {
		body.Properties.FrontendIPConfigurations = append(body.Properties.FrontendIPConfigurations, feInternal(fmt.Sprintf("fe%d", i), ""))
	}
	if _, err := en.putLB(name, body); err != nil {
		en.t.Fatal(err)
	}
}

func plsBody(lb, fe string, natIPs int, subnet string) armnetwork.PrivateLinkService {
	p := armnetwork.PrivateLinkService{Location: to(testLocation), Properties: &armnetwork.PrivateLinkServiceProperties{
		LoadBalancerFrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{{ID: to(id("loadBalancers", lb) + "/frontendIPConfigurations/" + fe)}},
		AutoApproval:                         &armnetwork.PrivateLinkServicePropertiesAutoApproval{Subscriptions: []*string{}},
	}}
	for i := range natIPs {
		p.Properties.IPConfigurations = append(p.Properties.IPConfigurations, &armnetwork.PrivateLinkServiceIPConfiguration{
			Name: to(fmt.Sprintf("nat%d", i)), Properties: &armnetwork.PrivateLinkServiceIPConfigurationProperties{
				Subnet: &armnetwork.Subnet{ID: to(subnetID(subnet))}}})
	}
	return p
}

func (en *env) putPLS(name string, body armnetwork.PrivateLinkService) (armnetwork.PrivateLinkService, error) {
	p, err := en.net.NewPrivateLinkServicesClient().BeginCreateOrUpdate(en.ctx, testRG, name, body, nil)
	if err != nil {
		return armnetwork.PrivateLinkService{}, err
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	return res.PrivateLinkService, err
}

func (en *env) putPE(name, target string, manual bool) (armnetwork.PrivateEndpoint, error) {
	conn := []*armnetwork.PrivateLinkServiceConnection{{Name: to("conn"), Properties: &armnetwork.PrivateLinkServiceConnectionProperties{
		PrivateLinkServiceID: to(target)}}}
	props := &armnetwork.PrivateEndpointProperties{Subnet: &armnetwork.Subnet{ID: to(subnetID("pe"))}}
	if manual {
		props.ManualPrivateLinkServiceConnections = conn
	} else {
		props.PrivateLinkServiceConnections = conn
	}
	p, err := en.net.NewPrivateEndpointsClient().BeginCreateOrUpdate(en.ctx, testRG, name,
		armnetwork.PrivateEndpoint{Location: to(testLocation), Properties: props}, nil)
	if err != nil {
		return armnetwork.PrivateEndpoint{}, err
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	return res.PrivateEndpoint, err
}

func TestPLSRules(t *testing.T) {
	en := newEnv(t, Options{})
	en.ilb("ilb", 10)
	en.putPIP("pip1")
	en.seedBasic("loadBalancers", "pub") // from before Basic was retired
	if _, err := en.putLB("pub", armnetwork.LoadBalancer{SKU: &armnetwork.LoadBalancerSKU{Name: to(armnetwork.LoadBalancerSKUNameBasic)},
		Properties: &armnetwork.LoadBalancerPropertiesFormat{FrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{feInternal("fe0", "")}}}); err != nil {
		t.Fatal(err)
	}
	twoFE := plsBody("ilb", "fe0", 1, "pls")
	twoFE.Properties.LoadBalancerFrontendIPConfigurations = append(twoFE.Properties.LoadBalancerFrontendIPConfigurations,
		&armnetwork.FrontendIPConfiguration{ID: to(id("loadBalancers", "ilb") + "/frontendIPConfigurations/fe1")})
	tests := []struct {
		name string
		body armnetwork.PrivateLinkService
		code string
	}{
		{"basic LB", plsBody("pub", "fe0", 1, "pls"), "PrivateLinkServiceNotSupportedOnNonStandardLoadBalancer"},
		{"two frontends", twoFE, "PrivateLinkServiceMustHaveExactlyOneLoadBalancerFrontendIPConfiguration"},
		{"missing frontend", plsBody("ilb", "nope", 1, "pls"), "InvalidResourceReference"},
		{"no NAT IP", plsBody("ilb", "fe0", 0, "pls"), "PrivateLinkServiceIpConfigurationCountOutOfRange"},
		{"nine NAT IPs", plsBody("ilb", "fe0", 9, "pls"), "PrivateLinkServiceIpConfigurationCountOutOfRange"},
		{"NAT subnet with policies enabled", plsBody("ilb", "fe0", 1, "nodes"), "PrivateLinkServiceCannotBeCreatedInSubnetThatHasNetworkPoliciesEnabled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := en.putPLS("bad", tt.body)
			wantCode(t, err, tt.code, http.StatusBadRequest)
		})
	}
	pls, err := en.putPLS("pls0", plsBody("ilb", "fe0", 8, "pls"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^pls0\.[0-9a-f-]{36}\.eastus\.azure\.privatelinkservice$`).MatchString(*pls.Properties.Alias) {
		t.Fatalf("alias %s", *pls.Properties.Alias)
	}
	if ip := *pls.Properties.IPConfigurations[0].Properties.PrivateIPAddress; ip != "10.0.8.4" {
		t.Fatalf("NAT IP %s", ip)
	}
	_, err = en.putPLS("pls0", plsBody("ilb", "fe1", 1, "pls"))
	wantCode(t, err, "PrivateLinkServiceLoadBalancerFrontendIPConfigurationCannotBeChanged", http.StatusBadRequest)
	for i := 1; i < 8; i++ {
		if _, err := en.putPLS(fmt.Sprintf("pls%d", i), plsBody("ilb", fmt.Sprintf("fe%d", i), 1, "pls")); err != nil {
			t.Fatal(err)
		}
	}
	_, err = en.putPLS("pls8", plsBody("ilb", "fe8", 1, "pls"))
	wantCode(t, err, "MaxPrivateLinkServicesPerLoadBalancerReached", http.StatusBadRequest)

	// The frontend a PLS uses cannot be dropped; the LB cannot be deleted.
	lb := en.getLB("ilb")
	lb.Properties.FrontendIPConfigurations = lb.Properties.FrontendIPConfigurations[1:]
	_, err = en.putLB("ilb", lb)
	wantCode(t, err, "InvalidResourceReference", http.StatusBadRequest)
	wantCode(t, en.deleteLB("ilb"), "CannotDeleteLoadBalancerWithPrivateLinkService", http.StatusBadRequest)
	// Nor can PLS network policies be enabled again on its NAT subnet.
	sub, err := en.net.NewSubnetsClient().Get(en.ctx, testRG, "vnet", "pls", nil)
	if err != nil {
		t.Fatal(err)
	}
	sub.Properties.PrivateLinkServiceNetworkPolicies = to(armnetwork.VirtualNetworkPrivateLinkServiceNetworkPoliciesEnabled)
	_, err = en.net.NewSubnetsClient().BeginCreateOrUpdate(en.ctx, testRG, "vnet", "pls", sub.Subnet, nil)
	wantCode(t, err, "PrivateLinkServiceNetworkPoliciesCannotBeEnabledOnPrivateLinkServiceSubnet", http.StatusBadRequest)
}

func TestPrivateEndpointConnectionLifecycle(t *testing.T) {
	en := newEnv(t, Options{})
	en.ilb("ilb", 2)
	pls, err := en.putPLS("pls", plsBody("ilb", "fe0", 1, "pls"))
	if err != nil {
		t.Fatal(err)
	}
	// Same subscription + automatic connection: approved at once.
	auto, err := en.putPE("pe-auto", *pls.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if s := *auto.Properties.PrivateLinkServiceConnections[0].Properties.PrivateLinkServiceConnectionState.Status; s != "Approved" {
		t.Fatalf("auto connection state %s", s)
	}
	// A manual connection by alias waits for the provider.
	manual, err := en.putPE("pe-manual", *pls.Properties.Alias, true)
	if err != nil {
		t.Fatal(err)
	}
	if s := *manual.Properties.ManualPrivateLinkServiceConnections[0].Properties.PrivateLinkServiceConnectionState.Status; s != "Pending" {
		t.Fatalf("manual connection state %s", s)
	}
	// The PE's IP comes from its subnet, read through $expand=networkInterfaces.
	got, err := en.net.NewPrivateEndpointsClient().Get(en.ctx, testRG, "pe-auto", &armnetwork.PrivateEndpointsClientGetOptions{Expand: to("networkInterfaces")})
	if err != nil {
		t.Fatal(err)
	}
	nic := got.Properties.NetworkInterfaces[0]
	if ip := *nic.Properties.IPConfigurations[0].Properties.PrivateIPAddress; ip != "10.0.9.4" {
		t.Fatalf("PE IP %s", ip)
	}
	if !strings.Contains(*nic.ID, "/networkInterfaces/pe-auto.nic.") {
		t.Fatalf("NIC id %s", *nic.ID)
	}

	plsClient := en.net.NewPrivateLinkServicesClient()
	conns := en.approvePending("pls", 2)
	pe, err := en.net.NewPrivateEndpointsClient().Get(en.ctx, testRG, "pe-manual", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := *pe.Properties.ManualPrivateLinkServiceConnections[0].Properties.PrivateLinkServiceConnectionState.Status; s != "Approved" {
		t.Fatalf("approval not mirrored to the PE: %s", s)
	}

	// A PLS with connections cannot be deleted; deleting them (CPA's safeDeletePLS) makes it possible.
	_, err = plsClient.BeginDelete(en.ctx, testRG, "pls", nil)
	wantCode(t, err, "PrivateLinkServiceWithPrivateEndpointConnectionsCannotBeDeleted", http.StatusBadRequest)
	for _, c := range conns {
		p, err := plsClient.BeginDeletePrivateEndpointConnection(en.ctx, testRG, "pls", *c.Name, nil)
		if err == nil {
			_, err = p.PollUntilDone(en.ctx, en.poll)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	pe, err = en.net.NewPrivateEndpointsClient().Get(en.ctx, testRG, "pe-auto", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := *pe.Properties.PrivateLinkServiceConnections[0].Properties.PrivateLinkServiceConnectionState.Status; s != "Disconnected" {
		t.Fatalf("PE after connection delete: %s", s)
	}
	p, err := plsClient.BeginDelete(en.ctx, testRG, "pls", nil)
	if err == nil {
		_, err = p.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	// Deleting a PE deletes its NIC and frees its IP.
	d, err := en.net.NewPrivateEndpointsClient().BeginDelete(en.ctx, testRG, "pe-auto", nil)
	if err == nil {
		_, err = d.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = en.net.NewInterfacesClient().Get(en.ctx, testRG, *nic.Name, nil)
	wantCode(t, err, "ResourceNotFound", http.StatusNotFound)
}

// An automatic connection from another subscription is approved only when
// that subscription is in the PLS's autoApproval list.
func TestPrivateEndpointAutoApprovalAcrossSubscriptions(t *testing.T) {
	const guest = "00000000-0000-0000-0000-0000000000aa"
	en := newEnv(t, Options{InstantOperations: true})
	en.ilb("ilb", 2)
	if err := en.e.EnsureBaseline(guest, "guest", testLocation, "gvnet", "10.1.0.0/16", map[string]string{"pe": "10.1.0.0/24"}, ""); err != nil {
		t.Fatal(err)
	}
	for i, approved := range []bool{false, true} {
		body := plsBody("ilb", fmt.Sprintf("fe%d", i), 1, "pls")
		if approved {
			body.Properties.AutoApproval.Subscriptions = []*string{to(guest)}
		}
		pls, err := en.putPLS(fmt.Sprintf("pls%d", i), body)
		if err != nil {
			t.Fatal(err)
		}
		pePath := fmt.Sprintf("/subscriptions/%s/resourceGroups/guest/providers/Microsoft.Network/privateEndpoints/pe%d", guest, i)
		w := do(t, en.e, "PUT", pePath+apiVersion, fmt.Sprintf(`{"location":"eastus","properties":{
			"subnet":{"id":"/subscriptions/%s/resourceGroups/guest/providers/Microsoft.Network/virtualNetworks/gvnet/subnets/pe"},
			"privateLinkServiceConnections":[{"name":"c","properties":{"privateLinkServiceId":%q}}]}}`, guest, *pls.ID))
		want := map[bool]string{false: `"status":"Pending"`, true: `"status":"Approved"`}[approved]
		if w.Code != http.StatusCreated || !strings.Contains(w.Body.String(), want) {
			t.Fatalf("autoApproval=%v: %d %s", approved, w.Code, w.Body.String())
		}
	}
}

// approvePending approves the PLS's Pending connections (a synchronous PUT)
// and returns every connection the PLS lists, checking there are want.
func (en *env) approvePending(pls string, want int) []*armnetwork.PrivateEndpointConnection {
	en.t.Helper()
	c := en.net.NewPrivateLinkServicesClient()
	cur, err := c.Get(en.ctx, testRG, pls, nil)
	if err != nil {
		en.t.Fatal(err)
	}
	if n := len(cur.Properties.PrivateEndpointConnections); n != want {
		en.t.Fatalf("PLS lists %d connections, want %d", n, want)
	}
	for _, conn := range cur.Properties.PrivateEndpointConnections {
		if *conn.Properties.PrivateLinkServiceConnectionState.Status != "Pending" {
			continue
		}
		conn.Properties.PrivateLinkServiceConnectionState.Status = to("Approved")
		if _, err := c.UpdatePrivateEndpointConnection(en.ctx, testRG, pls, *conn.Name, *conn, nil); err != nil {
			en.t.Fatal(err)
		}
	}
	return cur.Properties.PrivateEndpointConnections
}
