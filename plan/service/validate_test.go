package service

import (
	"fmt"
	"strings"
	"testing"
)

// ruleCase builds a one-Service manifest: annotation i is on line 7+i
// (key at column 5); spec lines follow "spec:" and "  type: LoadBalancer".
type ruleCase struct {
	name string
	ann  [][2]string // key, YAML value as written
	spec string      // lines after "  type: LoadBalancer", two-space indented
	code string
	at   string // "key:i", "value:i" (annotation i) or "spec:n:col" (n-th spec line, 1-based)
}

func (rc ruleCase) manifest() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Service\nmetadata:\n  name: t\n  namespace: rules\n")
	if len(rc.ann) > 0 {
		b.WriteString("  annotations:\n")
		for _, kv := range rc.ann {
			fmt.Fprintf(&b, "    %s: %s\n", kv[0], kv[1])
		}
	}
	b.WriteString("spec:\n  type: LoadBalancer\n")
	spec := rc.spec
	if spec == "" {
		spec = "  ports:\n  - name: https\n    protocol: TCP\n    port: 443\n    nodePort: 31443\n"
	}
	b.WriteString(spec)
	return b.String()
}

// wantPos turns rc.at into a line and column of the manifest.
func (rc ruleCase) wantPos() (int, int) {
	parts := strings.Split(rc.at, ":")
	var i, col int
	fmt.Sscan(parts[1], &i)
	switch parts[0] {
	case "key":
		return 7 + i, 5
	case "value":
		return 7 + i, 5 + len(rc.ann[i][0]) + 2
	}
	fmt.Sscan(parts[2], &col)
	annLines := 0
	if len(rc.ann) > 0 {
		annLines = 1 + len(rc.ann)
	}
	return 5 + annLines + 2 + i, col
}

