package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

func basicLB(lb string) armnetwork.LoadBalancer {
	return armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{
		FrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{fePublic("fe1", "pip1"), feInternal("fe2", "")},
		BackendAddressPools:      []*armnetwork.BackendAddressPool{pool("kubernetes")},
		Probes:                   []*armnetwork.Probe{probe("p1", 30000)},
		LoadBalancingRules: []*armnetwork.LoadBalancingRule{
			rule(lb, "r1", "fe1", "kubernetes", "p1", 80, true),
			rule(lb, "r2", "fe2", "kubernetes", "p1", 443, false),
		},
	}}
}

func TestLBServerAssignedFields(t *testing.T) {
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	lb, err := en.putLB("kubernetes", basicLB("kubernetes"))
	if err != nil {
		t.Fatal(err)
	}
	lbID := id("loadBalancers", "kubernetes")
	if *lb.ID != lbID || *lb.Type != "Microsoft.Network/loadBalancers" || !strings.HasPrefix(*lb.Etag, `W/"`) {
		t.Fatalf("id/type/etag: %s %s %s", *lb.ID, *lb.Type, *lb.Etag)
	}
	if *lb.Properties.ProvisioningState != armnetwork.ProvisioningStateSucceeded {
		t.Fatalf("provisioningState %s", *lb.Properties.ProvisioningState)
	}
	fe1, fe2 := lb.Properties.FrontendIPConfigurations[0], lb.Properties.FrontendIPConfigurations[1]
	if *fe1.ID != lbID+"/frontendIPConfigurations/fe1" || *fe1.Etag != *lb.Etag {
		t.Fatalf("child id/etag: %s %s", *fe1.ID, *fe1.Etag)
	}
	if got := *fe2.Properties.PrivateIPAddress; got != "10.0.0.4" {
		t.Fatalf("dynamic private IP = %s, want 10.0.0.4 (first 4 addresses are reserved)", got)
	}
	if len(fe1.Properties.LoadBalancingRules) != 1 || *fe1.Properties.LoadBalancingRules[0].ID != lbID+"/loadBalancingRules/r1" {
		t.Fatalf("frontend back-reference: %+v", fe1.Properties.LoadBalancingRules)
	}
	if n := len(lb.Properties.BackendAddressPools[0].Properties.LoadBalancingRules); n != 2 {
		t.Fatalf("pool back-references = %d, want 2", n)
	}
	if n := len(lb.Properties.Probes[0].Properties.LoadBalancingRules); n != 2 {
		t.Fatalf("probe back-references = %d, want 2", n)
	}
	pip, err := en.net.NewPublicIPAddressesClient().Get(en.ctx, testRG, "pip1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if pip.Properties.IPConfiguration == nil || *pip.Properties.IPConfiguration.ID != *fe1.ID {
		t.Fatalf("PIP ipConfiguration back-reference = %+v, want %s", pip.Properties.IPConfiguration, *fe1.ID)
	}

	// A second write renews every etag and keeps the dynamic IP.
	again, err := en.putLB("kubernetes", lb)
	if err != nil {
		t.Fatal(err)
	}
	if *again.Etag == *lb.Etag || *again.Properties.Probes[0].Etag == *lb.Properties.Probes[0].Etag {
		t.Fatalf("etags not renewed: %s %s", *again.Etag, *again.Properties.Probes[0].Etag)
	}
	if got := *again.Properties.FrontendIPConfigurations[1].Properties.PrivateIPAddress; got != "10.0.0.4" {
		t.Fatalf("dynamic IP changed on update: %s", got)
	}
}

