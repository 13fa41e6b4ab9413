package plan

import "testing"

func TestParseIDRoundTrip(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		addr string
	}{
		{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/kubernetes", KindLoadBalancer, "lb/kubernetes"},
		{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/kubernetes/probes/a1-TCP-80", KindProbe, "lb/kubernetes/probe/a1-TCP-80"},
		{"/subscriptions/s/resourceGroups/RG/providers/microsoft.network/networkSecurityGroups/nsg/securityRules/r1", KindSecurityRule, "nsg/nsg/rule/r1"},
		{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/kubernetes-a1", KindPublicIP, "pip/kubernetes-a1"},
		{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/privatelink.example.com/A/web", KindARecord, "dnszone/privatelink.example.com/a/web"},
	}
	for _, tt := range tests {
		id, err := ParseID(tt.in)
		if err != nil {
			t.Fatalf("ParseID(%q): %v", tt.in, err)
		}
		if id.Kind != tt.kind || id.Address() != tt.addr {
			t.Errorf("ParseID(%q) = %v %q, want %v %q", tt.in, id.Kind, id.Address(), tt.kind, tt.addr)
		}
		if KeyOf(id.String()) != KeyOf(tt.in) {
			t.Errorf("round trip %q -> %q", tt.in, id.String())
		}
	}
	for _, bad := range []string{"", "/subscriptions/s", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm"} {
		if _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
}

func TestReferences(t *testing.T) {
	lb := NewID("s", "rg", KindLoadBalancer, "kubernetes")
	fe := ChildID(lb, KindFrontend, "a1")
	rule := &Resource{ID: ChildID(lb, KindRule, "a1-TCP-80"), Properties: map[string]any{
		"frontendIPConfiguration": Ref(fe),
		"backendAddressPools":     []any{Ref(ChildID(lb, KindBackendPool, "kubernetes"))},
	}}
	got := rule.References()
	if len(got) != 2 || got[0] != ChildID(lb, KindBackendPool, "kubernetes").Key() || got[1] != fe.Key() {
		t.Errorf("References() = %v", got)
	}
}

func TestIDKeyIsKeyOfString(t *testing.T) {
	ids := []ID{
		NewID("SUB-1", "My-RG", KindLoadBalancer, "Kubernetes-Internal"),
		ChildID(NewID("sub", "rg", KindLoadBalancer, "kubernetes"), KindProbe, "A1B2-TCP-80"),
		NewID("sub", "rg", KindPublicIP, "pip-Ünïcode-İ"),
		NewID("sub", "rg", KindPublicIP, "trailing/"),
	}
	for _, id := range ids {
		if got, want := id.Key(), KeyOf(id.String()); got != want {
			t.Errorf("%v.Key() = %q, want %q", id, got, want)
		}
	}
}