func TestValidateRules(t *testing.T) {
	P := Prefix
	ports := func(lines ...string) string { return "  ports:\n" + strings.Join(lines, "\n") + "\n" }
	https := "  - {name: https, protocol: TCP, port: 443, nodePort: 31443}"
	tests := []ruleCase{
		{"unknown azure key", [][2]string{{P + "azure-load-balancer-interal", `"true"`}}, "", CodeUnknownAnnotation, "key:0"},
		{"unknown azure key, wrong case", [][2]string{{P + "Azure-DNS-Label-Name", "x"}}, "", CodeUnknownAnnotation, "key:0"},
		{"unknown per-port param", [][2]string{{P + "port_443_health-probe_protocl", "Http"}}, "", CodeUnknownPortKey, "key:0"},
		{"per-port key with a port name", [][2]string{{P + "port_https_no_lb_rule", `"true"`}}, "", CodeUnknownPortKey, "key:0"},
		{"per-port key for a missing port", [][2]string{{P + "port_8443_no_probe_rule", `"true"`}}, "", CodePortNotInService, "key:0"},
		{"not an integer", [][2]string{{P + "azure-load-balancer-health-probe-interval", `"5s"`}}, "", CodeNotInteger, "value:0"},
		{"idle timeout too low", [][2]string{{AnnIdleTimeout, `"3"`}}, "", CodeIdleTimeoutRange, "value:0"},
		{"idle timeout too high", [][2]string{{AnnIdleTimeout, `"101"`}}, "", CodeIdleTimeoutRange, "value:0"},
		{"probe interval below 5", [][2]string{{PortKey(443, PortProbeInterval), `"4"`}}, "", CodeProbeIntervalMin, "value:0"},
		{"num-of-probe below 2", [][2]string{{AnnProbeNumOfProbe, `"1"`}}, "", CodeProbeNumMin, "value:0"},
		{"PLS count above 8", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationIPCount, `"9"`}}, "", CodePLSCountRange, "value:2"},
		{"PLS count 0", [][2]string{{AnnPLSIPConfigurationIPCount, `"0"`}}, "", CodePLSCountRange, "value:0"},
		{"PLS static IP not an IP", [][2]string{{AnnPLSIPConfigurationIPAddress, "10.225.1.300"}}, "", CodePLSStaticIP, "value:0"},
		{"PLS static IP is IPv6", [][2]string{{AnnPLSIPConfigurationIPAddress, "fd00::1"}}, "", CodePLSStaticIP, "value:0"},
		{"unmasked CIDR", [][2]string{{AnnAllowedIPRanges, "10.0.0.1/24"}}, "", CodeInvalidCIDR, "value:0"},
		{"empty source-ranges annotation", [][2]string{{AnnLoadBalancerSourceRanges, `""`}}, "", CodeInvalidCIDR, "value:0"},
		{"bad spec source range", nil, "  loadBalancerSourceRanges:\n  - 203.0.113.0/24\n  - 203.0.113.5/24\n" + ports(https), CodeInvalidCIDR, "spec:3:5"},
		{"invalid pinned IP", [][2]string{{AnnIPv4, "20.62.10"}}, "", CodeInvalidIP, "value:0"},
		{"invalid additional IP", [][2]string{{AnnAdditionalPublicIPs, "20.62.10.9,nope"}}, "", CodeInvalidIP, "value:0"},
		{"invalid loadBalancerIP", nil, "  loadBalancerIP: 20.62.10.x\n" + ports(https), CodeInvalidIP, "spec:1:19"},
		{"IPv4 key with IPv6", [][2]string{{AnnIPv4, `"2603:1020::1"`}}, "", CodeIPFamilyMismatch, "value:0"},
		{"IPv6 key with IPv4", [][2]string{{AnnIPv6, "20.62.10.5"}}, "", CodeIPFamilyMismatch, "value:0"},
		{"probe port not a port", [][2]string{{PortKey(443, PortProbePort), "healthz"}}, "", CodeProbePort, "value:0"},
		{"probe port out of range", [][2]string{{PortKey(443, PortProbePort), `"65536"`}}, "", CodeProbePort, "value:0"},
		{"private IP on external", [][2]string{{AnnIPv4, "10.224.0.10"}}, "", CodeNonPublicIP, "value:0"},
		{"CGNAT IP on external", nil, "  loadBalancerIP: 100.64.1.1\n" + ports(https), CodeNonPublicIP, "spec:1:19"},
		{"wireserver IP on external", [][2]string{{AnnIPv4, "168.63.129.16"}}, "", CodeNonPublicIP, "value:0"},
		{"unsupported protocol", nil, ports("  - {name: x, protocol: ICMP, port: 7, nodePort: 30007}"), CodeProtocol, "spec:2:25"},
		{"both source range kinds", [][2]string{{AnnAllowedIPRanges, "192.0.2.0/24"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeBothSourceRanges, "key:0"},
		{"both with the k8s annotation", [][2]string{{AnnLoadBalancerSourceRanges, "192.0.2.0/24"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeBothSourceRanges, "key:0"},
		{"SCTP external", nil, ports("  - {name: s, protocol: SCTP, port: 3868, nodePort: 31868}"), CodeSCTPExternal, "spec:2:25"},
		{"SCTP with True is internal for rules", [][2]string{{AnnInternal, `"True"`}}, ports("  - {name: s, protocol: SCTP, port: 3868, nodePort: 31868}"), CodeInternalNotExact, "value:0"},
		{"PLS external with floating IP", [][2]string{{AnnPLSCreate, `"true"`}}, "", CodePLSExternalFIP, "key:0"},
		{"PLS IPv6-only", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}}, "  ipFamilies: [IPv6]\n" + ports(https), CodePLSIPv6Only, "key:1"},
		{"interval x num >= 120", [][2]string{{AnnProbeInterval, `"20"`}, {AnnProbeNumOfProbe, `"6"`}}, "", CodeProbeTotal, "value:0"},
		{"interval x num via per-port fallback", [][2]string{{AnnProbeNumOfProbe, `"4"`}, {PortKey(443, PortProbeInterval), `"30"`}}, "", CodeProbeTotal, "value:1"},
		{"more static IPs than count", [][2]string{{AnnPLSIPConfigurationIPAddress, "10.225.1.10 10.225.1.11"}}, "", CodePLSTooManyIPs, "value:0"},
		{"nodePort needed", [][2]string{{AnnDisableFloatingIP, `"true"`}}, "  allocateLoadBalancerNodePorts: false\n" + ports("  - {name: https, protocol: TCP, port: 443}"), CodeNodePortsNeeded, "spec:3:40"},
		{"nodePort needed by probe", nil, "  allocateLoadBalancerNodePorts: false\n" + ports("  - {name: https, protocol: TCP, port: 443}"), CodeNodePortsNeeded, "spec:3:40"},
		{"removed annotation", [][2]string{{AnnSharedSecurityRule, `"true"`}}, "", CodeRemovedAnnotation, "key:0"},
		{"internal True", [][2]string{{AnnInternal, `"True"`}}, "", CodeInternalNotExact, "value:0"},
		{"appProtocol switches probe", nil, ports("  - {name: web, protocol: TCP, appProtocol: http, port: 80, nodePort: 30080}"), CodeAppProtocolProbe, "spec:2:45"},
		{"port out of range", nil, ports("  - {name: https, protocol: TCP, port: 70000, nodePort: 31443}"), CodePortRange, "spec:2:40"},
		{"port listed twice", nil, ports(https, "  - {name: again, protocol: TCP, port: 443, nodePort: 31444}"), CodeDuplicatePort, "spec:3:40"},
		{"PLS proxy with ETP Local", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSProxyProtocol, `"true"`}, {AnnPLSIPConfigurationSubnet, "pls-subnet"}}, "  externalTrafficPolicy: Local\n" + ports(https), CodePLSProxyETPLocal, "key:2"},
		{"PLS default subnet with ETP Local", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}}, "  externalTrafficPolicy: Local\n  healthCheckNodePort: 32100\n" + ports(https), CodePLSSubnetETPLocal, "key:1"},
		{"PLS subnet equals ILB subnet with ETP Local", [][2]string{{AnnInternal, `"true"`}, {AnnInternalSubnet, "ilb-subnet"}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationSubnet, "ilb-subnet"}}, "  externalTrafficPolicy: Local\n  healthCheckNodePort: 32100\n" + ports(https), CodePLSSubnetETPLocal, "value:3"},
		{"mode on standard", [][2]string{{AnnLoadBalancerMode, "__auto__"}}, "", CodeModeIgnored, "key:0"},
		{"boolean yes", [][2]string{{AnnDisableTCPReset, "yes"}}, "", CodeNotBoolean, "value:0"},
		{"untrimmed boolean", [][2]string{{PortKey(443, PortNoProbeRule), `" true"`}}, "", CodeNotBoolean, "value:0"},
		{"tag pair dropped", [][2]string{{AnnPIPTags, "a=b,c"}}, "", CodeTagPairDropped, "value:0"},
		{"ip tag pair dropped", [][2]string{{AnnPIPIPTags, "RoutingPreference"}}, "", CodeTagPairDropped, "value:0"},
		{"unknown probe protocol", [][2]string{{PortKey(443, PortProbeProtocol), "grpc"}}, "", CodeProbeProtocolValue, "value:0"},
		{"internal subnet on external", [][2]string{{AnnInternalSubnet, "ilb-subnet"}}, "", CodeIgnoredNotInternal, "key:0"},
		{"HA ports on external", [][2]string{{AnnHAPorts, `"true"`}}, "", CodeIgnoredNotInternal, "key:0"},
		{"service tags with spec ranges", [][2]string{{AnnAllowedServiceTags, "AzureFrontDoor.Backend"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeServiceTagsRanges, "key:0"},
		{"deny-all without ranges", [][2]string{{AnnDenyAllExceptSourceRanges, `"true"`}}, "", CodeDenyAllNoRanges, "key:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Decode("rule.yaml", []byte(tt.manifest()))
			if len(in.Diagnostics) > 0 || len(in.Services) != 1 {
				t.Fatalf("manifest does not decode: %v\n%s", in.Diagnostics, tt.manifest())
			}
			ds := Validate(in.Services)
			if len(ds) != 1 {
				t.Fatalf("want exactly one diagnostic %s, got %d: %v\n%s", tt.code, len(ds), ds, tt.manifest())
			}
			d := ds[0]
			line, col := tt.wantPos()
			if d.Code != tt.code || d.Pos.Line != line || d.Pos.Column != col || d.Pos.File != "rule.yaml" {
				t.Errorf("got %s at %s, want %s at rule.yaml:%d:%d\n%s", d.Code, d.Pos, tt.code, line, col, tt.manifest())
			}
			if d.Severity != severityOf(tt.code) || d.Service != "rules/t" || d.Message == "" || d.Hint == "" || d.Field == "" {
				t.Errorf("incomplete diagnostic %+v", d)
			}
		})
	}
}

