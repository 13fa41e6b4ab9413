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
		{"PLS count 0", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationIPCount, `"0"`}}, "", CodePLSCountRange, "value:2"},
		{"PLS static IP not an IP", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationIPAddress, "10.225.1.300"}}, "", CodePLSStaticIP, "value:2"},
		{"PLS static IP is IPv6", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationIPAddress, "fd00::1"}}, "", CodePLSStaticIP, "value:2"},
		{"unmasked CIDR", [][2]string{{AnnAllowedIPRanges, "10.0.0.1/24"}}, "", CodeInvalidCIDR, "value:0"},
		{"empty source-ranges annotation", [][2]string{{AnnLoadBalancerSourceRanges, `""`}}, "", CodeInvalidCIDR, "value:0"},
		{"bad spec source range", nil, "  loadBalancerSourceRanges:\n  - 203.0.113.0/24\n  - 203.0.113.5/24\n" + ports(https), CodeInvalidCIDR, "spec:3:5"},
		{"invalid pinned IP", [][2]string{{AnnIPv4, "20.62.10"}}, "", CodeInvalidIP, "value:0"},
		{"invalid additional IP", [][2]string{{AnnAdditionalPublicIPs, "20.62.10.9,nope"}}, "", CodeInvalidIP, "value:0"},
		{"additional IPs with a space", [][2]string{{AnnAdditionalPublicIPs, `"20.62.13.8, 20.62.13.9"`}}, "", CodeInvalidIP, "value:0"},
		{"invalid loadBalancerIP", nil, "  loadBalancerIP: 20.62.10.x\n" + ports(https), CodeInvalidIP, "spec:1:19"},
		{"IPv4 key with IPv6", [][2]string{{AnnIPv4, `"2603:1020::1"`}}, "", CodeIPFamilyMismatch, "value:0"},
		{"IPv6 key with IPv4", [][2]string{{AnnIPv6, "20.62.10.5"}}, "  ipFamilies: [IPv4, IPv6]\n" + ports(https), CodeIPFamilyMismatch, "value:0"},
		{"probe port not a port", [][2]string{{PortKey(443, PortProbePort), "healthz"}}, "", CodeProbePort, "value:0"},
		{"probe port out of range", [][2]string{{PortKey(443, PortProbePort), `"65536"`}}, "", CodeProbePort, "value:0"},
		{"private IP on external", [][2]string{{AnnIPv4, "10.224.0.10"}}, "", CodeNonPublicIP, "value:0"},
		{"CGNAT IP on external", nil, "  loadBalancerIP: 100.64.1.1\n" + ports(https), CodeNonPublicIP, "spec:1:19"},
		{"wireserver IP on external", [][2]string{{AnnIPv4, "168.63.129.16"}}, "", CodeNonPublicIP, "value:0"},
		{"unsupported protocol", nil, ports("  - {name: x, protocol: ICMP, port: 7, nodePort: 30007}"), CodeProtocol, "spec:2:25"},
		{"both source range kinds", [][2]string{{AnnAllowedIPRanges, "192.0.2.0/24"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeBothSourceRanges, "key:0"},
		{"both with the k8s annotation", [][2]string{{AnnLoadBalancerSourceRanges, "192.0.2.0/24"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeBothSourceRanges, "key:0"},
		{"SCTP external", nil, ports("  - {name: s, protocol: SCTP, port: 3868, nodePort: 31868}"), CodeSCTPExternal, "spec:2:25"},
		{"SCTP with True is internal for rules", [][2]string{{AnnInternal, `"True"`}}, ports("  - {name: s, protocol: SCTP, port: 3868, nodePort: 31868}"), CodeExposureBoolean, "value:0"},
		{"PLS external with floating IP", [][2]string{{AnnPLSCreate, `"true"`}}, "", CodePLSExternalFIP, "key:0"},
		{"PLS IPv6-only", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}}, "  ipFamilies: [IPv6]\n" + ports(https), CodePLSIPv6Only, "key:1"},
		{"interval x num >= 120", [][2]string{{AnnProbeInterval, `"20"`}, {AnnProbeNumOfProbe, `"6"`}}, "", CodeProbeTotal, "value:0"},
		{"interval x num via per-port fallback", [][2]string{{AnnProbeNumOfProbe, `"4"`}, {PortKey(443, PortProbeInterval), `"30"`}}, "", CodeProbeTotal, "value:1"},
		{"more static IPs than count", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationIPAddress, "10.225.1.10 10.225.1.11"}}, "", CodePLSTooManyIPs, "value:2"},
		{"nodePort needed", [][2]string{{AnnDisableFloatingIP, `"true"`}}, "  allocateLoadBalancerNodePorts: false\n" + ports("  - {name: https, protocol: TCP, port: 443}"), CodeNodePortsNeeded, "spec:3:40"},
		{"nodePort needed by probe", nil, "  allocateLoadBalancerNodePorts: false\n" + ports("  - {name: https, protocol: TCP, port: 443}"), CodeNodePortsNeeded, "spec:3:40"},
		{"removed annotation", [][2]string{{AnnSharedSecurityRule, `"true"`}}, "", CodeRemovedAnnotation, "key:0"},
		{"mixed-protocols key", [][2]string{{AnnMixedProtocols, `"true"`}}, "", CodeRemovedAnnotation, "key:0"},
		{"internal True", [][2]string{{AnnInternal, `"True"`}}, "", CodeExposureBoolean, "value:0"},
		{"appProtocol switches probe", nil, ports("  - {name: web, protocol: TCP, appProtocol: http, port: 80, nodePort: 30080}"), CodeAppProtocolProbe, "spec:2:45"},
		{"port out of range", nil, ports("  - {name: https, protocol: TCP, port: 70000, nodePort: 31443}"), CodePortRange, "spec:2:40"},
		{"port listed twice", nil, ports(https, "  - {name: again, protocol: TCP, port: 443, nodePort: 31444}"), CodeDuplicatePort, "spec:3:40"},
		{"port name listed twice", nil, ports(https, "  - {name: https, protocol: TCP, port: 8443, nodePort: 31444}"), CodeDuplicatePortName, "spec:3:12"},
		{"PLS proxy with ETP Local", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSProxyProtocol, `"true"`}, {AnnPLSIPConfigurationSubnet, "pls-subnet"}}, "  externalTrafficPolicy: Local\n" + ports(https), CodePLSProxyETPLocal, "key:2"},
		{"PLS default subnet with ETP Local", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}}, "  externalTrafficPolicy: Local\n  healthCheckNodePort: 32100\n" + ports(https), CodePLSSubnetETPLocal, "key:1"},
		{"PLS subnet equals ILB subnet with ETP Local", [][2]string{{AnnInternal, `"true"`}, {AnnInternalSubnet, "ilb-subnet"}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationSubnet, "ilb-subnet"}}, "  externalTrafficPolicy: Local\n  healthCheckNodePort: 32100\n" + ports(https), CodePLSSubnetETPLocal, "value:3"},
		{"mode on standard", [][2]string{{AnnLoadBalancerMode, "__auto__"}}, "", CodeModeIgnored, "key:0"},
		// A boolean that decides who can reach the Service: "yes" is read
		// as false, and for the internal key that means public (issue 22).
		{"internal yes", [][2]string{{AnnInternal, "yes"}}, "", CodeExposureBoolean, "value:0"},
		{"internal untrimmed", [][2]string{{AnnInternal, `" true"`}}, "", CodeExposureBoolean, "value:0"},
		{"deny-all yes", [][2]string{{AnnDenyAllExceptSourceRanges, "yes"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeExposureBoolean, "value:0"},
		{"HA ports on", [][2]string{{AnnInternal, `"true"`}, {AnnHAPorts, "on"}}, "", CodeExposureBoolean, "value:1"},
		{"floating IP yes", [][2]string{{AnnDisableFloatingIP, "yes"}}, "", CodeExposureBoolean, "value:0"},
		{"NSG rule yes", [][2]string{{AnnDisableNSGRule, "yes"}}, "", CodeExposureBoolean, "value:0"},
		{"PLS create yes", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, "yes"}}, "", CodeExposureBoolean, "value:1"},
		{"PLS proxy protocol 1", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSProxyProtocol, `"1"`}}, "", CodeExposureBoolean, "value:2"},
		{"no_lb_rule yes", [][2]string{{PortKey(443, PortNoLBRule), "yes"}}, "", CodeExposureBoolean, "value:0"},
		{"boolean yes", [][2]string{{AnnDisableTCPReset, "yes"}}, "", CodeNotBoolean, "value:0"},
		{"untrimmed boolean", [][2]string{{PortKey(443, PortNoProbeRule), `" true"`}}, "", CodeNotBoolean, "value:0"},
		{"tag pair dropped", [][2]string{{AnnPIPTags, "a=b,c"}}, "", CodeTagPairDropped, "value:0"},
		{"ip tag pair dropped", [][2]string{{AnnPIPIPTags, "RoutingPreference"}}, "", CodeTagPairDropped, "value:0"},
		{"unknown probe protocol", [][2]string{{PortKey(443, PortProbeProtocol), "grpc"}}, "", CodeProbeProtocolValue, "value:0"},
		{"internal subnet on external", [][2]string{{AnnInternalSubnet, "ilb-subnet"}}, "", CodeIgnoredNotInternal, "key:0"},
		{"HA ports on external", [][2]string{{AnnHAPorts, `"true"`}}, "", CodeIgnoredNotInternal, "key:0"},
		{"service tags with spec ranges", [][2]string{{AnnAllowedServiceTags, "AzureFrontDoor.Backend"}}, "  loadBalancerSourceRanges: [203.0.113.0/24]\n" + ports(https), CodeServiceTagsRanges, "key:0"},
		{"deny-all without ranges", [][2]string{{AnnDenyAllExceptSourceRanges, `"true"`}}, "", CodeDenyAllNoRanges, "key:0"},
		// Values that become Azure names, URL segments, labels and tags.
		{"PIP resource group with a path", [][2]string{{AnnLoadBalancerResourceGroup, `"/../../x"`}}, "", CodeResourceGroupName, "value:0"},
		{"PIP resource group too long", [][2]string{{AnnLoadBalancerResourceGroup, strings.Repeat("r", 91)}}, "", CodeResourceGroupName, "value:0"},
		{"PIP resource group ends with a dot", [][2]string{{AnnLoadBalancerResourceGroup, "rg."}}, "", CodeResourceGroupName, "value:0"},
		{"PLS resource group non-ASCII", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSResourceGroup, "rg-ü"}}, "", CodeResourceGroupName, "value:2"},
		{"PIP name with ../", [][2]string{{AnnPIPName, "pip/../victim"}}, "", CodeResourceName, "value:0"},
		{"PIP name with %2F", [][2]string{{AnnPIPName, "pip%2Fvictim"}}, "", CodeResourceName, "value:0"},
		{"PIP name with ?", [][2]string{{AnnPIPName, `"pip?x=1"`}}, "", CodeResourceName, "value:0"},
		{"PIP name with #", [][2]string{{AnnPIPName, `"pip#frag"`}}, "", CodeResourceName, "value:0"},
		{"PIP name with a control character", [][2]string{{AnnPIPName, `"pip\u001b[2J"`}}, "", CodeResourceName, "value:0"},
		{"PIP name too long", [][2]string{{AnnPIPName, strings.Repeat("p", 81)}}, "", CodeResourceName, "value:0"},
		{"IPv6 PIP name ending with a dot", [][2]string{{AnnPIPNameIPv6, "pip6."}}, "  ipFamilies: [IPv4, IPv6]\n" + ports(https), CodeResourceName, "value:0"},
		{"PLS name with a space", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSName, `"my pls"`}}, "", CodeResourceName, "value:2"},
		{"internal subnet with a slash", [][2]string{{AnnInternal, `"true"`}, {AnnInternalSubnet, "a/b"}}, "", CodeResourceName, "value:1"},
		{"PLS subnet non-ASCII", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSIPConfigurationSubnet, "sübnet"}}, "", CodeResourceName, "value:2"},
		{"DNS label upper case", [][2]string{{AnnDNSLabelName, "Shop"}}, "", CodeDNSLabel, "value:0"},
		{"DNS label too long", [][2]string{{AnnDNSLabelName, strings.Repeat("a", 64)}}, "", CodeDNSLabel, "value:0"},
		{"DNS label non-ASCII", [][2]string{{AnnDNSLabelName, "shöp"}}, "", CodeDNSLabel, "value:0"},
		{"DNS label starting with a digit", [][2]string{{AnnDNSLabelName, "1shop"}}, "", CodeDNSLabel, "value:0"},
		{"prefix ID not an ID", [][2]string{{AnnPIPPrefixID, "my-prefix"}}, "", CodePrefixID, "value:0"},
		{"prefix ID with a bad name", [][2]string{{AnnPIPPrefixID, "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/publicIPPrefixes/p%2F.."}}, "", CodePrefixID, "value:0"},
		{"tag name with a slash", [][2]string{{AnnPIPTags, "team/a=x"}}, "", CodeTag, "value:0"},
		{"tag value too long", [][2]string{{AnnPIPTags, "a=" + strings.Repeat("v", 257)}}, "", CodeTag, "value:0"},
		{"ip tag with a control character", [][2]string{{AnnPIPIPTags, `"FirstPartyUsage=/a\u0007"`}}, "", CodeTag, "value:0"},
		{"FQDNs separated by commas", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSFQDNs, `"a.example.com, b.example.com"`}}, "", CodeFQDN, "value:2"},
		{"visibility not a GUID", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSVisibility, "my-subscription"}}, "", CodeSubscriptionID, "value:2"},
		{"auto-approval with a comma", [][2]string{{AnnInternal, `"true"`}, {AnnPLSCreate, `"true"`}, {AnnPLSAutoApproval, `"6d3e1f4a-9b2c-4e8d-a7f0-1c5b8e2d4f96, 0f8e2d1c-7a6b-4c59-8e3d-2b1a9f0c7e64"`}}, "", CodeSubscriptionID, "value:2"},
		{"service tags separated by spaces", [][2]string{{AnnAllowedServiceTags, `"Internet AzureCloud"`}}, "", CodeServiceTag, "value:0"},
		{"empty service tag", [][2]string{{AnnAllowedServiceTags, `"Internet,"`}}, "", CodeServiceTag, "value:0"},
		{"request path with a space", [][2]string{{PortKey(443, PortProbeProtocol), "Http"}, {PortKey(443, PortProbeRequestPath), `"/health z"`}}, "", CodeRequestPath, "value:1"},
		{"no ports", nil, "  selector: {app: x}\n", CodeNoPorts, "spec:-1:1"},
		{"empty ports", nil, "  ports: []\n", CodeNoPorts, "spec:1:3"},
		{"annotation key with a space", [][2]string{{`"my key"`, "x"}}, "", CodeAnnotationKey, "key:0"},
		// Keys CCM would ignore without a word.
		{"prefix typo", [][2]string{{"service.beta.kubernete.io/azure-load-balancer-internal", `"true"`}}, "", CodeMisspeltKey, "key:0"},
		{"prefix typo, upstream", [][2]string{{"service.kubernets.io/azure-load-balancer-internal", `"true"`}}, "", CodeMisspeltKey, "key:0"},
		{"bare CCM key", [][2]string{{"azure-load-balancer-internal", `"true"`}}, "", CodeMisspeltKey, "key:0"},
		{"CCM name under the upstream prefix", [][2]string{{UpstreamPrefix + "azure-load-balancer-internal", `"true"`}}, "", CodeMisspeltKey, "key:0"},
		{"CCM name under another prefix", [][2]string{{"kubernetes.io/azure-dns-label-name", "shop"}}, "", CodeMisspeltKey, "key:0"},
		{"near-miss name under the beta prefix", [][2]string{{P + "load-balancer-source-range", "10.0.0.0/8"}}, "", CodeMisspeltKey, "key:0"},
		{"another cloud's annotation", [][2]string{{P + "aws-load-balancer-type", "nlb"}}, "", CodeForeignAnnotation, "key:0"},
		{"unknown upstream annotation", [][2]string{{UpstreamPrefix + "something", "x"}}, "", CodeForeignAnnotation, "key:0"},
		// Settings CCM ignores in context.
		{"request path on a Tcp probe", [][2]string{{PortKey(443, PortProbeRequestPath), "/healthz"}}, "", CodeIgnoredInContext, "key:0"},
		{"global request path, Tcp everywhere", [][2]string{{AnnProbeRequestPath, "/healthz"}}, "", CodeIgnoredInContext, "key:0"},
		{"probe setting on a UDP port", [][2]string{{PortKey(53, PortProbeInterval), `"10"`}}, ports("  - {name: dns, protocol: UDP, port: 53, nodePort: 30053}"), CodeIgnoredInContext, "key:0"},
		{"probe setting with no_probe_rule", [][2]string{{PortKey(443, PortNoProbeRule), `"true"`}, {PortKey(443, PortProbeProtocol), "Http"}}, "", CodeIgnoredInContext, "key:1"},
		{"global protocol under ETP Local", [][2]string{{AnnProbeProtocol, "Http"}}, "  externalTrafficPolicy: Local\n  healthCheckNodePort: 32100\n" + ports(https), CodeIgnoredInContext, "key:0"},
		{"no_lb_rule with HA ports", [][2]string{{AnnInternal, `"true"`}, {AnnHAPorts, `"true"`}, {PortKey(443, PortNoLBRule), `"true"`}}, "", CodeIgnoredInContext, "key:2"},
		{"session affinity timeout", nil, "  sessionAffinity: ClientIP\n  sessionAffinityConfig: {clientIP: {timeoutSeconds: 600}}\n" + ports(https), CodeIgnoredInContext, "spec:2:54"},
		{"DNS label on an internal Service", [][2]string{{AnnInternal, `"true"`}, {AnnDNSLabelName, "shop"}}, "", CodePublicIPOnInternal, "key:1"},
		{"PLS setting without create", [][2]string{{AnnPLSName, "my-pls"}}, "", CodePLSWithoutCreate, "key:0"},
		{"IPv6 setting on an IPv4 Service", [][2]string{{AnnPIPNameIPv6, "pip6"}}, "", CodeFamilyIgnored, "key:0"},
		{"IPv6 loadBalancerIP on an IPv4 Service", nil, "  loadBalancerIP: 2603:1020::5\n" + ports(https), CodeFamilyIgnored, "spec:1:19"},
		{"loadBalancerIP overridden by the annotation", [][2]string{{AnnIPv4, "20.62.10.5"}}, "  loadBalancerIP: 20.62.10.6\n" + ports(https), CodeFamilyIgnored, "spec:1:19"},
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
		if seen[r.Code] || r.Code <= prev || r.Title == "" || r.Severity != severityOf(r.Code) || r.Description == "" || r.Help == "" {
			t.Errorf("bad rule %+v (after %s)", r, prev)
		}
		seen[r.Code], prev = true, r.Code
	}
	if n := len(ruleHelp()); n != len(seen) {
		t.Errorf("ruleHelp explains %d codes, Rules has %d", n, len(seen))
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
		{"service.beta.kubernete.io/azure-load-balancer-internal", "did you mean " + AnnInternal + "?"},
		{"azure-load-balancer-internal", "did you mean " + AnnInternal + "?"},
		{"azure-load-balancer-interal", "did you mean " + AnnInternal + "?"},
		{"Service.Beta.Kubernetes.IO/azure-load-balancer-internal", "did you mean " + AnnInternal + "?"},
		{UpstreamPrefix + "azure-pls-create", "did you mean " + AnnPLSCreate + "?"},
	}
	for _, tt := range tests {
		rc := ruleCase{ann: [][2]string{{tt.key, "x"}}}
		in := Decode("s.yaml", []byte(rc.manifest()))
		ds := Validate(in.Services)
		var found bool
		for _, d := range ds {
			found = found || strings.Contains(d.Message, tt.want) && strings.Contains(d.Hint, "rename the key") && d.Severity == SeverityError
		}
		if !found {
			t.Errorf("%s: got %v, want an error with %q", tt.key, ds, tt.want)
		}
	}
	rc := ruleCase{ann: [][2]string{{Prefix + "azure-something-else-entirely-different", "x"}}}
	if ds := Validate(Decode("s.yaml", []byte(rc.manifest())).Services); len(ds) != 1 || strings.Contains(ds[0].Message, "did you mean") {
		t.Errorf("far-off key got a suggestion: %v", ds)
	}
}
