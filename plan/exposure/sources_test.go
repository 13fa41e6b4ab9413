package exposure

import "testing"

func TestSourcesDirection(t *testing.T) {
	tests := []struct {
		before, after []string
		want          Direction // "" for no change of reach
	}{
		{nil, []string{"Internet"}, Wider},
		{[]string{"Internet"}, nil, Narrower},
		{[]string{"203.0.113.0/24"}, []string{"0.0.0.0/0"}, Wider},
		{[]string{"0.0.0.0/0"}, []string{"Internet"}, ""},
		{[]string{"10.0.0.0/24", "10.0.1.0/24"}, []string{"10.0.0.0/23"}, ""},
		{[]string{"10.0.0.0/23"}, []string{"10.0.0.0/24", "10.0.1.0/24"}, ""},
		{[]string{"10.0.0.0/23"}, []string{"10.0.0.0/24", "10.0.2.0/24"}, Changed},
		{[]string{"10.0.0.0/24"}, []string{"10.0.0.5"}, Narrower},
		{[]string{"10.0.0.5/32"}, []string{"10.0.0.5"}, ""},
		{[]string{"2001:db8::/48"}, []string{"2001:db8::/32"}, Wider},
		{[]string{"AzureFrontDoor.Backend"}, []string{"Internet"}, Wider},
		{[]string{"Internet"}, []string{"AzureFrontDoor.Backend"}, Narrower},
		{[]string{"AzureFrontDoor.Backend"}, []string{"10.0.0.0/8"}, Changed},
		{[]string{"10.0.0.0/8"}, []string{"::/0", "10.0.0.0/8"}, Wider}, // ::/0 admits everyone, as NSGs read it
	}
	for _, tt := range tests {
		got, ok := sourcesDirection(tt.before, tt.after)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("%v -> %v: %q, want %q", tt.before, tt.after, got, tt.want)
		}
	}
}
