package desired

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

const testPrefix = "a257b965551374ad2b091ef3f07043ad" // UID 257b9655-5137-4ad2-b091-ef3f07043ad3

// TestPrefix covers §2.1: "a" + uid without dashes, cut to 32.
func TestPrefix(t *testing.T) {
	tests := []struct{ uid, want string }{
		{"3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8", "a3f2a1c9e8b7d4e6fa5b4c3d2e1f0a9b"},
		{"257b9655-5137-4ad2-b091-ef3f07043ad3", testPrefix},
		{"short", "ashort"},
	}
	for _, tt := range tests {
		if got := Prefix(tt.uid); got != tt.want {
			t.Errorf("Prefix(%q) = %q, want %q", tt.uid, got, tt.want)
		}
	}
}

// TestPrefixOf covers NAMING.md: metadata.uid gives CCM's prefix; without
// one the prefix is a placeholder of a UID the API server assigns: stable
// (a base→head plan compares it), one per Service, of CCM's length, and
// never a prefix CCM can build (a UID is hex).
func TestPrefixOf(t *testing.T) {
	svc := func(ns, name, uid string) *service.Service {
		doc := "apiVersion: v1\nkind: Service\nmetadata: {name: " + name + ", namespace: " + ns + ", uid: '" + uid + "'}\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n"
		return service.Decode("p.yaml", []byte(doc)).Services[0]
	}
	if got := PrefixOf(svc("web", "storefront", testUID)); got != testPrefix {
		t.Errorf("with a UID: %q, want %q", got, testPrefix)
	}
	a := PrefixOf(svc("web", "storefront", ""))
	if a != PrefixOf(svc("web", "storefront", "")) {
		t.Error("placeholder prefix is not stable")
	}
	if a == PrefixOf(svc("web", "other", "")) || a == PrefixOf(svc("other", "storefront", "")) {
		t.Error("placeholder prefix ignores namespace or name")
	}
	if len(a) != plan.UIDPrefixLen || !plan.IsUIDPlaceholder(a) || !plan.IsUIDPrefix(a) {
		t.Errorf("placeholder %q: want %d characters, a placeholder, owned like CCM's", a, plan.UIDPrefixLen)
	}
	if plan.IsUIDPlaceholder(testPrefix) {
		t.Errorf("CCM's prefix %q taken for a placeholder", testPrefix)
	}
	// Pinned: a base→head plan's two sides, and saved plans, rely on it.
	if want := "ax7faa2ed0a09ec22b17bb31a5affa1a"; a != want {
		t.Errorf("placeholder = %s, want %s", a, want)
	}
}

