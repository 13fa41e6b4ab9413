package emulator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
)

const (
	testSub      = "00000000-0000-0000-0000-000000000001"
	testRG       = "rg"
	testLocation = "eastus"
)

type fakeCredential struct{}

func (fakeCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "fake-token", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// doer adapts an http.RoundTripper to azcore's policy.Transporter.
type doer struct{ rt http.RoundTripper }

func (d doer) Do(r *http.Request) (*http.Response, error) { return d.rt.RoundTrip(r) }

func clientOptions(rt http.RoundTripper, endpoint string) *arm.ClientOptions {
	return &arm.ClientOptions{ClientOptions: policy.ClientOptions{
		Cloud: cloud.Configuration{
			ActiveDirectoryAuthorityHost: "https://login.emulator.invalid/",
			Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
				cloud.ResourceManager: {Audience: "https://management.azure.com", Endpoint: endpoint},
			},
		},
		Transport: doer{rt},
		Retry:     policy.RetryOptions{MaxRetries: 3, RetryDelay: time.Millisecond, MaxRetryDelay: 20 * time.Millisecond},
	}}
}

// env is one emulator with the SDK clients pointed at it and a baseline:
// resource group rg, VNet vnet (10.0.0.0/16) with subnets nodes and pls
// (PLS network policies disabled), NSG nsg.
type env struct {
	t    *testing.T
	ctx  context.Context
	e    *Emulator
	net  *armnetwork.ClientFactory
	dns  *armprivatedns.ClientFactory
	poll *runtime.PollUntilDoneOptions
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	e, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return newEnvFor(t, e, e.Transport(), Endpoint)
}

