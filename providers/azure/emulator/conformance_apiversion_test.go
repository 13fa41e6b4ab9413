package emulator

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 21 item 10: an api-version the resource provider does not serve is
// refused with the error ARM gives for the request's scope (apiversion.go);
// the versions real clients use are served.
func TestAPIVersions(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	en.putPIP("pip1")
	if _, err := en.putZone("privatelink.example.com", nil); err != nil {
		t.Fatal(err)
	}
	lb := id("loadBalancers", "lb")
	pip := id("publicIPAddresses", "pip1")
	zone := id("privateDnsZones", "privatelink.example.com")
	rg := "/subscriptions/" + testSub + "/resourceGroups/" + testRG
	tests := []struct {
		name, method, path, version, body string
		status                            int
		code, message                     string
	}{
		{"bogus version, resource", "GET", pip, "1999-01-01", "", 400, "NoRegisteredProviderFound",
			"No registered resource provider found for location 'eastus' and API version '1999-01-01' for type 'publicIPAddresses'. The supported api-versions are '2014-12-01-preview, "},
		{"bogus version, PUT takes the body's location", "PUT", lb, "1999-01-01", `{"location":"West Europe"}`, 400, "NoRegisteredProviderFound",
			"for location 'westeurope' and API version '1999-01-01' for type 'loadBalancers'."},
		{"bogus version, child", "GET", id("networkSecurityGroups", "nsg") + "/securityRules/r", "1999-01-01", "", 400, "NoRegisteredProviderFound",
			"for type 'networkSecurityGroups/securityRules'"},
		{"bogus version, collection", "GET", strings.TrimSuffix(id("loadBalancers", ""), "/"), "1999-01-01", "", 404, "InvalidResourceType",
			"The resource type 'loadBalancers' could not be found in the namespace 'Microsoft.Network' for api version '1999-01-01'. The supported api-versions are '2014-12-01-preview,2015-05-01-preview,"},
		{"resource group", "GET", rg, "2025-05-01", "", 400, "InvalidApiVersionParameter",
			"The api-version '2025-05-01' is invalid. The supported versions are '2025-04-01,2024-08-01,"},
		{"a network version on Private DNS", "GET", zone, "2025-05-01", "", 400, "NoRegisteredProviderFound",
			"No registered resource provider found for location 'global' and API version '2025-05-01' for type 'privateDnsZones'. The supported api-versions are '2018-09-01, 2020-01-01, 2020-06-01, 2024-06-01'."},
		{"a PLS before private link existed", "GET", id("privateLinkServices", "pls"), "2018-12-01", "", 400, "NoRegisteredProviderFound",
			"The supported api-versions are '2019-04-01, "},
		{"an LB at that version", "GET", pip, "2018-12-01", "", 200, "", ""},
		{"armnetwork v9", "GET", pip, "2025-05-01", "", 200, "", ""},
		{"@azure/arm-network 39", "GET", pip, "2026-01-01", "", 200, "", ""},
		{"armprivatedns v1.3 and @azure/arm-privatedns 4", "GET", zone, "2024-06-01", "", 200, "", ""},
		{"@azure/arm-resources 8", "GET", rg, "2025-04-01", "", 200, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, en.e, tt.method, tt.path+"?api-version="+tt.version, tt.body)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body.String())
			}
			if tt.code == "" {
				return
			}
			var env struct{ Error armError }
			if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.message) {
				t.Fatalf("got %s, want code %s and a message containing %q", w.Body.String(), tt.code, tt.message)
			}
		})
	}
}