func TestRulesTable(t *testing.T) {
	seen := map[string]bool{}
	prev := ""
	for _, r := range Rules() {
		if seen[r.Code] || r.Code <= prev || r.Title == "" || r.Severity != severityOf(r.Code) {
			t.Errorf("bad rule %+v (after %s)", r, prev)
		}
		seen[r.Code], prev = true, r.Code
	}
}

// TestValidateClean: a correct Service that uses many annotations yields no
// diagnostic, and an ETP Local per-port key may name the healthCheckNodePort.
func TestValidateClean(t *testing.T) {
	rc := ruleCase{ann: [][2]string{
		{AnnInternal, `"true"`}, {AnnInternalSubnet, "ilb-subnet"}, {AnnHAPorts, `"TRUE"`},
		{AnnProbeInterval, `" 10 "`}, {PortKey(32100, PortProbeNumOfProbe), `"3"`},
		{AnnAllowedIPRanges, "10.0.0.0/8, 2001:db8::/32"}, {AnnIdleTimeout, `"100"`},
	}, spec: "  externalTrafficPolicy: Local\n  healthCheckNodePort: 32100\n  ports:\n  - {name: https, port: 443, appProtocol: https}\n"}
	in := Decode("clean.yaml", []byte(rc.manifest()))
	if ds := append(in.Diagnostics, Validate(in.Services)...); len(ds) != 0 {
		t.Errorf("unexpected diagnostics: %v", ds)
	}
}