// TestNames2_2 covers every naming row of ccm-semantics §2.2.
func TestNames2_2(t *testing.T) {
	longSubnet := "a" + strings.Repeat("-", 60) + "z"
	tests := []struct{ name, got, want string }{
		{"§2.2 FIP external", FrontendName(testPrefix, "", false, false), testPrefix},
		{"§2.2 FIP internal with subnet", FrontendName(testPrefix, "ilb-subnet", false, false), testPrefix + "-ilb-subnet"},
		{"§2.2 FIP 75-char cut, last char '-' replaced by '_'", FrontendName(testPrefix, longSubnet, false, false),
			"a257b965551374ad2b091ef3f07043ad-a----------------------------------------_"},
		{"§2.2 FIP 75-char cut ending in a letter kept", FrontendName(testPrefix, "b"+strings.Repeat("x", 60), false, false),
			testPrefix + "-b" + strings.Repeat("x", 41)},
		{"§2.2 FIP dual-stack IPv6 suffix", FrontendName(testPrefix, "", true, true), testPrefix + "-IPv6"},
		{"§2.2 FIP single-stack IPv6 no suffix", FrontendName(testPrefix, "", false, true), testPrefix},
		{"§2.2 FIP dual-stack IPv4 no suffix", FrontendName(testPrefix, "", true, false), testPrefix},
		{"§2.2 LB rule", RuleName(testPrefix, "", "TCP", 9000, false, false), testPrefix + "-TCP-9000"},
		{"§2.2 LB rule UDP", RuleName(testPrefix, "", "UDP", 53, false, false), testPrefix + "-UDP-53"},
		{"§2.2 LB rule SCTP", RuleName(testPrefix, "", "SCTP", 36412, false, false), testPrefix + "-SCTP-36412"},
		{"§2.2 LB rule with subnet", RuleName(testPrefix, "shortsubnet", "TCP", 9000, false, false), testPrefix + "-shortsubnet-TCP-9000"},
		{"§2.2 LB rule subnet cut to 75", RuleName(testPrefix, "averylonnnngggnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnsubnet", "TCP", 9000, false, false),
			"a257b965551374ad2b091ef3f07043ad-averylonnnngggnnnnnnnnnnnnnnnnnnn-TCP-9000"},
		{"§2.2 LB rule dual-stack IPv6", RuleName(testPrefix, "", "TCP", 80, true, true), testPrefix + "-TCP-80-IPv6"},
		{"§2.2 LB rule single-stack IPv6", RuleName(testPrefix, "", "TCP", 80, false, true), testPrefix + "-TCP-80"},
		{"§2.2 ETP Local probe named TCP even for UDP", RuleName("aservice1", "", "TCP", 10081, false, false), "aservice1-TCP-10081"},
		{"§2.2 managed PIP", PublicIPName("azure", "auid", "", false, false), "azure-auid"},
		{"§2.2 managed PIP with prefix", PublicIPName("azure", "auid", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPPrefixes/prefix-id", false, false), "azure-auid-prefix-id"},
		{"§2.2 managed PIP dual-stack IPv6", PublicIPName("azure", "auid", "", true, true), "azure-auid-IPv6"},
		{"§2.2 managed PIP single-stack IPv6", PublicIPName("azure", "auid", "", false, true), "azure-auid"},
		{"§2.2 managed PIP cut to 75 before -IPv6", PublicIPName(strings.Repeat("c", 50), testPrefix, "", true, true),
			(strings.Repeat("c", 50) + "-" + testPrefix)[:75] + "-IPv6"},
		{"§2.2 PLS default", PLSName("", "fipname"), "pls-fipname"},
		{"§2.2 PLS annotation (trimmed)", PLSName(" my-pls ", "fipname"), "my-pls"},
		{"§2.2 PLS ipconfig dynamic", PLSIPConfigName("subnet", "testpls", "-dynamic-0"), "subnet-testpls-dynamic-0"},
		{"§2.2 PLS ipconfig static", PLSIPConfigName("subnet", "testpls", "-static-10.0.0.5"), "subnet-testpls-static-10.0.0.5"},
		{"§2.2 PLS ipconfig 80-char cut", PLSIPConfigName(strings.Repeat("s", 70), "pls", "-dynamic-1"),
			strings.Repeat("s", 70) + "-dynamic-1"},
		{"§2.2 NSG deny-all IPv4", NSGDenyAllRuleName("IPv4"), "k8s-azure-lb_deny-all_IPv4"},
		{"§2.2 NSG deny-all IPv6", NSGDenyAllRuleName("IPv6"), "k8s-azure-lb_deny-all_IPv6"},
		{"§2.2 NSG allow Tcp Internet 80", NSGAllowRuleName("Tcp", "IPv4", []string{"Internet"}, []string{"80"}),
			"k8s-azure-lb_allow_IPv4_d39272f7f57ed937951650d93992ad77"},
		{"§2.2 NSG allow Tcp Internet {80,443,53} ports sorted as strings", NSGAllowRuleName("Tcp", "IPv4", []string{"Internet"}, []string{"80", "443", "53"}),
			"k8s-azure-lb_allow_IPv4_cbb88dd91c3e7c61c639448625f96b71"},
		{"§2.2 NSG allow Udp Internet 53", NSGAllowRuleName("Udp", "IPv4", []string{"Internet"}, []string{"53"}),
			"k8s-azure-lb_allow_IPv4_eacf5e21d4ad7b5345009ad51af9d388"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got  %q\nwant %q", tt.got, tt.want)
			}
			if len(tt.got) > maxNameLength {
				t.Errorf("name %q is %d characters, over ARM's 80", tt.got, len(tt.got))
			}
		})
	}
}
