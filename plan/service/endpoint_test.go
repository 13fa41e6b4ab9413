package service

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const (
	testSubnet  = "/subscriptions/5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f/resourceGroups/rg-guest/providers/Microsoft.Network/virtualNetworks/guest/subnets/pe"
	clusterSub  = "00000000-0000-0000-0000-000000000000"
	guestSubID  = "5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f"
	routerLines = `apiVersion: v1
kind: Service
metadata:
  name: router
  namespace: hc
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-pls-create: "true"
%s
spec:
  type: LoadBalancer
  ports: [{port: 443, nodePort: 30443}]
---
`
)

// endpointDoc is a PrivateEndpoint in namespace hc with the given spec
// lines (indented two spaces).
func endpointDoc(name, spec string) string {
	return fmt.Sprintf("apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nmetadata: {name: %s, namespace: hc}\nspec:\n%s---\n", name, spec)
}

func TestDecodeEndpoint(t *testing.T) {
	doc := endpointDoc("router", `  service: router
  subnetID: `+testSubnet+`
  resourceGroup: rg-endpoints
  manualApproval: true
  requestMessage: please
  approve: true
  dns:
  - zone: hc.internal
    records: [api, "*.apps"]
    ttl: 60
  - zone: example.com
    records: [api-hc]
    vnetLinks: []
`)
	in := Decode("ep.yaml", []byte(doc))
	if len(in.Diagnostics) != 0 || len(in.Endpoints) != 1 {
		t.Fatalf("diagnostics %v, %d endpoints", in.Diagnostics, len(in.Endpoints))
	}
	ep := in.Endpoints[0]
	s := ep.Spec
	if ep.Key() != "hc/router" || s.Service != "router" || !s.ManualApproval || !s.Approve || s.RequestMessage != "please" {
		t.Errorf("spec %+v", s)
	}
	if len(s.DNS) != 2 || s.DNS[0].TTL != 60 || !slices.Equal(s.DNS[0].Records, []string{"api", "*.apps"}) ||
		s.DNS[1].VNetLinks == nil || len(s.DNS[1].VNetLinks) != 0 || s.DNS[0].VNetLinks != nil {
		t.Errorf("dns %+v", s.DNS)
	}
	if TTLOf(s.DNS[1]) != DefaultTTL {
		t.Errorf("default TTL %d", TTLOf(s.DNS[1]))
	}
	id, ok := ep.ID()
	if !ok || id.Subscription != guestSubID || id.ResourceGroup != "rg-endpoints" || id.Name() != "router" {
		t.Errorf("ID %+v", id)
	}
	if p := ep.Pos("spec.dns[0].records[1]"); p.Line != 13 || p.Column != 20 {
		t.Errorf("position of records[1] = %s", p)
	}
	if p := ep.Pos("spec.dns[5].zone"); p.Line != 11 || p.Column != 3 {
		t.Errorf("a missing path falls back to spec.dns: %s", p)
	}
}

func TestEndpointOtherAPIVersionSkipped(t *testing.T) {
	in := Decode("aso.yaml", []byte("apiVersion: network.azure.com/v1api20220701\nkind: PrivateEndpoint\nmetadata: {name: x}\nspec: {foo: bar}\n"))
	if len(in.Endpoints) != 0 || len(in.Diagnostics) != 0 || in.Skipped[SkipNotService] != 1 {
		t.Errorf("another API's PrivateEndpoint: %d endpoints, %v, skipped %v", len(in.Endpoints), in.Diagnostics, in.Skipped)
	}
}

