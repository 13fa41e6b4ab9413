package service

import (
	"fmt"
	"strings"
	"testing"
)

// TestNotLoadBalancer: a type one edit or case from LoadBalancer, and Azure
// annotations on a Service of another type, are errors where they are
// written; the Service is still skipped, as CCM skips it.
func TestNotLoadBalancer(t *testing.T) {
	svc := func(typ, ann string) string {
		s := "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n"
		if ann != "" {
			s += "  annotations:\n" + ann
		}
		s += "spec:\n"
		if typ != "" {
			s += "  type: " + typ + "\n"
		}
		return s + "  ports: [{port: 443}]\n"
	}
	internal := "    " + AnnInternal + ": \"true\"\n"
	tests := []struct {
		name, data string
		at, want   string // "CODE line:col" and a substring of the message; "" for none
	}{
		{"Loadbalancer", svc("Loadbalancer", ""), "AZSVC0011 7:9", `spec.type "Loadbalancer" is not a Service type`},
		{"loadbalancer", svc("loadbalancer", internal), "AZSVC0011 9:9", "with --prune, azsvc would delete its load balancer resources"},
		{"LoadBalancr", svc("LoadBalancr", ""), "AZSVC0011 7:9", `"LoadBalancr"`},
		{"LoadBalancers", svc("LoadBalancers", ""), "AZSVC0011 7:9", `"LoadBalancers"`},
		{"ClusterIP with an Azure annotation", svc("ClusterIP", internal), "AZSVC0012 7:5", "Service shop/web is of type ClusterIP, so the cloud provider builds no load balancer for it and ignores its Azure annotations (azure-load-balancer-internal)"},
		{"no type with Azure annotations", svc("", "    "+AnnPIPTags+": a=b\n"+internal+"    "+AnnDNSLabelName+": x\n    "+AnnIdleTimeout+": \"5\"\n"),
			"AZSVC0012 7:5", "of type ClusterIP (the default), so the cloud provider builds no load balancer for it and ignores its Azure annotations (azure-pip-tags, azure-load-balancer-internal, azure-dns-label-name, and 1 more)"},
		{"NodePort without Azure annotations", svc("NodePort", "    example.com/team: shop\n"), "", ""},
		{"ClusterIP with another prefix", svc("ClusterIP", "    "+PortKey(443, PortNoLBRule)+": \"true\"\n"), "", ""},
		{"ExternalName far from LoadBalancer", svc("ExternalName", ""), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Decode("svc.yaml", []byte(tt.data))
			if len(in.Services) != 0 || in.Skipped[SkipNotLoadBalancer] != 1 {
				t.Errorf("Services %d, skipped %v: the Service must be skipped", len(in.Services), in.Skipped)
			}
			var got []string
			for _, d := range in.Diagnostics {
				got = append(got, fmt.Sprintf("%s %d:%d %s", d.Code, d.Pos.Line, d.Pos.Column, d.Message))
				if d.Severity != SeverityError || d.Hint == "" || d.Service != "shop/web" {
					t.Errorf("incomplete diagnostic %+v", d)
				}
			}
			switch {
			case tt.at == "" && len(got) > 0:
				t.Errorf("unexpected diagnostics %q", got)
			case tt.at != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.at+" ") || !strings.Contains(got[0], tt.want)):
				t.Errorf("got %q, want one at %s with %q", got, tt.at, tt.want)
			}
		})
	}
}

