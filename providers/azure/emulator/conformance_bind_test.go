package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// parseError returns an error answer's envelope.
func parseError(t *testing.T, body []byte) armError {
	t.Helper()
	var env struct{ Error armError }
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	return env.Error
}

// Issue 21 item 7: bodies are bound to the provider's contract. NRP refuses
// an unknown member and a value it cannot convert with 400
// InvalidRequestFormat and an InvalidJson detail per problem, and stores
// nothing; member names and enum values bind case-insensitively and are
// stored as the contract spells them.
func TestBindRequestBodies(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	en.putPIP("pip1")
	if _, err := en.putZone("z.example.com", nil); err != nil {
		t.Fatal(err)
	}
	pip := id("publicIPAddresses", "bound")
	nsgRule := id("networkSecurityGroups", "nsg") + "/securityRules/r1"
	const ruleProps = `"protocol":"Tcp","access":"Allow","direction":"Inbound","priority":100,"sourceAddressPrefix":"*",` +
		`"sourcePortRange":"*","destinationAddressPrefix":"*"`
	tests := []struct {
		name, method, path, body string
		details                  []string // the InvalidJson messages, sorted; none: accepted
	}{
		{"unknown member (the JS SDK's properties.Sku)", "PUT", pip,
			`{"location":"eastus","sku":{"name":"Standard"},"properties":{"Sku":{"name":"Standard"}}}`,
			[]string{"Could not find member 'Sku' on object of type 'PublicIPAddressPropertiesFormat'. Path 'properties.Sku'."}},
		{"enum value NRP cannot bind", "PUT", pip,
			`{"location":"eastus","properties":{"publicIPAllocationMethod":"Sometimes"}}`,
			[]string{`Error converting value "Sometimes" to type 'IPAllocationMethod'. Path 'properties.publicIPAllocationMethod'.`}},
		{"every problem is a detail", "PUT", pip,
			`{"location":"eastus","zones":"1","properties":{"idleTimeoutInMinutes":"four","bogus":1}}`,
			[]string{`Could not find member 'bogus' on object of type 'PublicIPAddressPropertiesFormat'. Path 'properties.bogus'.`,
				`Error converting value "1" to type 'array'. Path 'zones'.`,
				`Error converting value "four" to type 'Int64'. Path 'properties.idleTimeoutInMinutes'.`}},
		{"nested unknown member", "PUT", id("loadBalancers", "lb"),
			`{"location":"eastus","properties":{"frontendIPConfigurations":[{"name":"fe","properties":{"subnet":{"id":"x","registrationEnabled":true}}}]}}`,
			[]string{"Could not find member 'registrationEnabled' on object of type 'Subnet'. Path 'properties.frontendIPConfigurations[0].properties.subnet.registrationEnabled'."}},
		{"child PUT", "PUT", nsgRule, `{"properties":{` + ruleProps + `,"priorty":200}}`,
			[]string{"Could not find member 'priorty' on object of type 'SecurityRulePropertiesFormat'. Path 'properties.priorty'."}},
		{"UpdateTags takes tags only", "PATCH", id("publicIPAddresses", "pip1"), `{"tags":{"a":"b"},"properties":{}}`,
			[]string{"Could not find member 'properties' on object of type 'TagsObject'. Path 'properties'."}},
		{"Private DNS enum", "PUT", id("privateDnsZones", "z.example.com") + "/virtualNetworkLinks/l",
			`{"location":"global","properties":{"virtualNetwork":{"id":"` + id("virtualNetworks", "vnet") + `"},"registrationEnabled":false,"resolutionPolicy":"Sometimes"}}`,
			[]string{`Error converting value "Sometimes" to type 'ResolutionPolicy'. Path 'properties.resolutionPolicy'.`}},
		{"names and values in any case, numbers as strings", "PUT", nsgRule,
			`{"Properties":{"PROTOCOL":"tcp","access":"allow","direction":"inbound","priority":"110","sourceAddressPrefix":"*",` +
				`"sourcePortRange":"*","destinationAddressPrefix":"*","destinationPortRange":8080}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, en.e, tt.method, tt.path+versionOf(tt.path), tt.body)
			if len(tt.details) == 0 {
				if w.Code >= 300 {
					t.Fatalf("refused: %d %s", w.Code, w.Body.String())
				}
				return
			}
			e := parseError(t, w.Body.Bytes())
			if w.Code != http.StatusBadRequest || e.Code != "InvalidRequestFormat" || e.Message != "Cannot parse the request." {
				t.Fatalf("%d %s", w.Code, w.Body.String())
			}
			var got []string
			for _, d := range e.Details {
				if d.Code != "InvalidJson" {
					t.Errorf("detail code %s", d.Code)
				}
				got = append(got, d.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.details, "\n") {
				t.Fatalf("details:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.details, "\n"))
			}
			if tt.method == "PUT" && do(t, en.e, "GET", tt.path+versionOf(tt.path), "").Code != http.StatusNotFound {
				t.Error("a refused body was stored")
			}
		})
	}
	rule, err := en.net.NewSecurityRulesClient().Get(en.ctx, testRG, "nsg", "r1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := rule.Properties; *p.Protocol != armnetwork.SecurityRuleProtocolTCP || *p.Access != armnetwork.SecurityRuleAccessAllow ||
		*p.Direction != armnetwork.SecurityRuleDirectionInbound || *p.Priority != 110 || *p.DestinationPortRange != "8080" {
		t.Fatalf("the rule as stored: %+v", *p)
	}
}

// The Private DNS provider ignores a member it does not know: the body is
// accepted and the member is not stored.
func TestBindPrivateDNSIgnoresUnknownMembers(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	zone := id("privateDnsZones", "z.example.com")
	if w := do(t, en.e, "PUT", zone+dnsAPIVersion, `{"location":"global","etag":"x","Properties":{"foo":1},"bar":true}`); w.Code != http.StatusAccepted {
		t.Fatalf("PUT: %d %s", w.Code, w.Body.String())
	}
	w := do(t, en.e, "GET", zone+dnsAPIVersion, "")
	if strings.Contains(w.Body.String(), "foo") || strings.Contains(w.Body.String(), "bar") {
		t.Fatalf("unknown members were stored: %s", w.Body.String())
	}
	// The body azapi sent (Azure/terraform-provider-azapi#649): the misplaced
	// registrationEnabled is ignored, and the link has none.
	link := `{"location":"global","properties":{"virtualNetwork":{"id":"` + id("virtualNetworks", "vnet") + `","registrationEnabled":false}}}`
	w = do(t, en.e, "PUT", zone+"/virtualNetworkLinks/l"+dnsAPIVersion, link)
	if e := parseError(t, w.Body.Bytes()); w.Code != http.StatusBadRequest || e.Code != "BadRequest" ||
		e.Message != "The specified virtual network link registration setting is invalid." {
		t.Fatalf("a link without registrationEnabled: %d %s", w.Code, w.Body.String())
	}
}

// Read-only members a client echoes back are part of the contract: every
// body the emulator answers, PUT back as it came, is accepted (a GET,
// modify, PUT client must never be refused for what it was given).
func TestBindAcceptsWhatTheEmulatorAnswers(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	en.putPIP("pip1")
	lb := basicLB("kubernetes")
	lb.Properties.OutboundRules = []*armnetwork.OutboundRule{{Name: to("ob"), Properties: &armnetwork.OutboundRulePropertiesFormat{
		Protocol: to(armnetwork.LoadBalancerOutboundRuleProtocolAll), BackendAddressPool: &armnetwork.SubResource{ID: to(id("loadBalancers", "kubernetes") + "/backendAddressPools/kubernetes")},
		FrontendIPConfigurations: []*armnetwork.SubResource{{ID: to(id("loadBalancers", "kubernetes") + "/frontendIPConfigurations/fe1")}}}}}
	if _, err := en.putLB("kubernetes", lb); err != nil {
		t.Fatal(err)
	}
	en.ilb("ilb", 1)
	if _, err := en.putPLS("pls", plsBody("ilb", "fe0", 1, "pls")); err != nil {
		t.Fatal(err)
	}
	pls, _ := en.net.NewPrivateLinkServicesClient().Get(en.ctx, testRG, "pls", nil)
	if _, err := en.putPE("pe", *pls.Properties.Alias, true); err != nil {
		t.Fatal(err)
	}
	const zone = "privatelink.example.com"
	if _, err := en.putZone(zone, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := en.putLink(zone, "link", "vnet", false); err != nil {
		t.Fatal(err)
	}
	zoneID := id("privateDnsZones", zone)
	if w := do(t, en.e, "PUT", zoneID+"/A/api"+dnsAPIVersion, `{"properties":{"ttl":300,"aRecords":[{"ipv4Address":"10.0.9.4"}]}}`); w.Code >= 300 {
		t.Fatalf("A record: %d %s", w.Code, w.Body.String())
	}
	conns := en.approvePending("pls", 1)
	paths := []string{
		id("virtualNetworks", "vnet"), subnetID("pls"), id("publicIPAddresses", "pip1"), id("loadBalancers", "kubernetes"),
		id("loadBalancers", "kubernetes") + "/backendAddressPools/kubernetes", id("networkSecurityGroups", "nsg"),
		id("privateLinkServices", "pls"), id("privateLinkServices", "pls") + "/privateEndpointConnections/" + *conns[0].Name,
		id("privateEndpoints", "pe"), zoneID, zoneID + "/virtualNetworkLinks/link", zoneID + "/A/api", zoneID + "/SOA/@",
	}
	for _, p := range paths {
		got := do(t, en.e, "GET", p+versionOf(p), "")
		if got.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, got.Code)
		}
		if w := do(t, en.e, "PUT", p+versionOf(p), got.Body.String()); w.Code >= 300 {
			t.Errorf("PUT %s of its own GET body: %d %s", p, w.Code, w.Body.String())
		}
	}
}
