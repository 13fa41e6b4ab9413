package service

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func svcWith(ann map[string]string, mutate ...func(*corev1.ServiceSpec)) *Service {
	s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Annotations: ann}}
	s.Spec.Type = corev1.ServiceTypeLoadBalancer
	s.Spec.Ports = []corev1.ServicePort{
		{Name: "http", Port: 80, NodePort: 30080, Protocol: corev1.ProtocolTCP},
		{Name: "Status", Port: 10254, NodePort: 30254, Protocol: corev1.ProtocolTCP},
	}
	for _, m := range mutate {
		m(&s.Spec)
	}
	return New(s)
}

// TestInternalConventions pins the three readings of
// azure-load-balancer-internal (ccm-semantics §1.2).
func TestInternalConventions(t *testing.T) {
	tests := []struct {
		value                   string
		set                     bool
		forLB, forRules, forNSG bool
	}{
		{"true", true, true, true, true},
		{"True", true, false, true, true},
		{"TRUE", true, false, true, true},
		{" true", true, false, false, false},
		{"false", true, false, false, false},
		{"", false, false, false, false},
	}
	for _, tt := range tests {
		ann := map[string]string{}
		if tt.set {
			ann[AnnInternal] = tt.value
		}
		s := svcWith(ann)
		if got := [3]bool{s.InternalForLBChoice(), s.InternalForRules(), s.InternalForNSG()}; got != [3]bool{tt.forLB, tt.forRules, tt.forNSG} {
			t.Errorf("internal %q: got LB/rules/NSG %v, want %v", tt.value, got, [3]bool{tt.forLB, tt.forRules, tt.forNSG})
		}
	}
}

func TestBoolConventions(t *testing.T) {
	tests := []struct {
		key, value string
		want       bool
	}{
		{AnnDisableFloatingIP, "TRUE", true},
		{AnnDisableFloatingIP, " true", false}, // untrimmed
		{AnnDisableFloatingIP, "yes", false},
		{AnnPLSCreate, " True ", true}, // PLS booleans are trimmed
		{AnnPLSProxyProtocol, "true\n", true},
		{PortKey(80, PortNoLBRule), "True", true},
	}
	for _, tt := range tests {
		if got := svcWith(map[string]string{tt.key: tt.value}).Bool(tt.key); got != tt.want {
			t.Errorf("Bool(%s=%q) = %v, want %v", tt.key, tt.value, got, tt.want)
		}
	}
	if svcWith(nil).Bool(AnnHAPorts) {
		t.Error("absent boolean read as true")
	}
}

func TestIdleTimeout(t *testing.T) {
	tests := []struct {
		value   string
		set     bool
		want    int32
		wantErr string
	}{
		{"", false, 4, ""},
		{" 30 ", true, 30, ""},
		{"100", true, 100, ""},
		{"3", true, 0, "between 4 and 100, actual value: 3"},
		{"30m", true, 0, "value must be a whole number"},
	}
	for _, tt := range tests {
		ann := map[string]string{}
		if tt.set {
			ann[AnnIdleTimeout] = tt.value
		}
		got, set, err := svcWith(ann).IdleTimeout()
		if got != tt.want || set != tt.set || !errMatches(err, tt.wantErr) {
			t.Errorf("IdleTimeout(%q) = %d, %v, %v; want %d, %v, %q", tt.value, got, set, err, tt.want, tt.set, tt.wantErr)
		}
	}
}

func errMatches(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}

// TestProbeChain covers the per-port -> global -> default fallbacks (§4).
func TestProbeChain(t *testing.T) {
	tests := []struct {
		name         string
		ann          map[string]string
		wantInterval int32
		wantNum      int32
		wantErr      string
	}{
		{"defaults", nil, 5, 2, ""},
		{"global", map[string]string{AnnProbeInterval: "10", AnnProbeNumOfProbe: "3"}, 10, 3, ""},
		{"per-port wins", map[string]string{AnnProbeInterval: "10", PortKey(80, PortProbeInterval): "7"}, 7, 2, ""},
		{"minimum interval", map[string]string{PortKey(80, PortProbeInterval): "4"}, 0, 0, "the minimum value of interval is 5"},
		{"minimum num", map[string]string{AnnProbeNumOfProbe: "1"}, 0, 0, "the minimum value of num-of-probe is 2"},
		{"total", map[string]string{AnnProbeInterval: "20", PortKey(80, PortProbeNumOfProbe): "6"}, 0, 0, "total probe should be less than 120"},
	}
	for _, tt := range tests {
		interval, num, err := svcWith(tt.ann).ProbeTiming(80)
		if interval != tt.wantInterval || num != tt.wantNum || !errMatches(err, tt.wantErr) {
			t.Errorf("%s: ProbeTiming = %d, %d, %v; want %d, %d, %q", tt.name, interval, num, err, tt.wantInterval, tt.wantNum, tt.wantErr)
		}
	}
}

