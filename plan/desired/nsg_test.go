package desired

import (
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/azsvc/azsvc/plan"
)

// nsgView is a security rule reduced to what the §5 tests assert.
type nsgView struct {
	Name    string
	Access  string
	Proto   string
	Sources any // sourceAddressPrefix or sourceAddressPrefixes
	Ports   any
	Dests   any // destinationAddressPrefix(es), markers shown as strings
}

func nsgViews(st *plan.State) []nsgView {
	var out []nsgView
	for _, r := range st.OfKind(plan.KindSecurityRule) {
		p := r.Properties
		v := nsgView{Name: r.Name(), Access: p["access"].(string), Proto: p["protocol"].(string)}
		v.Sources = first(p, "sourceAddressPrefix", "sourceAddressPrefixes")
		v.Ports = first(p, "destinationPortRanges", "destinationPortRange")
		v.Dests = markers(first(p, "destinationAddressPrefix", "destinationAddressPrefixes"))
		out = append(out, v)
	}
	return out
}

func first(p map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := p[k]; ok {
			return v
		}
	}
	return nil
}

// markers replaces Unknown/AfterApply markers by readable strings.
func markers(v any) any {
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i, x := range list {
			out[i] = markers(x)
		}
		return out
	}
	if pool, ok := plan.ParseBackendNodeIPs(v); ok {
		id, _ := plan.ParseID(string(pool))
		return "nodes(" + id.Address() + ")"
	}
	if plan.IsUnknown(v) {
		if src, field, ok := plan.UnknownSource(v); ok {
			id, _ := plan.ParseID(string(src))
			return "after(" + id.Address() + "." + field + ")"
		}
		return "unknown"
	}
	return v
}

func allow(family, proto string, sources, ports []string) string {
	return NSGAllowRuleName(proto, family, sources, ports)
}

