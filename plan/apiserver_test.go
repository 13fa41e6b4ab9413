package plan

import (
	"testing"
)

func TestShowName(t *testing.T) {
	ph := UIDPlaceholderPrefix("shop/web")
	port := PortPlaceholder(ServerValue{Service: "shop/web", Field: FieldHealthCheckNodePort}, nil)
	hash := UnknownHashName("k8s-azure-lb_allow_IPv4_556f7044ec033071ec0dfcf7cd85bc93")
	tests := []struct{ in, want string }{
		{ph, ServerAssignedText},
		{ph + "-TCP-80", ServerAssignedText + "-TCP-80"},
		{ph + "-ilb-subnet-TCP-80-IPv6", ServerAssignedText + "-ilb-subnet-TCP-80-IPv6"},
		{"aks-prod-" + ph, "aks-prod-" + ServerAssignedText},
		{"pls-" + ph, "pls-" + ServerAssignedText},
		{ph + "-TCP-" + itoa(port), ServerAssignedText + "-TCP-" + ServerAssignedText},
		{hash, "k8s-azure-lb_allow_IPv4_" + ServerAssignedText},
		// CCM's names, and numbers that are ports, are left alone.
		{"a257b965551374ad2b091ef3f07043ad-TCP-30080", "a257b965551374ad2b091ef3f07043ad-TCP-30080"},
		{"k8s-azure-lb_allow_IPv4_556f7044ec033071ec0dfcf7cd85bc93", "k8s-azure-lb_allow_IPv4_556f7044ec033071ec0dfcf7cd85bc93"},
		{"pip-20240101", "pip-20240101"},
		{"max-TCP-80", "max-TCP-80"},
	}
	for _, tt := range tests {
		if got := ShowName(tt.in); got != tt.want {
			t.Errorf("ShowName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func itoa(n int32) string {
	v, _ := Placeholder(ServerAssignedString(ServerValue{}, n))
	return v.(string)
}

// TestPlaceholders: a port placeholder is stable for one Service port,
// differs between ports, is no port number, and fits an int32; a taken
// one moves on.
func TestPlaceholders(t *testing.T) {
	a := ServerValue{Service: "shop/web", Field: NodePortField("TCP", 80)}
	b := ServerValue{Service: "shop/web", Field: NodePortField("TCP", 443)}
	pa, pb := PortPlaceholder(a, nil), PortPlaceholder(b, nil)
	if pa != PortPlaceholder(a, nil) || pa == pb || !IsPortPlaceholder(int64(pa)) || IsPortPlaceholder(65535) || IsPortPlaceholder(32767) {
		t.Errorf("placeholders %d %d", pa, pb)
	}
	if next := PortPlaceholder(a, func(n int32) bool { return n == pa }); next == pa || !IsPortPlaceholder(int64(next)) {
		t.Errorf("a taken placeholder is given again: %d", next)
	}
	if IsUIDPlaceholder("a257b965551374ad2b091ef3f07043ad") || !IsUIDPlaceholder(UIDPlaceholderPrefix("x/y")) {
		t.Error("UID placeholders are told apart from CCM's prefixes wrongly")
	}
}

// TestSameServerValue: the same unknown compares equal as a marker, as its
// number or as its string; anything else does not.
func TestSameServerValue(t *testing.T) {
	v := ServerValue{Service: "shop/web", Field: NodePortField("TCP", 80)}
	ph := PortPlaceholder(v, nil)
	m, s := ServerAssigned(v, ph), ServerAssignedString(v, ph)
	for _, got := range []any{m, s, int(ph), float64(ph), itoa(ph)} {
		if !SameServerValue(m, got) || !SameServerValue(s, got) {
			t.Errorf("%v: not the same unknown", got)
		}
	}
	for _, got := range []any{nil, 30080, "30080", ServerAssigned(v, ph+1)} {
		if SameServerValue(m, got) {
			t.Errorf("%v: taken for the unknown", got)
		}
	}
	ips := NodeIPs(Key("/subscriptions/s/resourcegroups/rg/providers/microsoft.network/loadbalancers/k/backendaddresspools/k"))
	if addr, _ := Placeholder(ips); !SameServerValue(ips, addr) || addr.(string)[:4] != "240." {
		t.Errorf("node IPs placeholder %v", addr)
	}
}

// TestPlaceholdersRestore: what a throwaway emulator returns for a marker
// is turned back into it, and nothing else is touched.
func TestPlaceholdersRestore(t *testing.T) {
	v := ServerValue{Service: "shop/web", Field: NodePortField("TCP", 80)}
	ph := PortPlaceholder(v, nil)
	want := NewState()
	probe := &Resource{ID: ChildID(NewID("s", "rg", KindLoadBalancer, "k"), KindProbe, "p"), Properties: map[string]any{"port": ServerAssigned(v, ph)}}
	want.Put(probe)
	table := PlaceholdersOf(want)
	got := NewState()
	got.Put(&Resource{ID: probe.ID, Properties: map[string]any{"port": float64(ph), "intervalInSeconds": float64(5)}})
	table.Restore(got)
	r, _ := got.Get(probe.Key())
	if sv, _, ok := AsServerValue(r.Properties["port"]); !ok || sv != v || r.Properties["intervalInSeconds"] != float64(5) {
		t.Errorf("restored %v", r.Properties)
	}
}