func TestProbeProtocol(t *testing.T) {
	http, grpc := "http", "kubernetes.io/h2c"
	tests := []struct {
		name     string
		ann      map[string]string
		app      *string
		want     string
		wantFrom ProbeSource
	}{
		{"default", nil, nil, "Tcp", ProbeFromDefault},
		{"global", map[string]string{AnnProbeProtocol: " https "}, nil, "Https", ProbeFromGlobalAnnotation},
		{"appProtocol beats global", map[string]string{AnnProbeProtocol: "Tcp"}, &http, "Http", ProbeFromAppProtocol},
		{"unknown appProtocol is Tcp", nil, &grpc, "Tcp", ProbeFromAppProtocol},
		{"per-port wins", map[string]string{PortKey(80, PortProbeProtocol): "Tcp"}, &http, "Tcp", ProbeFromPortAnnotation},
		{"empty per-port falls through", map[string]string{PortKey(80, PortProbeProtocol): ""}, &http, "Http", ProbeFromAppProtocol},
		{"blank global is default", map[string]string{AnnProbeProtocol: "  "}, nil, "Tcp", ProbeFromDefault},
	}
	for _, tt := range tests {
		s := svcWith(tt.ann)
		p := s.Spec.Ports[0]
		p.AppProtocol = tt.app
		got, from := s.ProbeProtocol(p)
		if got != tt.want || from != tt.wantFrom {
			t.Errorf("%s: ProbeProtocol = %s (%s), want %s (%s)", tt.name, got, from, tt.want, tt.wantFrom)
		}
	}
}

func TestProbePort(t *testing.T) {
	tests := []struct {
		value        string
		set          bool
		want         int32
		wantExplicit bool
		wantErr      string
	}{
		{"", false, 30080, false, ""},
		{"status", true, 30254, true, ""}, // port name, case-insensitive
		{"10254", true, 30254, true, ""},  // a Service port number: its nodePort
		{"10256", true, 10256, true, ""},  // any other number: used as is
		{"healthz", true, 0, true, "port healthz not found in service"},
		{"70000", true, 0, true, "port 70000 is out of range"},
	}
	for _, tt := range tests {
		ann := map[string]string{}
		if tt.set {
			ann[PortKey(80, PortProbePort)] = tt.value
		}
		s := svcWith(ann)
		got, explicit, err := s.ProbePort(s.Spec.Ports[0])
		if got != tt.want || explicit != tt.wantExplicit || !errMatches(err, tt.wantErr) {
			t.Errorf("ProbePort(%q) = %d, %v, %v; want %d, %v, %q", tt.value, got, explicit, err, tt.want, tt.wantExplicit, tt.wantErr)
		}
	}
}

func TestProbeRequestPath(t *testing.T) {
	s := svcWith(map[string]string{AnnProbeRequestPath: "/healthz", PortKey(443, PortProbeRequestPath): "/ready"})
	if got := s.ProbeRequestPath(443); got != "/ready" {
		t.Errorf("per-port path = %q", got)
	}
	if got := s.ProbeRequestPath(80); got != "/healthz" {
		t.Errorf("global path = %q", got)
	}
	if got := svcWith(nil).ProbeRequestPath(80); got != "/" {
		t.Errorf("default path = %q", got)
	}
}

