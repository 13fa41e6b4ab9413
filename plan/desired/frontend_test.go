package desired

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
)

const subnetID = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/"

// TestInternalFrontends covers internal frontends (§1.3 #2, #22, §3, §7.3).
func TestInternalFrontends(t *testing.T) {
	tests := []struct {
		name    string
		ann     map[string]string
		spec    string
		feName  string
		want    map[string]any
		zones   []string
		basic   bool
		wantSub string
	}{
		{"dynamic private IP unknown, region zones", map[string]string{"azure-load-balancer-internal": "true"}, tcp80, testPrefix,
			map[string]any{"privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown, "privateIPAddressVersion": "IPv4"},
			[]string{"1", "2", "3"}, false, "subnet"},
		{"static pinned IP and subnet annotation", map[string]string{"azure-load-balancer-internal": "true", "azure-load-balancer-internal-subnet": "ilb", "azure-load-balancer-ipv4": "10.1.0.9"},
			tcp80, testPrefix + "-ilb",
			map[string]any{"privateIPAllocationMethod": "Static", "privateIPAddress": "10.1.0.9", "privateIPAddressVersion": "IPv4"},
			[]string{"1", "2", "3"}, false, "ilb"},
		{"spec.loadBalancerIP counts for its family only", map[string]string{"azure-load-balancer-internal": "true"},
			tcp80 + "  loadBalancerIP: 10.1.0.7\n  ipFamilies: [IPv4, IPv6]\n", testPrefix + "-IPv6",
			map[string]any{"privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown, "privateIPAddressVersion": "IPv6"},
			[]string{"1", "2", "3"}, false, "subnet"},
		{"basic SKU: no zones", map[string]string{"azure-load-balancer-internal": "true"}, tcp80, testPrefix,
			map[string]any{"privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown, "privateIPAddressVersion": "IPv4"},
			nil, true, "subnet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var muts []func(*cluster.Config)
			if tt.basic {
				muts = append(muts, basicSKU)
			}
			st := mustBuild(t, testConfig(t, muts...), manifest("svc", tt.ann, tt.spec))
			fe := named(st, plan.KindFrontend, tt.feName)
			if fe == nil {
				t.Fatalf("no frontend %s: %v", tt.feName, names(st, plan.KindFrontend))
			}
			got := map[string]any{}
			for k, v := range fe.Properties {
				if k != "subnet" {
					got[k] = v
				}
			}
			if !sameUnknown(tt.want, got) {
				t.Errorf("frontend properties = %v, want %v", got, tt.want)
			}
			if refName(fe.Properties["subnet"]) != tt.wantSub || fe.Properties["subnet"].(map[string]any)["id"] != subnetID+tt.wantSub {
				t.Errorf("subnet = %v, want %s", fe.Properties["subnet"], tt.wantSub)
			}
			if d := cmp.Diff(tt.zones, fe.Zones); d != "" {
				t.Errorf("zones (-want +got):\n%s", d)
			}
		})
	}
}

// sameUnknown compares property maps treating Unknown markers as equal.
func sameUnknown(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || plan.IsUnknown(v) != plan.IsUnknown(w) || (!plan.IsUnknown(v) && v != w) {
			return false
		}
	}
	return true
}

// TestManagedPublicIP covers §2.2, §2.3 and §6 for CCM-created PIPs.
func TestManagedPublicIP(t *testing.T) {
	cfg := testConfig(t, func(c *cluster.Config) { c.Tags = "team=a,Env=prod" })
	ann := map[string]string{
		"azure-dns-label-name": "shop", "azure-pip-tags": "env=test,cost=42", "azure-pip-ip-tags": "RoutingPreference=Internet,bad,FirstPartyUsage=/x",
		"azure-pip-prefix-id":                "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/publicIPPrefixes/pfx",
		"azure-load-balancer-resource-group": "pip-rg",
	}
	st := mustBuild(t, cfg, manifest("svc", ann, tcp80))
	pip := named(st, plan.KindPublicIP, "kubernetes-"+testPrefix+"-pfx")
	if pip == nil {
		t.Fatalf("no managed PIP: %v", names(st, plan.KindPublicIP))
	}
	if pip.ID.ResourceGroup != "pip-rg" {
		t.Errorf("PIP resource group = %s, want pip-rg (§1.3 #5)", pip.ID.ResourceGroup)
	}
	wantTags := map[string]string{"team": "a", "env": "test", "cost": "42", tagService: "ns/svc", tagClusterName: "kubernetes", tagDNSLabel: "ns/svc"}
	if d := cmp.Diff(wantTags, pip.Tags); d != "" {
		t.Errorf("tags (-want +got):\n%s", d)
	}
	wantProps := map[string]any{
		"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4",
		"dnsSettings":    map[string]any{"domainNameLabel": "shop"},
		"ipTags":         []any{map[string]any{"ipTagType": "FirstPartyUsage", "tag": "/x"}, map[string]any{"ipTagType": "RoutingPreference", "tag": "Internet"}},
		"publicIPPrefix": map[string]any{"id": ann["azure-pip-prefix-id"]},
	}
	got := map[string]any{}
	for k, v := range pip.Properties {
		if k != "ipAddress" {
			got[k] = v
		}
	}
	if d := cmp.Diff(wantProps, got); d != "" {
		t.Errorf("properties (-want +got):\n%s", d)
	}
	if !plan.IsUnknown(pip.Properties["ipAddress"]) {
		t.Errorf("ipAddress = %v, want unknown", pip.Properties["ipAddress"])
	}
	if d := cmp.Diff(map[string]any{"name": "Standard", "tier": "Regional"}, pip.SKU); d != "" || len(pip.Zones) != 3 {
		t.Errorf("SKU %v zones %v, want Standard and 3 zones", pip.SKU, pip.Zones)
	}
	fe := named(st, plan.KindFrontend, testPrefix)
	if refName(fe.Properties["publicIPAddress"]) != pip.Name() {
		t.Errorf("frontend references %v", fe.Properties["publicIPAddress"])
	}
}

// TestBasicIPv6PublicIP covers §6: basic SKU leaves the SKU unset and
// allocates IPv6 dynamically; single-stack IPv6 names have no suffix.
func TestBasicIPv6PublicIP(t *testing.T) {
	st := mustBuild(t, testConfig(t, basicSKU), manifest("svc", nil, tcp80+"  ipFamilies: [IPv6]\n"))
	pip := named(st, plan.KindPublicIP, "kubernetes-"+testPrefix)
	if pip == nil {
		t.Fatalf("PIPs: %v", names(st, plan.KindPublicIP))
	}
	if pip.SKU != nil || pip.Zones != nil || pip.Properties["publicIPAllocationMethod"] != "Dynamic" || pip.Properties["publicIPAddressVersion"] != "IPv6" {
		t.Errorf("got SKU %v zones %v props %v", pip.SKU, pip.Zones, pip.Properties)
	}
}

// TestUserAssignedPublicIPs covers §1.3 #22-#25: by name the frontend
// references the PIP by ID; by address through a marker the diff resolves.
func TestUserAssignedPublicIPs(t *testing.T) {
	st, scope, _ := build(t, testConfig(t),
		manifest("svc", map[string]string{"azure-pip-name": "byo"}, tcp80),
		manifest("b", map[string]string{"azure-load-balancer-ipv4": "20.62.10.7"}, tcp80))
	if got := names(st, plan.KindPublicIP); len(got) != 0 {
		t.Errorf("user-assigned PIPs must not be created: %v", got)
	}
	byName := named(st, plan.KindFrontend, testPrefix)
	if refName(byName.Properties["publicIPAddress"]) != "byo" {
		t.Errorf("by-name frontend = %v", byName.Properties["publicIPAddress"])
	}
	var byAddr *plan.Resource
	for _, r := range st.OfKind(plan.KindFrontend) {
		if r != byName {
			byAddr = r
		}
	}
	coll, addr, ok := ByAddress(byAddr.Properties["publicIPAddress"].(map[string]any)["id"])
	if !ok || addr != "20.62.10.7" || coll != PublicIPCollection("sub", "rg") {
		t.Errorf("ByAddress = %q %q %v", coll, addr, ok)
	}
	want := []plan.ServiceRef{{Name: "ns/b", Prefix: Prefix(uidFor("b")), PinnedIPs: []string{"20.62.10.7"}},
		{Name: "ns/svc", Prefix: testPrefix, PIPNames: []string{"byo"}}}
	if d := cmp.Diff(want, scope.Services); d != "" {
		t.Errorf("scope (-want +got):\n%s", d)
	}
}

// TestSharedFrontend covers §2.4 secondary FIPs and the §3 conflict check.
func TestSharedFrontend(t *testing.T) {
	pin := map[string]string{"azure-load-balancer-ipv4": "20.62.10.5"}
	st := mustBuild(t, testConfig(t), manifest("svc", pin, tcp80), manifest("b", pin, "  ports:\n  - {port: 443, nodePort: 30443}\n"))
	fes := st.OfKind(plan.KindFrontend)
	if len(fes) != 1 || len(fes[0].Services) != 2 {
		t.Fatalf("want one frontend serving both, got %v", names(st, plan.KindFrontend))
	}
	_, _, diags := build(t, testConfig(t), manifest("svc", pin, tcp80), manifest("b", pin, "  ports:\n  - {port: 80, nodePort: 30081}\n"))
	if len(diags) != 1 || diags[0].Code != CodePortConflict || diags[0].Service != "ns/svc" {
		t.Errorf("diagnostics = %+v, want %s for ns/svc (sorted after ns/b)", diags, CodePortConflict)
	}
}

// TestPLS covers §8: name, NAT ipConfigurations (static first, primary,
// names), subnet, visibility, auto-approval, fqdns, proxy protocol, tags.
func TestPLS(t *testing.T) {
	ann := map[string]string{
		"azure-load-balancer-internal": "true", "azure-pls-create": "true", "azure-pls-ip-configuration-subnet": "pls-subnet",
		"azure-pls-ip-configuration-ip-address-count": "3", "azure-pls-ip-configuration-ip-address": "10.2.0.9 10.2.0.5",
		"azure-pls-fqdns": "a.example b.example", "azure-pls-visibility": "sub1 * sub2", "azure-pls-auto-approval": "sub1",
		"azure-pls-proxy-protocol": "true",
	}
	st := mustBuild(t, testConfig(t), manifest("svc", ann, tcp80))
	pls := named(st, plan.KindPrivateLinkService, "pls-"+testPrefix)
	if pls == nil {
		t.Fatalf("PLS: %v", names(st, plan.KindPrivateLinkService))
	}
	ipc := func(name, alloc, ip string, primary bool) any {
		p := map[string]any{"privateIPAllocationMethod": alloc, "subnet": map[string]any{"id": subnetID + "pls-subnet"},
			"primary": primary, "privateIPAddressVersion": "IPv4"}
		if ip != "" {
			p["privateIPAddress"] = ip
		}
		return map[string]any{"name": name, "properties": p}
	}
	base := "pls-subnet-pls-" + testPrefix
	want := map[string]any{
		"loadBalancerFrontendIpConfigurations": []any{map[string]any{"id": named(st, plan.KindFrontend, testPrefix).ID.String()}},
		"ipConfigurations": []any{
			ipc(base+"-static-10.2.0.9", "Static", "10.2.0.9", true),
			ipc(base+"-static-10.2.0.5", "Static", "10.2.0.5", false),
			ipc(base+"-dynamic-0", "Dynamic", "", false),
		},
		"visibility": map[string]any{"subscriptions": []any{"*"}}, "autoApproval": map[string]any{"subscriptions": []any{"sub1"}},
		"fqdns": []any{"a.example", "b.example"}, "enableProxyProtocol": true, "alias": plan.Unknown,
	}
	if d := cmp.Diff(want, pls.Properties); d != "" {
		t.Errorf("PLS properties (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{tagClusterName: "kubernetes", tagOwnerService: "ns/svc"}, pls.Tags); d != "" {
		t.Errorf("PLS tags (-want +got):\n%s", d)
	}
}

// TestPLSSharedFrontend covers §8 "Existing PLS on the FIP": a second
// Service on the frontend shares the PLS silently unless it sets options.
func TestPLSSharedFrontend(t *testing.T) {
	a := map[string]string{"azure-load-balancer-internal": "true", "azure-load-balancer-ipv4": "10.0.0.9", "azure-pls-create": "true"}
	b := map[string]string{"azure-load-balancer-internal": "true", "azure-load-balancer-ipv4": "10.0.0.9", "azure-pls-create": "true"}
	st := mustBuild(t, testConfig(t), manifest("svc", a, tcp80), manifest("b", b, "  ports:\n  - {port: 81, nodePort: 30081}\n"))
	plss := st.OfKind(plan.KindPrivateLinkService)
	if len(plss) != 1 || len(plss[0].Services) != 2 {
		t.Fatalf("want one PLS for both Services, got %d", len(plss))
	}
	a["azure-pls-name"] = "mine" // ns/svc sorts after ns/b, which created the PLS
	_, _, diags := build(t, testConfig(t), manifest("svc", a, tcp80), manifest("b", b, "  ports:\n  - {port: 81, nodePort: 30081}\n"))
	if len(diags) != 1 || diags[0].Code != CodePrivateLink {
		t.Errorf("diagnostics = %+v, want %s", diags, CodePrivateLink)
	}
}

// TestPLSSubnetPolicy covers §8 "Subnet policy": every PLS NAT subnet is
// desired with only privateLinkServiceNetworkPolicies Disabled, in the VNet
// resource group, once per subnet and serving every Service using it.
func TestPLSSubnetPolicy(t *testing.T) {
	pls := func(subnet string) map[string]string {
		return map[string]string{"azure-load-balancer-internal": "true", "azure-pls-create": "true",
			"azure-pls-ip-configuration-subnet": subnet}
	}
	cfg := testConfig(t, func(c *cluster.Config) { c.VnetResourceGroup = "net-rg" })
	st := mustBuild(t, cfg, manifest("a", pls("pls-subnet"), tcp80),
		manifest("b", pls("pls-subnet"), "  ports:\n  - {port: 81, nodePort: 30081}\n"),
		manifest("c", map[string]string{"azure-load-balancer-internal": "true"}, "  ports:\n  - {port: 82, nodePort: 30082}\n"))
	subnets := st.OfKind(plan.KindSubnet)
	if len(subnets) != 1 {
		t.Fatalf("subnets = %v, want only pls-subnet", names(st, plan.KindSubnet))
	}
	got := subnets[0]
	wantID := "/subscriptions/sub/resourceGroups/net-rg/providers/Microsoft.Network/virtualNetworks/vnet/subnets/pls-subnet"
	if got.ID.String() != wantID {
		t.Errorf("subnet ID = %s, want %s", got.ID, wantID)
	}
	if d := cmp.Diff(map[string]any{"privateLinkServiceNetworkPolicies": "Disabled"}, got.Properties); d != "" {
		t.Errorf("subnet properties (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"ns/a", "ns/b"}, got.Services); d != "" {
		t.Errorf("subnet services (-want +got):\n%s", d)
	}
	for _, p := range st.OfKind(plan.KindPrivateLinkService) {
		ipc := p.Properties["ipConfigurations"].([]any)[0].(map[string]any)["properties"].(map[string]any)
		if id := ipc["subnet"].(map[string]any)["id"]; id != wantID {
			t.Errorf("%s NAT subnet = %v, want the planned subnet %s", p.Name(), id, wantID)
		}
	}
}