// TestNonStringAnnotationKeepsChecking: an unquoted annotation value is an
// error, and the rest of the Service is still checked (issue 22): before,
// the Service stopped there and a typo next to it went unreported.
func TestNonStringAnnotationKeepsChecking(t *testing.T) {
	data := `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations:
    ` + AnnIdleTimeout + `: 300
    ` + Prefix + `azure-load-balancr-internal: "true"
    ` + AnnPIPTags + `: [a, b]
    ` + AnnDisableFloatingIP + `: yes
spec:
  type: LoadBalancer
  ports: [{name: https, port: 443, nodePort: 31443}]
`
	in := Decode("svc.yaml", []byte(data))
	ds := append(in.Diagnostics, Validate(in.Services)...)
	SortDiagnostics(ds)
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s %d:%d", d.Code, d.Pos.Line, d.Pos.Column))
	}
	want := []string{
		"AZSVC0006 7:70",  // unquoted 300
		"AZSVC1011 7:70",  // read as "300": out of 4..100
		"AZSVC1001 8:5",   // the typo beside them
		"AZSVC0006 9:48",  // a list: left out
		"AZSVC1043 10:73", // yes: a boolean that decides exposure
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("diagnostics\n got %q\nwant %q", got, want)
	}
	if len(in.Services) != 1 {
		t.Fatalf("the Service must still be read")
	}
	if _, kept := in.Services[0].Annotations[AnnPIPTags]; kept {
		t.Errorf("a list-valued annotation must be left out, not read as a string")
	}
}

// TestListHints: an entry holding a space is rewritten with commas, and an
// IPv6 entry gets an IPv6 example (issue 22).
func TestListHints(t *testing.T) {
	tests := []struct{ key, value, want string }{
		{AnnAllowedIPRanges, `"10.0.0.0/8 10.1.0.0/16"`, "separate entries with commas: 10.0.0.0/8,10.1.0.0/16"},
		{AnnAllowedIPRanges, `"2001:db8::/32 2001:db8:1::/48"`, "separate entries with commas: 2001:db8::/32,2001:db8:1::/48"},
		{AnnLoadBalancerSourceRanges, `"fd00::1::/64"`, "write a CIDR such as 2001:db8::/32"},
		{AnnAllowedIPRanges, "not-a-cidr", "write a CIDR such as 203.0.113.0/24"},
		{AnnAdditionalPublicIPs, `"20.62.13.8 20.62.13.9"`, "separate entries with commas: 20.62.13.8,20.62.13.9"},
		{AnnAdditionalPublicIPs, `"20.62.13.8, 20.62.13.9"`, "separate entries with commas only, without spaces: 20.62.13.8,20.62.13.9"},
		{AnnAdditionalPublicIPs, `"2001:db8::8, 2001:db8::9"`, "separate entries with commas only, without spaces: 2001:db8::8,2001:db8::9"},
		{AnnAdditionalPublicIPs, `"2001:db8::g"`, "e.g. 2001:db8::8,2001:db8::9"},
		{AnnAllowedServiceTags, `"Internet AzureCloud"`, "separate entries with commas: Internet,AzureCloud"},
	}
	for _, tt := range tests {
		rc := ruleCase{ann: [][2]string{{tt.key, tt.value}}}
		ds := Validate(Decode("h.yaml", []byte(rc.manifest())).Services)
		if len(ds) != 1 || !strings.Contains(ds[0].Hint, tt.want) {
			t.Errorf("%s: %s: got %v, want a hint with %q", tt.key, tt.value, ds, tt.want)
		}
	}
}

// TestMixedProtocolsKey: older charts' azure-load-balancer-mixed-protocols
// is a warning that CCM no longer reads it, not an unknown key with a
// did-you-mean pointing at azure-load-balancer-configurations (issue 22).
func TestMixedProtocolsKey(t *testing.T) {
	rc := ruleCase{ann: [][2]string{{AnnMixedProtocols, `"true"`}}}
	ds := Validate(Decode("m.yaml", []byte(rc.manifest())).Services)
	if len(ds) != 1 || ds[0].Severity != SeverityWarning || !strings.Contains(ds[0].Message, "CCM no longer reads it") ||
		strings.Contains(ds[0].Message+ds[0].Hint, "did you mean") || strings.Contains(ds[0].Hint, "configurations") {
		t.Errorf("got %v", ds)
	}
}