func TestFamiliesAndPinnedIPs(t *testing.T) {
	dual := func(s *corev1.ServiceSpec) {
		s.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	}
	v6 := func(s *corev1.ServiceSpec) { s.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol} }

	if s := svcWith(nil); !slices.Equal(s.IPFamilies(), []corev1.IPFamily{corev1.IPv4Protocol}) || s.DualStack() || !s.IPv4() || s.IPv6() {
		t.Errorf("empty ipFamilies: got %v dual=%v", s.IPFamilies(), s.DualStack())
	}
	if s := svcWith(nil, dual); !s.DualStack() || !s.IPv6() {
		t.Error("dual-stack not detected")
	}

	names := map[string]string{AnnPIPName: "pip4", AnnPIPNameIPv6: "pip6"}
	if got := svcWith(names, dual).PIPName(true); got != "pip6" {
		t.Errorf("dual-stack IPv6 PIP name = %q", got)
	}
	if got := svcWith(map[string]string{AnnPIPName: "pip4"}, v6).PIPName(true); got != "pip4" {
		t.Errorf("single-stack IPv6 falls back to azure-pip-name, got %q", got)
	}
	if got := svcWith(map[string]string{AnnPIPName: "pip4"}, dual).PIPName(true); got != "" {
		t.Errorf("dual-stack IPv6 without -ipv6 key = %q, want generated", got)
	}

	legacy := func(s *corev1.ServiceSpec) { s.LoadBalancerIP = "20.62.10.7" }
	s := svcWith(map[string]string{AnnIPv6: "2603:1020::1"}, legacy)
	if s.LoadBalancerIP(false) != "20.62.10.7" || s.LoadBalancerIP(true) != "2603:1020::1" {
		t.Errorf("LoadBalancerIP = %q / %q", s.LoadBalancerIP(false), s.LoadBalancerIP(true))
	}
	if got := svcWith(map[string]string{AnnIPv4: ""}, legacy).LoadBalancerIP(false); got != "20.62.10.7" {
		t.Errorf("empty annotation must fall back to loadBalancerIP, got %q", got)
	}
}

func TestSubnets(t *testing.T) {
	tests := []struct {
		ann        map[string]string
		wantILB    string
		wantPLS    string
		wantPLSSet bool
	}{
		{map[string]string{AnnInternal: "true", AnnInternalSubnet: "ilb-subnet"}, "ilb-subnet", "ilb-subnet", true},
		{map[string]string{AnnInternal: "True", AnnInternalSubnet: "ilb-subnet"}, "", "", false},
		{map[string]string{AnnInternal: "true", AnnInternalSubnet: "  "}, "", "", false},
		{map[string]string{AnnInternal: "true", AnnInternalSubnet: "ilb-subnet", AnnPLSIPConfigurationSubnet: "pls-subnet"}, "ilb-subnet", "pls-subnet", true},
	}
	for _, tt := range tests {
		s := svcWith(tt.ann)
		ilb, _ := s.InternalSubnet()
		pls, plsSet := s.PLSSubnet()
		if ilb != tt.wantILB || pls != tt.wantPLS || plsSet != tt.wantPLSSet {
			t.Errorf("%v: InternalSubnet=%q PLSSubnet=%q,%v", tt.ann, ilb, pls, plsSet)
		}
	}
}

func TestPLSAccessors(t *testing.T) {
	s := svcWith(map[string]string{
		AnnPLSName:                     " partner-pls ",
		AnnPLSIPConfigurationIPCount:   " 3 ",
		AnnPLSIPConfigurationIPAddress: " 10.225.1.10  10.225.1.11 10.225.1.10",
		AnnPLSFQDNs:                    "a.contoso.com  b.contoso.com",
		AnnPLSVisibility:               "sub-a * sub-b",
		AnnPLSAutoApproval:             "sub-a",
	})
	count, err := s.PLSIPConfigCount()
	ips, ipErr := s.PLSStaticIPs()
	vis, all := s.PLSVisibility()
	got := []any{s.PLSName(), count, err, ips, ipErr, s.PLSFQDNs(), vis, all, s.PLSAutoApproval(), s.HasPLSConfig()}
	want := []any{"partner-pls", int32(3), nil, []string{"10.225.1.10", "10.225.1.11"}, nil,
		[]string{"a.contoso.com", "b.contoso.com"}, []string{"*"}, true, []string{"sub-a"}, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PLS accessors (-want +got):\n%s", diff)
	}
	if _, err := svcWith(map[string]string{AnnPLSIPConfigurationIPCount: "9"}).PLSIPConfigCount(); !errMatches(err, "maximum number of private link service ipConfig is 8, 9 provided") {
		t.Errorf("count 9: %v", err)
	}
	if _, err := svcWith(map[string]string{AnnPLSIPConfigurationIPAddress: "fd00::1"}).PLSStaticIPs(); !errMatches(err, "only supports IPv4") {
		t.Errorf("IPv6 static IP: %v", err)
	}
	// An IPv4-mapped address counts as IPv4 (net.ParseIP/To4, as CCM).
	ips, errs := svcWith(map[string]string{AnnPLSIPConfigurationIPAddress: "10.0.0.1 fd00::1 x ::ffff:10.0.0.2 10.0.0.1"}).PLSStaticIPsAndErrors()
	if want := []string{"10.0.0.1", "::ffff:10.0.0.2"}; !cmp.Equal(ips, want) || len(errs) != 2 ||
		!errMatches(errs[0], "only supports IPv4, fd00::1") || !errMatches(errs[1], "x is not a valid IP address") {
		t.Errorf("PLSStaticIPsAndErrors = %v, %v", ips, errs)
	}
	if n, _ := svcWith(nil).PLSIPConfigCount(); n != 1 {
		t.Errorf("default count = %d", n)
	}
}