// TestNSG covers ccm-semantics §5.2-§5.4.
func TestNSG(t *testing.T) {
	pipDest := "after(pip/kubernetes-" + testPrefix + ".ipAddress)"
	ilbDest := "after(lb/kubernetes-internal/frontend/" + testPrefix + ".privateIPAddress)"
	ports80 := []any{"80"}
	tests := []struct {
		name      string
		manifests []string
		want      []nsgView
	}{
		{"§5.2 external, no ranges: allow from Internet to the PIP address",
			[]string{manifest("svc", nil, tcp80)},
			[]nsgView{{allow("IPv4", "Tcp", []string{"Internet"}, []string{"80"}), "Allow", "Tcp", "Internet", ports80, pipDest}}},
		{"§5.2 internal, no ranges or tags: no rule at all",
			[]string{manifest("svc", map[string]string{"azure-load-balancer-internal": "true"}, tcp80)}, nil},
		{"§5.2 internal with 0.0.0.0/0 (issue #698): source 0.0.0.0/0, no Internet rule",
			[]string{manifest("svc", map[string]string{"azure-load-balancer-internal": "true"}, tcp80+"  loadBalancerSourceRanges: [0.0.0.0/0]\n")},
			[]nsgView{{allow("IPv4", "Tcp", []string{"0.0.0.0/0"}, []string{"80"}), "Allow", "Tcp", "0.0.0.0/0", ports80, ilbDest}}},
		{"§5.2 'True' is internal for the NSG even though the LB is external (§1.2)",
			[]string{manifest("svc", map[string]string{"azure-load-balancer-internal": "True"}, tcp80)}, nil},
		{"§5.3 source ranges aggregated into one rule, sorted; no Internet rule",
			[]string{manifest("svc", nil, tcp80+"  loadBalancerSourceRanges: [10.0.1.0/24, 192.168.0.0/16, 10.0.0.0/24, 192.168.4.0/24]\n")},
			[]nsgView{{allow("IPv4", "Tcp", []string{"10.0.0.0/23", "192.168.0.0/16"}, []string{"80"}), "Allow", "Tcp", []any{"10.0.0.0/23", "192.168.0.0/16"}, ports80, pipDest}}},
		{"§5.2 group B: allowed-ip-ranges plus load-balancer-source-ranges annotation",
			[]string{manifest("svc", map[string]string{"azure-allowed-ip-ranges": "203.0.113.0/24", "load-balancer-source-ranges": "198.51.100.0/24"}, tcp80)},
			[]nsgView{{allow("IPv4", "Tcp", []string{"198.51.100.0/24", "203.0.113.0/24"}, []string{"80"}), "Allow", "Tcp", []any{"198.51.100.0/24", "203.0.113.0/24"}, ports80, pipDest}}},
		{"§5.3 service tags: one rule per tag, no Internet",
			[]string{manifest("svc", map[string]string{"azure-allowed-service-tags": "AzureFrontDoor.Backend, AzureCloud"}, tcp80)},
			[]nsgView{
				{allow("IPv4", "Tcp", []string{"AzureCloud"}, []string{"80"}), "Allow", "Tcp", "AzureCloud", ports80, pipDest},
				{allow("IPv4", "Tcp", []string{"AzureFrontDoor.Backend"}, []string{"80"}), "Allow", "Tcp", "AzureFrontDoor.Backend", ports80, pipDest},
			}},
		{"§5.2 tags with ranges: both kinds of rules",
			[]string{manifest("svc", map[string]string{"azure-allowed-service-tags": "AzureCloud"}, tcp80+"  loadBalancerSourceRanges: [10.0.0.0/8]\n")},
			[]nsgView{
				{allow("IPv4", "Tcp", []string{"10.0.0.0/8"}, []string{"80"}), "Allow", "Tcp", "10.0.0.0/8", ports80, pipDest},
				{allow("IPv4", "Tcp", []string{"AzureCloud"}, []string{"80"}), "Allow", "Tcp", "AzureCloud", ports80, pipDest},
			}},
		{"§5.2 invalid (unmasked) range: dropped, deny-all added, no Internet rule",
			[]string{manifest("svc", nil, tcp80+"  loadBalancerSourceRanges: [10.0.0.1/24]\n")},
			[]nsgView{{NSGDenyAllRuleName("IPv4"), "Deny", "*", "*", "*", pipDest}}},
		{"§5.2 deny-all annotation with ranges",
			[]string{manifest("svc", map[string]string{"azure-deny-all-except-load-balancer-source-ranges": "true"}, tcp80+"  loadBalancerSourceRanges: [10.0.0.0/8]\n")},
			[]nsgView{
				{allow("IPv4", "Tcp", []string{"10.0.0.0/8"}, []string{"80"}), "Allow", "Tcp", "10.0.0.0/8", ports80, pipDest},
				{NSGDenyAllRuleName("IPv4"), "Deny", "*", "*", "*", pipDest},
			}},
		{"§5.2 deny-all annotation without ranges has no effect",
			[]string{manifest("svc", map[string]string{"azure-deny-all-except-load-balancer-source-ranges": "true"}, tcp80)},
			[]nsgView{{allow("IPv4", "Tcp", []string{"Internet"}, []string{"80"}), "Allow", "Tcp", "Internet", ports80, pipDest}}},
		{"§5.2 floating IP off: nodePorts, destinations = the cluster pool's node IPs",
			[]string{manifest("svc", map[string]string{"azure-disable-load-balancer-floating-ip": "true"}, tcp80)},
			[]nsgView{{allow("IPv4", "Tcp", []string{"Internet"}, []string{"30080"}), "Allow", "Tcp", "Internet", []any{"30080"},
				"nodes(lb/kubernetes/pool/kubernetes)"}}},
		{"§5.2 floating IP off with an additional public IP: both destinations",
			[]string{manifest("svc", map[string]string{"azure-disable-load-balancer-floating-ip": "true",
				"azure-additional-public-ips": "20.1.2.3"}, tcp80)},
			[]nsgView{{allow("IPv4", "Tcp", []string{"Internet"}, []string{"30080"}), "Allow", "Tcp", "Internet", []any{"30080"},
				[]any{"20.1.2.3", "nodes(lb/kubernetes/pool/kubernetes)"}}}},
		{"§5.2 protocols: Tcp, Udp and * (SCTP); no_lb_rule ports kept",
			[]string{manifest("svc", map[string]string{"azure-load-balancer-internal": "true", "port_53_no_lb_rule": "true"},
				"  loadBalancerSourceRanges: [10.0.0.0/8]\n  ports:\n  - {name: a, protocol: TCP, port: 80, nodePort: 30080}\n  - {name: b, protocol: UDP, port: 53, nodePort: 30053}\n  - {name: c, protocol: SCTP, port: 36412, nodePort: 30412}\n")},
			[]nsgView{
				{allow("IPv4", "*", []string{"10.0.0.0/8"}, []string{"36412"}), "Allow", "*", "10.0.0.0/8", []any{"36412"}, ilbDest},
				{allow("IPv4", "Tcp", []string{"10.0.0.0/8"}, []string{"80"}), "Allow", "Tcp", "10.0.0.0/8", ports80, ilbDest},
				{allow("IPv4", "Udp", []string{"10.0.0.0/8"}, []string{"53"}), "Allow", "Udp", "10.0.0.0/8", []any{"53"}, ilbDest},
			}},
		{"§5.3 same protocol, sources and ports: one shared rule, destinations merged and sorted",
			[]string{
				manifest("a", map[string]string{"azure-load-balancer-ipv4": "20.62.10.9"}, tcp80),
				manifest("b", map[string]string{"azure-load-balancer-ipv4": "20.62.10.10", "azure-additional-public-ips": "20.1.1.1"}, "  ports:\n  - {port: 80, nodePort: 30081}\n"),
			},
			[]nsgView{{allow("IPv4", "Tcp", []string{"Internet"}, []string{"80"}), "Allow", "Tcp", "Internet", ports80, []any{"20.1.1.1", "20.62.10.10", "20.62.10.9"}}}},
		{"§5.2 dual-stack with only 0.0.0.0/0: no IPv6 allow rule",
			[]string{manifest("svc", nil, tcp80+"  ipFamilies: [IPv4, IPv6]\n  loadBalancerSourceRanges: [0.0.0.0/0]\n")},
			[]nsgView{{allow("IPv4", "Tcp", []string{"0.0.0.0/0"}, []string{"80"}), "Allow", "Tcp", "0.0.0.0/0", ports80, pipDest}}},
		{"§1.3 #18 disable-load-balancer-nsg-rule: no rules",
			[]string{manifest("svc", map[string]string{"azure-disable-load-balancer-nsg-rule": "true"}, tcp80)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := mustBuild(t, testConfig(t), tt.manifests...)
			byName := cmpopts.SortSlices(func(a, b nsgView) bool { return a.Name < b.Name })
			if d := cmp.Diff(tt.want, nsgViews(st), byName); d != "" {
				t.Errorf("NSG rules (-want +got):\n%s", d)
			}
			if nsg := named(st, plan.KindSecurityGroup, "nsg"); (nsg != nil) != (len(tt.want) > 0) {
				t.Errorf("NSG present = %v, want %v", nsg != nil, len(tt.want) > 0)
			}
		})
	}
}