func TestSuggestions(t *testing.T) {
	tests := []struct {
		key, want string
	}{
		{Prefix + "azure-load-balancer-interal", "did you mean " + AnnInternal + "?"},
		{Prefix + "azure-pls-ip-configuration-ip-adress", "did you mean " + AnnPLSIPConfigurationIPAddress + "?"},
		{Prefix + "Azure-Load-Balancer-Internal", "did you mean " + AnnInternal + "?"},
		{Prefix + "port_443_health-probe-port", "did you mean port_443_health-probe_port?"},
		{Prefix + "port_HTTPS_no_lb_rule", "did you mean port_443_no_lb_rule?"},
	}
	for _, tt := range tests {
		rc := ruleCase{ann: [][2]string{{tt.key, "x"}}}
		in := Decode("s.yaml", []byte(rc.manifest()))
		ds := Validate(in.Services)
		if len(ds) != 1 || !strings.Contains(ds[0].Message, tt.want) || !strings.Contains(ds[0].Hint, "rename the key") {
			t.Errorf("%s: got %v, want a message with %q", tt.key, ds, tt.want)
		}
	}
	rc := ruleCase{ann: [][2]string{{Prefix + "azure-something-else-entirely-different", "x"}}}
	if ds := Validate(Decode("s.yaml", []byte(rc.manifest())).Services); len(ds) != 1 || strings.Contains(ds[0].Message, "did you mean") {
		t.Errorf("far-off key got a suggestion: %v", ds)
	}
}