func TestLBWholeBodyValidation(t *testing.T) {
	lbID := id("loadBalancers", "lb")
	tests := []struct {
		name   string
		mutate func(*armnetwork.LoadBalancerPropertiesFormat)
		code   string
	}{
		{"dangling probe", func(p *armnetwork.LoadBalancerPropertiesFormat) { p.Probes = nil }, "InvalidResourceReference"},
		{"dangling frontend", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.LoadBalancingRules[0].Properties.FrontendIPConfiguration.ID = to(lbID + "/frontendIPConfigurations/nope")
		}, "InvalidResourceReference"},
		{"dangling pool", func(p *armnetwork.LoadBalancerPropertiesFormat) { p.BackendAddressPools = nil }, "InvalidResourceReference"},
		{"dangling public IP", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.FrontendIPConfigurations[0] = fePublic("fe1", "missing")
		}, "InvalidResourceReference"},
		{"dangling subnet", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.FrontendIPConfigurations[1].Properties.Subnet.ID = to(subnetID("missing"))
		}, "InvalidResourceReference"},
		{"subnet and public IP", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.FrontendIPConfigurations[0].Properties.Subnet = &armnetwork.Subnet{ID: to(subnetID("nodes"))}
		}, "FrontendIPConfigHasBothSubnetAndPublicIP"},
		{"same private IP twice", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.FrontendIPConfigurations = append(p.FrontendIPConfigurations, feInternal("fe3", "10.0.1.10"), feInternal("fe4", "10.0.1.10"))
		}, "MultipleIpConfigsRequestSamePrivateIpAddress"},
		{"same backend port, floating IP off", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.LoadBalancingRules = append(p.LoadBalancingRules, rule("lb", "r3", "fe1", "kubernetes", "p1", 443, false))
			p.LoadBalancingRules[2].Properties.FrontendPort = to[int32](8443)
		}, "RulesUseSameBackendPortProtocolAndPool"},
		{"frontend port reused", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.LoadBalancingRules = append(p.LoadBalancingRules, rule("lb", "r3", "fe1", "kubernetes", "p1", 80, true))
		}, "RulesUseSameFrontendIPConfigurationProtocolAndPort"},
		{"static IP outside subnet", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.FrontendIPConfigurations[1] = feInternal("fe2", "10.9.0.10")
		}, "PrivateIPAddressNotInSubnet"},
		{"rules without frontend", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.FrontendIPConfigurations = nil
		}, "LoadBalancerWithoutFrontendIPCantHaveChildResources"},
		{"too many frontends", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			for i := range 600 {
				p.FrontendIPConfigurations = append(p.FrontendIPConfigurations, feInternal(fmt.Sprintf("x%d", i), ""))
			}
		}, "LoadBalancerFrontendIPConfigurationCountLimitReached"},
		{"Http probe without path", func(p *armnetwork.LoadBalancerPropertiesFormat) {
			p.Probes[0].Properties.Protocol = to(armnetwork.ProbeProtocolHTTP)
		}, "InvalidRequestFormat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			en := newEnv(t, Options{})
			en.putPIP("pip1")
			body := basicLB("lb")
			tt.mutate(body.Properties)
			_, err := en.putLB("lb", body)
			wantCode(t, err, tt.code, http.StatusBadRequest)
			if _, err := en.net.NewLoadBalancersClient().Get(en.ctx, testRG, "lb", nil); err == nil {
				t.Fatal("a rejected PUT created the load balancer")
			}
		})
	}
}

func TestLBFloatingIPRulesShareBackendPort(t *testing.T) {
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	body := basicLB("lb")
	r3 := rule("lb", "r3", "fe1", "kubernetes", "p1", 8443, true)
	r3.Properties.BackendPort = to[int32](80)
	body.Properties.LoadBalancingRules = append(body.Properties.LoadBalancingRules, r3)
	if _, err := en.putLB("lb", body); err != nil {
		t.Fatalf("floating-IP rules sharing pool and backend port must be accepted (CCM default): %v", err)
	}
}

func TestLBPublicIPSkuMismatchAndReuse(t *testing.T) {
	en := newEnv(t, Options{})
	// A Basic public IP from before the retirement (seeded: none can be created now).
	en.seedBasic("publicIPAddresses", "basic")
	body := armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{
		FrontendIPConfigurations: []*armnetwork.FrontendIPConfiguration{fePublic("fe1", "basic")}}}
	_, err := en.putLB("lb", body)
	wantCode(t, err, "DifferentSkuLoadBalancersAndPublicIPAddressNotAllowed", http.StatusBadRequest)

	en.putPIP("pip1")
	body.Properties.FrontendIPConfigurations = []*armnetwork.FrontendIPConfiguration{fePublic("fe1", "pip1")}
	if _, err := en.putLB("lb", body); err != nil {
		t.Fatal(err)
	}
	_, err = en.putLB("other", body)
	wantCode(t, err, "PublicIPAddressInUse", http.StatusBadRequest)
}

