package service

import (
	"strings"
	"testing"
)

func TestRegistryCounts(t *testing.T) {
	var fixed, perPort, upstream, removed int
	for _, a := range Annotations() {
		switch {
		case a.Removed:
			removed++
		case a.PerPort():
			perPort++
		case strings.HasPrefix(a.Key, Prefix+"azure-"):
			fixed++
		default:
			upstream++
		}
		if a.Type == "" || a.Convention == "" || a.Affects == "" || a.Ref == "" {
			t.Errorf("%s: incomplete entry %+v", a.Key, a)
		}
	}
	// ccm-semantics §1.1: 37 fixed keys, 7 per-port templates, 1 upstream
	// key, plus the removed azure-shared-securityrule and
	// azure-load-balancer-mixed-protocols.
	if fixed != 37 || perPort != 7 || upstream != 1 || removed != 2 {
		t.Errorf("fixed=%d perPort=%d upstream=%d removed=%d, want 37/7/1/2", fixed, perPort, upstream, removed)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		key       string
		wantOK    bool
		wantParam string
		wantType  ValueType
	}{
		{AnnIdleTimeout, true, "", TypeInt},
		{AnnPLSCreate, true, "", TypeBool},
		{AnnLoadBalancerSourceRanges, true, "", TypeCIDRList},
		{PortKey(443, PortProbeProtocol), true, PortProbeProtocol, TypeEnum},
		{PortKey(53, PortNoLBRule), true, PortNoLBRule, TypeBool},
		{Prefix + "port_443_health-probe_protocl", false, "", ""},
		{Prefix + "port_https_no_lb_rule", false, "", ""},
		{Prefix + "azure-load-balancer-interal", false, "", ""},
		{"example.com/other", false, "", ""},
	}
	reg := NewRegistry()
	for _, tt := range tests {
		a, ok := reg.Lookup(tt.key)
		if ok != tt.wantOK || a.Param != tt.wantParam || a.Type != tt.wantType {
			t.Errorf("Lookup(%q) = %q %q %v, want %q %q %v", tt.key, a.Param, a.Type, ok, tt.wantParam, tt.wantType, tt.wantOK)
		}
	}
	if a, ok := Lookup(AnnSharedSecurityRule); !ok || !a.Removed {
		t.Errorf("Lookup(shared-securityrule) = %+v, %v; want a removed entry", a, ok)
	}
}

func TestParsePortKey(t *testing.T) {
	tests := []struct {
		key   string
		port  int32
		param string
		ok    bool
	}{
		{Prefix + "port_443_health-probe_protocol", 443, "health-probe_protocol", true},
		{Prefix + "port_53_no_lb_rule", 53, "no_lb_rule", true},
		{Prefix + "port_abc_no_lb_rule", 0, "", false},
		{Prefix + "port_443", 0, "", false},
		{Prefix + "port_443_", 0, "", false},
		{Prefix + "port_99999999999_no_lb_rule", 0, "", false},
		{"port_443_no_lb_rule", 0, "", false},
	}
	for _, tt := range tests {
		port, param, ok := ParsePortKey(tt.key)
		if port != tt.port || param != tt.param || ok != tt.ok {
			t.Errorf("ParsePortKey(%q) = %d %q %v, want %d %q %v", tt.key, port, param, ok, tt.port, tt.param, tt.ok)
		}
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{"health-probe_protocl", PortProbeProtocol, true},
		{"no-lb-rule", PortNoLBRule, true},
		{"completely-unrelated-thing", "", false},
	}
	for _, tt := range tests {
		got, ok := closest(tt.in, PortParams())
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("closest(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}