func TestRangesAndTags(t *testing.T) {
	s := svcWith(map[string]string{
		AnnAllowedIPRanges:          "10.0.0.0/8, 10.1.2.3/16",
		AnnLoadBalancerSourceRanges: "192.0.2.0/24",
		AnnAllowedServiceTags:       "AzureFrontDoor.Backend, ,Storage",
		AnnPIPTags:                  "a=b, c = d ,bad,e=f=g,=x",
		AnnPIPIPTags:                "RoutingPreference=Internet,=empty,junk",
		AnnAdditionalPublicIPs:      " 20.1.1.1,2603:1020::5 ",
	}, func(sp *corev1.ServiceSpec) { sp.LoadBalancerSourceRanges = []string{" 203.0.113.0/24 ", "nope"} })

	valid, invalid := s.AllowedIPRanges()
	specValid, specInvalid := s.SourceRanges()
	ipTags, ipSet := s.PIPIPTags()
	addrs, addrErr := s.AdditionalPublicIPs()
	got := []any{valid, invalid, specValid, specInvalid, s.AllowedServiceTags(), s.PIPTags(), ipTags, ipSet, addrs, addrErr}
	want := []any{
		[]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.0/24")}, []string{"10.1.2.3/16"},
		[]netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}, []string{"nope"},
		[]string{"AzureFrontDoor.Backend", "", "Storage"},
		map[string]string{"a": "b", "c": "d"},
		map[string]string{"RoutingPreference": "Internet", "": "empty"}, true,
		[]netip.Addr{netip.MustParseAddr("20.1.1.1"), netip.MustParseAddr("2603:1020::5")}, nil,
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b netip.Prefix) bool { return a == b }), cmp.Comparer(func(a, b netip.Addr) bool { return a == b })); diff != "" {
		t.Errorf("ranges and tags (-want +got):\n%s", diff)
	}
	if _, err := svcWith(map[string]string{AnnAdditionalPublicIPs: "20.1.1.1,bad"}).AdditionalPublicIPs(); err == nil {
		t.Error("invalid additional public IP accepted")
	}
	// CCM trims the whole value but not the entries
	// (pkg/provider/loadbalancer/configuration.go:AdditionalPublicIPs splits
	// strings.TrimSpace(value) on "," and hands each entry to
	// netip.ParseAddr), so a space after a comma fails the Service.
	if _, err := svcWith(map[string]string{AnnAdditionalPublicIPs: "20.62.13.8, 20.62.13.9"}).AdditionalPublicIPs(); err == nil {
		t.Error(`"20.62.13.8, 20.62.13.9" accepted; CCM fails ParseAddr(" 20.62.13.9")`)
	}
}

func TestMiscAccessors(t *testing.T) {
	s := svcWith(map[string]string{
		AnnLoadBalancerMode:          " as-1, as-2 ",
		AnnLoadBalancerResourceGroup: " rg-net ",
		"service.beta.kubernetes.io/Azure-Load-Balancer-Configurations": "Shop, Core ",
		AnnHAPorts:  "true",
		AnnInternal: "True",
	})
	auto, sets, set := s.LoadBalancerMode()
	got := []any{auto, sets, set, s.PIPResourceGroup(), s.LoadBalancerConfigurations(), s.HAPorts()}
	want := []any{false, []string{"as-1", "as-2"}, true, "rg-net", []string{"shop", "core"}, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("misc (-want +got):\n%s", diff)
	}
	if auto, _, _ := svcWith(map[string]string{AnnLoadBalancerMode: "__AUTO__"}).LoadBalancerMode(); !auto {
		t.Error("__auto__ not recognised")
	}
}

func TestDNSLabelNameIsRaw(t *testing.T) {
	for _, tt := range []struct{ ann map[string]string }{{nil}, {map[string]string{AnnDNSLabelName: ""}}, {map[string]string{AnnDNSLabelName: " My-App "}}} {
		got, gotSet := svcWith(tt.ann).DNSLabelName()
		want, wantSet := tt.ann[AnnDNSLabelName]
		if got != want || gotSet != wantSet {
			t.Errorf("DNSLabelName(%v) = %q, %v, want %q, %v", tt.ann, got, gotSet, want, wantSet)
		}
	}
}
