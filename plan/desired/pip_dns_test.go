package desired

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// TestDNSLabel: azure-dns-label-name absent leaves DNS alone, "" removes
// dnsSettings (a desired null), a label sets it (ccm-semantics §1.3 #4); on
// a PIP named by azure-pip-name only dnsSettings is desired, untagged
// (§6 "DNS label").
func TestDNSLabel(t *testing.T) {
	const absent = "\x00"
	for _, tt := range []struct {
		name, label, pipName string
		wantDNS              any
		wantSet              bool
	}{
		{"managed absent", absent, "", nil, false},
		{"managed empty", "", "", nil, true},
		{"managed label", "shop", "", map[string]any{"domainNameLabel": "shop"}, true},
		{"user absent", absent, "byo", nil, false},
		{"user empty", "", "byo", nil, true},
		{"user label", "shop", "byo", map[string]any{"domainNameLabel": "shop"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ann := map[string]string{}
			if tt.label != absent {
				ann["azure-dns-label-name"] = tt.label
			}
			if tt.pipName != "" {
				ann["azure-pip-name"] = tt.pipName
			}
			st := mustBuild(t, testConfig(t), manifest("svc", ann, tcp80))
			pips := st.OfKind(plan.KindPublicIP)
			if tt.pipName != "" && !tt.wantSet {
				if len(pips) != 0 {
					t.Fatalf("a user PIP without DNS wants is desired: %+v", pips[0])
				}
				return
			}
			if len(pips) != 1 {
				t.Fatalf("want one desired PIP, got %d", len(pips))
			}
			pip := pips[0]
			dns, set := pip.Properties["dnsSettings"]
			if set != tt.wantSet || !reflect.DeepEqual(dns, tt.wantDNS) {
				t.Errorf("dnsSettings = %v (set %v), want %v (set %v)", dns, set, tt.wantDNS, tt.wantSet)
			}
			_, dnsTag := pip.Tags[tagDNSLabel]
			if want := tt.pipName == "" && tt.wantDNS != nil; dnsTag != want {
				t.Errorf("DNS tag present = %v, want %v", dnsTag, want)
			}
			if tt.pipName != "" && (len(pip.Properties) != 1 || pip.Tags != nil || pip.SKU != nil || pip.Location != "" || pip.Zones != nil) {
				t.Errorf("user PIP wants more than its DNS label: %+v", pip)
			}
			if !reflect.DeepEqual(pip.Services, []string{"ns/svc"}) {
				t.Errorf("services = %v", pip.Services)
			}
		})
	}
}