// TestEndpointDiagnostics: every check, with its code, where it points, and
// a message naming the problem.
func TestEndpointDiagnostics(t *testing.T) {
	good := "  service: router\n  subnetID: " + testSubnet + "\n  approve: true\n"
	pending := "  service: router\n  subnetID: " + testSubnet + "\n"
	tests := []struct {
		name, services, docs string
		clusterSub           string
		want                 []string // "CODE line:col substring"
	}{
		{name: "unknown field with suggestion", docs: endpointDoc("a", good+"  requestMesage: x\n"),
			want: []string{"AZSVC1050 8:3 did you mean requestMessage?"}},
		{name: "field of another case", docs: endpointDoc("a", "  service: router\n  subnetId: "+testSubnet+"\n"),
			want: []string{"AZSVC1050 6:3 did you mean subnetID?", "AZSVC0052 5:3 no spec.subnetID"}},
		{name: "unknown dns field", docs: endpointDoc("a", good+"  dns: [{zone: a.b, record: [x]}]\n"),
			want: []string{"AZSVC1050 8:21 spec.dns[0].record"}},
		{name: "wrong types", docs: endpointDoc("a", pending+"  approve: \"yes\"\n"),
			want: []string{"AZSVC0002 7:12 expected true or false"}},
		{name: "records not a list", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: api}]\n"),
			want: []string{"AZSVC0002 8:30 expected a list"}},
		{name: "no name", docs: "apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nspec: {subnetID: x}\n",
			want: []string{"AZSVC0052 1:1 no metadata.name"}},
		{name: "TTL range", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [x], ttl: 0}, {zone: c.d, ttl: 4294967296}]\n"),
			want: []string{"AZSVC1054 8:40 is 0", "AZSVC1054 8:61 is 4294967296"}},
		{name: "bad IDs", docs: endpointDoc("a", "  privateLinkServiceID: /subscriptions/s/resourceGroups/r/providers/Microsoft.Network/loadBalancers/lb\n  subnetID: /x\n  dns: [{zone: a.b, vnetLinks: [nope]}]\n"),
			want: []string{"AZSVC1051 6:13 not a subnet ID", "AZSVC1051 5:25 neither a private link service ID nor an alias", "AZSVC1051 7:33 not a virtual network ID"}},
		{name: "approve through an alias", docs: endpointDoc("a", "  privateLinkServiceID: pls-x.0f2e6a8c-1d35-4e59-9b7d-4d2b8f6e1c3a.westeurope.azure.privatelinkservice\n  subnetID: "+testSubnet+"\n  approve: true\n"),
			want: []string{"AZSVC3052 7:12 no effect"}},
		{name: "alias accepted", docs: endpointDoc("a", "  privateLinkServiceID: pls-x.0f2e6a8c-1d35-4e59-9b7d-4d2b8f6e1c3a.westeurope.azure.privatelinkservice\n  subnetID: "+testSubnet+"\n")},
		{name: "names", docs: endpointDoc("a", good+"  name: -x-\n  resourceGroup: rg.\n  requestMessage: "+strings.Repeat("m", 141)+"\n"),
			want: []string{"AZSVC1055 8:9 private endpoint name", "AZSVC1055 9:18 resource group", "AZSVC1056 10:19 141 characters"}},
		{name: "zone and record names", docs: endpointDoc("a", good+"  dns: [{zone: single, records: [x]}, {zone: a..b}, {zone: ok.test, records: [\"*\", \"@\", \"x*y\", \""+strings.Repeat("l", 64)+"\"]}, {records: [x]}]\n"),
			want: []string{"AZSVC1052 8:16 1 label", "AZSVC1052 8:46 empty label", "AZSVC1053 8:89 '*'", "AZSVC1053 8:96 64 characters", "AZSVC0052 8:166 without a zone"}},
		{name: "listed twice", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [x, X]}, {zone: A.b}]\n"),
			want: []string{"AZSVC2055 8:34 listed twice", "AZSVC2055 8:46 zone A.b is listed twice"}},
		{name: "wildcard record listed twice", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [\"*.apps\", api, \"*.APPS\"]}]\n"),
			want: []string{"AZSVC2055 8:46 record *.APPS is listed twice"}},
		{name: "network linked twice", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [x], vnetLinks: [\"/subscriptions/"+guestSubID+"/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v\", \"/subscriptions/"+guestSubID+"/resourceGroups/RG/providers/Microsoft.Network/virtualNetworks/V\"]}]\n"),
			want: []string{"AZSVC2055 8:166 virtual network V is linked twice"}},
		{name: "subnet ID with ..", docs: endpointDoc("a", "  service: router\n  subnetID: /subscriptions/"+guestSubID+"/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/../subnets/pe\n  approve: true\n"),
			want: []string{`AZSVC1051 6:13 has name "..", which starts with "."`}},
		{name: "subnet ID with %2e", docs: endpointDoc("a", "  service: router\n  subnetID: /subscriptions/"+guestSubID+"/resourceGroups/%2e%2e/providers/Microsoft.Network/virtualNetworks/v/subnets/pe\n  approve: true\n"),
			want: []string{`AZSVC1051 6:13 has resource group "%2e%2e", which contains "%"`}},
		{name: "subnet ID with ?", docs: endpointDoc("a", "  service: router\n  subnetID: \"/subscriptions/"+guestSubID+"/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/pe?api-version=1\"\n  approve: true\n"),
			want: []string{`AZSVC1051 6:13 has name "pe?api-version=1", which contains "?"`}},
		{name: "subnet ID with a bad subscription", docs: endpointDoc("a", "  service: router\n  subnetID: /subscriptions/x#y/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/pe\n  approve: true\n"),
			want: []string{`AZSVC1051 6:13 names subscription "x#y", which is not a subscription ID`}},
		{name: "subnet ID without the leading slash", docs: endpointDoc("a", "  service: router\n  subnetID: subscriptions/"+guestSubID+"/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/pe\n  approve: true\n"),
			want: []string{`AZSVC1051 6:13 must start with one "/"`}},
		{name: "PLS ID with %2f", docs: endpointDoc("a", "  privateLinkServiceID: /subscriptions/"+guestSubID+"/resourceGroups/rg/providers/Microsoft.Network/privateLinkServices/a%2fb\n  subnetID: "+testSubnet+"\n"),
			want: []string{`AZSVC1051 5:25 has name "a%2fb", which contains "%"`}},
		{name: "network link with ..", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [x], vnetLinks: [\"/subscriptions/"+guestSubID+"/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/..\"]}]\n"),
			want: []string{`AZSVC1051 8:47 has name "..", which starts`}},
		{name: "target neither", docs: endpointDoc("a", "  subnetID: "+testSubnet+"\n"),
			want: []string{"AZSVC2050 4:1 exactly one"}},
		{name: "target both", docs: endpointDoc("a", good+"  privateLinkServiceID: x.0f2e6a8c.westeurope.azure.privatelinkservice\n"),
			want: []string{"AZSVC2050 4:1 exactly one"}},
		{name: "service missing", docs: endpointDoc("a", "  service: ruter\n  subnetID: "+testSubnet+"\n"),
			want: []string{"AZSVC2051 5:12 did you mean router?"}},
		{name: "service in another namespace", docs: endpointDoc("a", "  service: other/router\n  subnetID: "+testSubnet+"\n"),
			want: []string{"AZSVC2051 5:12 other/router"}},
		{name: "service without PLS", services: "apiVersion: v1\nkind: Service\nmetadata: {name: plain, namespace: hc}\nspec: {type: LoadBalancer, ports: [{port: 80, nodePort: 30080}]}\n---\n",
			docs: endpointDoc("a", "  service: plain\n  subnetID: "+testSubnet+"\n"), want: []string{"AZSVC2052 5:12 no Private Link Service"}},
		{name: "pending: auto-approval excludes the subscription", docs: endpointDoc("a", pending), clusterSub: clusterSub,
			want: []string{"AZSVC3050 5:12 will stay Pending"}},
		{name: "pending without the cluster subscription", docs: endpointDoc("a", pending),
			want: []string{"AZSVC3050 5:12 unless the endpoint is in the cluster's subscription"}},
		{name: "approve: no warning", docs: endpointDoc("a", good), clusterSub: clusterSub},
		{name: "same subscription is approved", docs: endpointDoc("a", "  service: router\n  subnetID: /subscriptions/"+clusterSub+"/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/v/subnets/s\n"),
			clusterSub: clusterSub},
		{name: "auto-approved", services: "    service.beta.kubernetes.io/azure-pls-auto-approval: " + guestSubID,
			docs: endpointDoc("a", pending), clusterSub: clusterSub},
		{name: "not visible", services: "    service.beta.kubernetes.io/azure-pls-visibility: 11111111-1111-1111-1111-111111111111",
			docs: endpointDoc("a", pending+"  manualApproval: true\n"), clusterSub: clusterSub, want: []string{"AZSVC2054 5:12 not visible"}},
		{name: "maybe not visible", services: "    service.beta.kubernetes.io/azure-pls-visibility: 11111111-1111-1111-1111-111111111111",
			docs: endpointDoc("a", pending+"  manualApproval: true\n"), want: []string{"AZSVC3051 5:12 unless"}},
		{name: "record conflict", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [api]}]\n") +
			endpointDoc("b", good+"  dns: [{zone: a.b, records: [API]}]\n"),
			want: []string{"AZSVC2053 17:31 also written by PrivateEndpoint hc/a"}},
		{name: "one VNet linked to two zones of a name", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [api]}]\n") +
			endpointDoc("b", good+"  resourceGroup: other\n  dns: [{zone: A.b, records: [www]}]\n"),
			want: []string{"AZSVC2057 18:16 linked to two private DNS zones named A.b"}},
		{name: "one zone shared by two endpoints", docs: endpointDoc("a", good+"  dns: [{zone: a.b, records: [api]}]\n") +
			endpointDoc("b", good+"  dns: [{zone: a.b, records: [www]}]\n")},
		{name: "same Azure endpoint", docs: endpointDoc("a", good+"  name: pe\n") + endpointDoc("b", good+"  name: pe\n"),
			want: []string{"AZSVC2056 12:18 same Azure private endpoint"}},
		{name: "key written twice", docs: endpointDoc("a", good+"  approve: false\n"),
			want: []string{CodeDuplicateKey + " 8:3 written twice", "AZSVC3050 5:12 will stay Pending"}},
		{name: "defined twice", docs: endpointDoc("a", good) + endpointDoc("a", good),
			want: []string{"AZSVC0051 11:18 defined twice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svcs := tt.services
			if !strings.HasPrefix(svcs, "apiVersion") {
				svcs = fmt.Sprintf(routerLines, svcs)
			}
			data := svcs + tt.docs
			in := Decode("ep.yaml", []byte(data))
			ds := append(append([]Diagnostic(nil), in.Diagnostics...), ValidateEndpoints(in.Endpoints, in.Services, tt.clusterSub)...)
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s %d:%d %s", d.Code, d.Pos.Line-svcLines(svcs), d.Pos.Column, d.Message))
				if d.Hint == "" || d.Field == "" && d.Code != CodeMissingField {
					t.Errorf("incomplete diagnostic %+v", d)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for _, w := range tt.want {
				code, rest, _ := strings.Cut(w, " ")
				pos, sub, _ := strings.Cut(rest, " ")
				if !slices.ContainsFunc(got, func(g string) bool {
					return strings.HasPrefix(g, code+" "+pos+" ") && strings.Contains(g, sub)
				}) {
					t.Errorf("missing %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// svcLines is the number of lines before the endpoints: positions in the
// table count from the first endpoint document.
func svcLines(s string) int { return strings.Count(s, "\n") }

// FuzzDecodeEndpoint: any bytes decode without a panic; every diagnostic
// is positioned inside the input.
func FuzzDecodeEndpoint(f *testing.F) {
	f.Add(endpointDoc("a", "  service: router\n  subnetID: "+testSubnet+"\n  dns: [{zone: a.b, records: [x], ttl: 5}]\n"))
	f.Add("apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nmetadata: &m {name: x}\nspec: &s {dns: [*m, *s]}\n")
	f.Add("apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nspec: [1, 2]\n")
	f.Fuzz(func(t *testing.T, data string) {
		in := Decode("f.yaml", []byte(data))
		lines := strings.Count(data, "\n") + strings.Count(data, "\r") + 1 // YAML breaks lines at either
		for _, d := range append(in.Diagnostics, ValidateEndpoints(in.Endpoints, in.Services, "")...) {
			if d.Pos.Line < 0 || d.Pos.Line > lines {
				t.Fatalf("diagnostic at line %d of %d: %+v", d.Pos.Line, lines, d)
			}
		}
		for _, ep := range in.Endpoints {
			_ = ep.Owner()
			_, _ = ep.ID()
		}
	})
}