func TestLBDropReferencedChildKeepsState(t *testing.T) {
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	lb, err := en.putLB("lb", basicLB("lb"))
	if err != nil {
		t.Fatal(err)
	}
	lb.Properties.Probes = nil
	_, err = en.putLB("lb", lb)
	wantCode(t, err, "InvalidResourceReference", http.StatusBadRequest)
	if got := en.getLB("lb"); len(got.Properties.Probes) != 1 || *got.Etag != *lb.Etag {
		t.Fatal("a rejected PUT changed the load balancer")
	}
	// Dropping a Service's frontend, rules and probe together is how CCM removes it.
	lb.Properties.Probes = nil
	lb.Properties.LoadBalancingRules = nil
	lb.Properties.FrontendIPConfigurations = lb.Properties.FrontendIPConfigurations[:1]
	if _, err := en.putLB("lb", lb); err != nil {
		t.Fatal(err)
	}
}

func TestLBBackendPoolChildWrites(t *testing.T) {
	en := newEnv(t, Options{})
	en.putPIP("pip1")
	if _, err := en.putLB("lb", basicLB("lb")); err != nil {
		t.Fatal(err)
	}
	pools := en.net.NewLoadBalancerBackendAddressPoolsClient()
	p, err := pools.BeginCreateOrUpdate(en.ctx, testRG, "lb", "ip-pool", armnetwork.BackendAddressPool{
		Properties: &armnetwork.BackendAddressPoolPropertiesFormat{LoadBalancerBackendAddresses: []*armnetwork.LoadBalancerBackendAddress{{
			Name: to("pod1"), Properties: &armnetwork.LoadBalancerBackendAddressPropertiesFormat{
				IPAddress: to("10.0.0.50"), VirtualNetwork: &armnetwork.SubResource{ID: to(id("virtualNetworks", "vnet"))}}}}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	created, err := p.PollUntilDone(en.ctx, en.poll)
	if err != nil {
		t.Fatal(err)
	}
	if *created.ID != id("loadBalancers", "lb")+"/backendAddressPools/ip-pool" || *created.Etag != *en.getLB("lb").Etag {
		t.Fatalf("pool id/etag: %s %s", *created.ID, *created.Etag)
	}
	// The pool the rules use cannot go: the LB is validated as a whole.
	dp, err := pools.BeginDelete(en.ctx, testRG, "lb", "kubernetes", nil)
	wantCode(t, err, "InvalidResourceReference", http.StatusBadRequest)
	if dp != nil {
		t.Fatal("poller returned for a refused delete")
	}
	d, err := pools.BeginDelete(en.ctx, testRG, "lb", "ip-pool", nil)
	if err == nil {
		_, err = d.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = pools.Get(en.ctx, testRG, "lb", "ip-pool", nil)
	wantCode(t, err, "NotFound", http.StatusNotFound)
}

func TestLBChildReadsAndPaging(t *testing.T) {
	en := newEnv(t, Options{PageSize: 2})
	en.putPIP("pip1")
	body := basicLB("lb")
	for i := range 5 {
		body.Properties.Probes = append(body.Properties.Probes, probe(fmt.Sprintf("extra%d", i), int32(31000+i)))
	}
	if _, err := en.putLB("lb", body); err != nil {
		t.Fatal(err)
	}
	if _, err := en.putLB("lb2", armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := en.putLB("lb3", armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{}}); err != nil {
		t.Fatal(err)
	}
	en.e.Counters().Reset()
	var probes []string
	pager := en.net.NewLoadBalancerProbesClient().NewListPager(testRG, "lb", nil)
	for pager.More() {
		page, err := pager.NextPage(en.ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Value {
			probes = append(probes, *p.Name)
		}
	}
	if len(probes) != 6 || en.e.Counters().Count(MethodList, "Microsoft.Network/loadBalancers/probes") != 3 {
		t.Fatalf("probes %v over %d pages", probes, en.e.Counters().Count(MethodList, "Microsoft.Network/loadBalancers/probes"))
	}
	count := func(next func() ([]*armnetwork.LoadBalancer, bool, error)) int {
		n := 0
		for {
			v, more, err := next()
			if err != nil {
				t.Fatal(err)
			}
			n += len(v)
			if !more {
				return n
			}
		}
	}
	rgPager := en.net.NewLoadBalancersClient().NewListPager(testRG, nil)
	subPager := en.net.NewLoadBalancersClient().NewListAllPager(nil)
	byRG := count(func() ([]*armnetwork.LoadBalancer, bool, error) {
		p, err := rgPager.NextPage(en.ctx)
		return p.Value, rgPager.More(), err
	})
	bySub := count(func() ([]*armnetwork.LoadBalancer, bool, error) {
		p, err := subPager.NextPage(en.ctx)
		return p.Value, subPager.More(), err
	})
	if byRG != 3 || bySub != 3 {
		t.Fatalf("listed %d by resource group and %d by subscription, want 3", byRG, bySub)
	}
	for _, get := range []func() error{
		func() error {
			_, err := en.net.NewLoadBalancerFrontendIPConfigurationsClient().Get(en.ctx, testRG, "lb", "fe1", nil)
			return err
		},
		func() error {
			_, err := en.net.NewLoadBalancerLoadBalancingRulesClient().Get(en.ctx, testRG, "lb", "r1", nil)
			return err
		},
		func() error {
			_, err := en.net.NewLoadBalancerProbesClient().Get(en.ctx, testRG, "lb", "p1", nil)
			return err
		},
	} {
		if err := get(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLBUpdateTagsIsSynchronous(t *testing.T) {
	en := newEnv(t, Options{})
	if _, err := en.putLB("lb", armnetwork.LoadBalancer{Properties: &armnetwork.LoadBalancerPropertiesFormat{}}); err != nil {
		t.Fatal(err)
	}
	lbs := en.net.NewLoadBalancersClient()
	got, err := lbs.UpdateTags(en.ctx, testRG, "lb", armnetwork.TagsObject{Tags: map[string]*string{"k": to("v")}}, nil)
	if err != nil || *got.Tags["k"] != "v" {
		t.Fatalf("UpdateTags: %v", err)
	}
	// No operation is left pending: the next write goes through at once.
	if _, err := en.putLB("lb", got.LoadBalancer); err != nil {
		t.Fatal(err)
	}
}

// Azure retired Basic load balancers and public IPs on 2025-09-30: none is
// created any more, while an existing one still takes updates.
func TestBasicSKURetired(t *testing.T) {
	en := newEnv(t, Options{})
	p, err := en.net.NewPublicIPAddressesClient().BeginCreateOrUpdate(en.ctx, testRG, "new-basic", armnetwork.PublicIPAddress{
		Location: to(testLocation), SKU: &armnetwork.PublicIPAddressSKU{Name: to(armnetwork.PublicIPAddressSKUNameBasic)}}, nil)
	if err == nil {
		_, err = p.PollUntilDone(en.ctx, en.poll)
	}
	wantCode(t, err, "BasicSkuRetired", http.StatusBadRequest)
	_, err = en.putLB("new-basic", armnetwork.LoadBalancer{SKU: &armnetwork.LoadBalancerSKU{Name: to(armnetwork.LoadBalancerSKUNameBasic)},
		Properties: &armnetwork.LoadBalancerPropertiesFormat{}})
	wantCode(t, err, "BasicSkuRetired", http.StatusBadRequest)

	en.seedBasic("loadBalancers", "old-basic")
	if _, err := en.putLB("old-basic", armnetwork.LoadBalancer{SKU: &armnetwork.LoadBalancerSKU{Name: to(armnetwork.LoadBalancerSKUNameBasic)},
		Tags: map[string]*string{"team": to("x")}, Properties: &armnetwork.LoadBalancerPropertiesFormat{}}); err != nil {
		t.Fatalf("update of an existing Basic load balancer: %v", err)
	}
}