func newEnvFor(t *testing.T, e *Emulator, rt http.RoundTripper, endpoint string) *env {
	t.Helper()
	if e != nil {
		if err := e.EnsureBaseline(testSub, testRG, testLocation, "vnet", "10.0.0.0/16",
			map[string]string{"nodes": "10.0.0.0/22", "pls": "10.0.8.0/24", "pe": "10.0.9.0/24"}, "nsg"); err != nil {
			t.Fatal(err)
		}
	}
	nf, err := armnetwork.NewClientFactory(testSub, fakeCredential{}, clientOptions(rt, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	df, err := armprivatedns.NewClientFactory(testSub, fakeCredential{}, clientOptions(rt, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	en := &env{t: t, ctx: context.Background(), e: e, net: nf, dns: df,
		poll: &runtime.PollUntilDoneOptions{Frequency: time.Millisecond}}
	if e != nil {
		en.disablePLSPolicies("pls")
	}
	return en
}

func (en *env) disablePLSPolicies(subnet string) {
	en.t.Helper()
	c := en.net.NewSubnetsClient()
	got, err := c.Get(en.ctx, testRG, "vnet", subnet, nil)
	if err != nil {
		en.t.Fatal(err)
	}
	got.Properties.PrivateLinkServiceNetworkPolicies = to(armnetwork.VirtualNetworkPrivateLinkServiceNetworkPoliciesDisabled)
	p, err := c.BeginCreateOrUpdate(en.ctx, testRG, "vnet", subnet, got.Subnet, nil)
	if err == nil {
		_, err = p.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		en.t.Fatal(err)
	}
}

func to[T any](v T) *T { return &v }

// armCode returns the ARM error code and HTTP status of err, or "" and 0.
func armCode(err error) (string, int) {
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		return re.ErrorCode, re.StatusCode
	}
	return "", 0
}

func wantCode(t *testing.T, err error, code string, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("got success, want %d %s", status, code)
	}
	if c, s := armCode(err); c != code || s != status {
		t.Fatalf("got %d %s, want %d %s: %v", s, c, status, code, err)
	}
}

func id(kind, name string) string {
	return "/subscriptions/" + testSub + "/resourceGroups/" + testRG + "/providers/Microsoft.Network/" + kind + "/" + name
}

func subnetID(name string) string { return id("virtualNetworks", "vnet") + "/subnets/" + name }

// putPIP creates a Standard static public IP through the SDK and waits for it.
func (en *env) putPIP(name string) armnetwork.PublicIPAddress {
	en.t.Helper()
	p, err := en.net.NewPublicIPAddressesClient().BeginCreateOrUpdate(en.ctx, testRG, name, armnetwork.PublicIPAddress{
		Location: to(testLocation),
		SKU:      &armnetwork.PublicIPAddressSKU{Name: to(armnetwork.PublicIPAddressSKUNameStandard)},
		Properties: &armnetwork.PublicIPAddressPropertiesFormat{
			PublicIPAllocationMethod: to(armnetwork.IPAllocationMethodStatic),
		},
	}, nil)
	if err != nil {
		en.t.Fatal(err)
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	if err != nil {
		en.t.Fatal(err)
	}
	return res.PublicIPAddress
}

func (en *env) putLB(name string, lb armnetwork.LoadBalancer) (armnetwork.LoadBalancer, error) {
	lb.Location = to(testLocation)
	if lb.SKU == nil {
		lb.SKU = &armnetwork.LoadBalancerSKU{Name: to(armnetwork.LoadBalancerSKUNameStandard)}
	}
	p, err := en.net.NewLoadBalancersClient().BeginCreateOrUpdate(en.ctx, testRG, name, lb, nil)
	if err != nil {
		return armnetwork.LoadBalancer{}, err
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	return res.LoadBalancer, err
}

func (en *env) getLB(name string) armnetwork.LoadBalancer {
	en.t.Helper()
	res, err := en.net.NewLoadBalancersClient().Get(en.ctx, testRG, name, nil)
	if err != nil {
		en.t.Fatal(err)
	}
	return res.LoadBalancer
}

func (en *env) deleteLB(name string) error {
	p, err := en.net.NewLoadBalancersClient().BeginDelete(en.ctx, testRG, name, nil)
	if err != nil {
		return err
	}
	_, err = p.PollUntilDone(en.ctx, en.poll)
	return err
}

func (en *env) deletePIP(name string) error {
	p, err := en.net.NewPublicIPAddressesClient().BeginDelete(en.ctx, testRG, name, nil)
	if err != nil {
		return err
	}
	_, err = p.PollUntilDone(en.ctx, en.poll)
	return err
}

// Builders for LB children, named as CCM would not care about.
func feInternal(name, ip string) *armnetwork.FrontendIPConfiguration {
	fe := &armnetwork.FrontendIPConfiguration{Name: to(name), Properties: &armnetwork.FrontendIPConfigurationPropertiesFormat{
		Subnet: &armnetwork.Subnet{ID: to(subnetID("nodes"))},
	}}
	if ip != "" {
		fe.Properties.PrivateIPAddress = to(ip)
		fe.Properties.PrivateIPAllocationMethod = to(armnetwork.IPAllocationMethodStatic)
	}
	return fe
}

func fePublic(name, pip string) *armnetwork.FrontendIPConfiguration {
	return &armnetwork.FrontendIPConfiguration{Name: to(name), Properties: &armnetwork.FrontendIPConfigurationPropertiesFormat{
		PublicIPAddress: &armnetwork.PublicIPAddress{ID: to(id("publicIPAddresses", pip))},
	}}
}

func pool(name string) *armnetwork.BackendAddressPool {
	return &armnetwork.BackendAddressPool{Name: to(name)}
}

func probe(name string, port int32) *armnetwork.Probe {
	return &armnetwork.Probe{Name: to(name), Properties: &armnetwork.ProbePropertiesFormat{
		Protocol: to(armnetwork.ProbeProtocolTCP), Port: to(port)}}
}

func rule(lb, name, fe, poolName, probeName string, port int32, floating bool) *armnetwork.LoadBalancingRule {
	r := &armnetwork.LoadBalancingRule{Name: to(name), Properties: &armnetwork.LoadBalancingRulePropertiesFormat{
		FrontendIPConfiguration: &armnetwork.SubResource{ID: to(id("loadBalancers", lb) + "/frontendIPConfigurations/" + fe)},
		Protocol:                to(armnetwork.TransportProtocolTCP),
		FrontendPort:            to(port), BackendPort: to(port),
		EnableFloatingIP: to(floating),
	}}
	if poolName != "" {
		r.Properties.BackendAddressPool = &armnetwork.SubResource{ID: to(id("loadBalancers", lb) + "/backendAddressPools/" + poolName)}
	}
	if probeName != "" {
		r.Properties.Probe = &armnetwork.SubResource{ID: to(id("loadBalancers", lb) + "/probes/" + probeName)}
	}
	return r
}

// seedBasic stores a Basic SKU resource as one made before Azure retired
// the SKU: seeded, since none can be created now.
func (en *env) seedBasic(collection, name string) {
	en.t.Helper()
	body := fmt.Sprintf(`{"id": %q, "location": %q, "sku": {"name": "Basic", "tier": "Regional"}, "properties": {}}`,
		id(collection, name), testLocation)
	if err := en.e.Seed([]byte(body)); err != nil {
		en.t.Fatal(err)
	}
}