// TestNSGRangeConflict covers §5.2: both range groups set is an error.
func TestNSGRangeConflict(t *testing.T) {
	_, _, diags := build(t, testConfig(t), manifest("svc", map[string]string{"azure-allowed-ip-ranges": "10.0.0.0/8"},
		tcp80+"  loadBalancerSourceRanges: [192.168.0.0/16]\n"))
	if len(diags) != 1 || diags[0].Code != CodeSourceRanges {
		t.Fatalf("diagnostics = %+v, want one %s", diags, CodeSourceRanges)
	}
}

// TestAggregate covers §5.3's prefix aggregation.
func TestAggregate(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"10.0.0.0/24", "10.0.1.0/24"}, []string{"10.0.0.0/23"}},
		{[]string{"10.0.0.0/24", "10.0.1.0/24", "10.0.2.0/23"}, []string{"10.0.0.0/22"}},
		{[]string{"10.0.0.0/8", "10.1.0.0/16"}, []string{"10.0.0.0/8"}},
		{[]string{"10.0.1.0/24", "10.0.2.0/24"}, []string{"10.0.1.0/24", "10.0.2.0/24"}},
		{[]string{"2001:db8::/33", "2001:db8:8000::/33"}, []string{"2001:db8::/32"}},
		{[]string{"1.1.1.1/32", "1.1.1.1/32"}, []string{"1.1.1.1/32"}},
	}
	for _, tt := range tests {
		var ps []netip.Prefix
		for _, in := range tt.in {
			ps = append(ps, netip.MustParsePrefix(in))
		}
		var got []string
		for _, p := range aggregate(ps) {
			got = append(got, p.String())
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("aggregate(%v) (-want +got):\n%s", tt.in, d)
		}
	}
}

// TestNSGPrioritiesInBuildOrder pins §5.4 as CCM's PatchSecurityGroup
// builds rules: Service by Service, then protocol (Tcp, Udp, *), then
// family (IPv4, IPv6), service tags before ranges; allow rules take 500 up
// in that order, deny-all rules 4095 down. The names sort otherwise.
func TestNSGPrioritiesInBuildOrder(t *testing.T) {
	st := mustBuild(t, testConfig(t),
		manifest("a", map[string]string{"azure-allowed-service-tags": "AzureCloud", "azure-deny-all-except-load-balancer-source-ranges": "true"},
			"  loadBalancerSourceRanges: [10.0.0.0/8]\n  ports:\n  - {name: u, protocol: UDP, port: 53, nodePort: 30053}\n  - {name: t, protocol: TCP, port: 80, nodePort: 30080}\n"),
		manifest("b", nil, tcp80))
	got := map[string]any{}
	for _, r := range st.OfKind(plan.KindSecurityRule) {
		got[r.Name()] = r.Properties["priority"]
	}
	want := map[string]any{
		allow("IPv4", "Tcp", []string{"AzureCloud"}, []string{"80"}): 500,
		allow("IPv4", "Tcp", []string{"10.0.0.0/8"}, []string{"80"}): 501,
		allow("IPv4", "Udp", []string{"AzureCloud"}, []string{"53"}): 502,
		allow("IPv4", "Udp", []string{"10.0.0.0/8"}, []string{"53"}): 503,
		NSGDenyAllRuleName("IPv4"):                                   4095,
		allow("IPv4", "Tcp", []string{"Internet"}, []string{"80"}):   504,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("priorities (-want +got):\n%s", d)
	}
}
