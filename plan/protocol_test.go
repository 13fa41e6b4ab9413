package plan

import "testing"

func TestProtocolOf(t *testing.T) {
	tests := []struct{ name, lb, nsg string }{
		{"TCP", "Tcp", "Tcp"}, {"", "Tcp", "Tcp"}, {"tcp", "Tcp", "Tcp"},
		{"UDP", "Udp", "Udp"}, {"Udp", "Udp", "Udp"},
		{"SCTP", "All", "*"}, {"All", "All", "*"}, {"*", "All", "*"},
	}
	for _, tt := range tests {
		if p := ProtocolOf(tt.name); p.LBRule != tt.lb || p.NSG != tt.nsg {
			t.Errorf("ProtocolOf(%q) = %+v, want LB rule %s, NSG %s", tt.name, p, tt.lb, tt.nsg)
		}
	}
}
