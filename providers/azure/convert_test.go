package azure

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/golden"
)

const examples = "../../../shared/reference/arm-examples"

// fixtures are the saved ARM examples of the kinds azsvc reads, each with the
// SDK type Read decodes it into: the test goes through that type exactly as
// a list response does.
var fixtures = []struct {
	file string
	sdk  func() any
}{
	{"LoadBalancerCreateStandardSku.json", func() any { return &armnetwork.LoadBalancer{} }},
	{"NetworkSecurityGroupCreateWithRule.json", func() any { return &armnetwork.SecurityGroup{} }},
	{"PublicIpAddressCreateCustomizedValues.json", func() any { return &armnetwork.PublicIPAddress{} }},
	{"PrivateLinkServiceCreate.json", func() any { return &armnetwork.PrivateLinkService{} }},
	{"PrivateLinkServiceGet.json", func() any { return &armnetwork.PrivateLinkService{} }},
	{"PrivateEndpointCreate.json", func() any { return &armnetwork.PrivateEndpoint{} }},
	{"PrivateEndpointCreateForManualApproval.json", func() any { return &armnetwork.PrivateEndpoint{} }},
	{"PrivateEndpointGet.json", func() any { return &armnetwork.PrivateEndpoint{} }},
	{"PrivateZonePut.json", func() any { return &armprivatedns.PrivateZone{} }},
	{"VirtualNetworkLinkPut.json", func() any { return &armprivatedns.VirtualNetworkLink{} }},
	{"RecordSetAPut.json", func() any { return &armprivatedns.RecordSet{} }},
}

// exampleBody returns the 200 response body of an example, passed through
// the SDK type as Read does.
func exampleBody(t *testing.T, file string, sdk any) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(examples, file))
	if err != nil {
		t.Skipf("reference examples not available: %v", err)
	}
	var ex struct {
		Responses map[string]struct {
			Body json.RawMessage `json:"body"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := json.Unmarshal(ex.Responses["200"].Body, sdk); err != nil {
		t.Fatalf("%s: decode into %T: %v", file, sdk, err)
	}
	out, err := json.Marshal(sdk)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFromARMGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(strings.TrimSuffix(fx.file, ".json"), func(t *testing.T) {
			res, children, err := FromARM(exampleBody(t, fx.file, fx.sdk()))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, strings.TrimSuffix(fx.file, ".json")+".read.json", dump(append([]*plan.Resource{res}, children...)))
			body, err := ToARM(res, children)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, strings.TrimSuffix(fx.file, ".json")+".write.json", indent(t, body))
			// The write body must decode into the SDK type Write uses.
			if err := json.Unmarshal(body, fx.sdk()); err != nil {
				t.Errorf("write body does not decode into the SDK type: %v", err)
			}
		})
	}
}

// TestRoundTrip checks that what Write sends reads back as what Read saw:
// ARM's answer to a PUT of the body is the body plus server fields.
func TestRoundTrip(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(strings.TrimSuffix(fx.file, ".json"), func(t *testing.T) {
			res, children, err := FromARM(exampleBody(t, fx.file, fx.sdk()))
			if err != nil {
				t.Fatal(err)
			}
			body, err := ToARM(res, children)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			m["id"], m["etag"] = res.ID.String(), res.Etag
			back, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			res2, children2, err := FromARM(back)
			if err != nil {
				t.Fatal(err)
			}
			// Computed values come from server fields a bare body lacks.
			for _, k := range computed[res.Kind()] {
				delete(res.Properties, k)
				delete(res2.Properties, k)
			}
			want, got := append([]*plan.Resource{res}, children...), append([]*plan.Resource{res2}, children2...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip (-read +re-read):\n%s", diff)
			}
		})
	}
}

func TestFromARMStripsServerFields(t *testing.T) {
	res, children, err := FromARM(exampleBody(t, "LoadBalancerCreateStandardSku.json", &armnetwork.LoadBalancer{}))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(dump(append([]*plan.Resource{res}, children...)))
	for _, field := range []string{"provisioningState", "resourceGuid", `"loadBalancingRules"`, `"type"`} {
		if bytes.Contains(all, []byte(field)) {
			t.Errorf("converted load balancer still holds %s", field)
		}
	}
	kinds := map[plan.Kind]int{}
	for _, c := range children {
		kinds[c.Kind()]++
		if c.Etag != res.Etag {
			t.Errorf("%s: etag %q, want the parent's %q", c.ID.Address(), c.Etag, res.Etag)
		}
	}
	want := map[plan.Kind]int{plan.KindFrontend: 1, plan.KindBackendPool: 1, plan.KindProbe: 1, plan.KindRule: 1}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("children by kind (-want +got):\n%s", diff)
	}
	for _, k := range []string{"frontendIPConfigurations", "backendAddressPools", "probes", "loadBalancingRules"} {
		if _, ok := res.Properties[k]; ok {
			t.Errorf("load balancer properties still hold %s", k)
		}
	}
}

func TestFromARMComputed(t *testing.T) {
	tests := []struct {
		file string
		sdk  any
		key  string
		want any
	}{
		{"PrivateEndpointGet.json", &armnetwork.PrivateEndpoint{}, "privateIPAddress", "192.168.0.4"},
		{"PrivateLinkServiceGet.json", &armnetwork.PrivateLinkService{}, "privateEndpointConnections", []any{map[string]any{
			"name":            "privateEndpointConnection",
			"privateEndpoint": "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.Network/privateEndpoints/testPe",
			"status":          "Approved",
		}}},
	}
	for _, tt := range tests {
		res, _, err := FromARM(exampleBody(t, tt.file, tt.sdk))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, res.Properties[tt.key]); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s", tt.file, tt.key, diff)
		}
		if len(res.References()) > 0 && tt.key == "privateEndpointConnections" {
			for _, ref := range res.References() {
				if strings.Contains(string(ref), "/privateendpoints/") {
					t.Errorf("%s: PLS references its PE %s", tt.file, ref)
				}
			}
		}
	}
}

func TestFromARMErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"not json", `{`, "decode ARM body"},
		{"no id", `{"name":"x"}`, "not a Microsoft.Network resource ID"},
		{"foreign type", `{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm"}`, "not a Microsoft.Network"},
		{"bad tags", `{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/p","tags":{"a":1}}`, "pip/p: tags.a: want a string"},
		{"bad child", `{"id":"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/lb","properties":{"probes":[{"properties":{}}]}}`, "lb/lb: properties.probes[0]: child has neither name nor id"},
	}
	for _, tt := range tests {
		_, _, err := FromARM([]byte(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// dump renders resources deterministically for golden files.
func dump(rs []*plan.Resource) []byte {
	type row struct {
		ID         string            `json:"id"`
		Kind       plan.Kind         `json:"kind"`
		Location   string            `json:"location,omitempty"`
		SKU        map[string]any    `json:"sku,omitempty"`
		Zones      []string          `json:"zones,omitempty"`
		Tags       map[string]string `json:"tags,omitempty"`
		Etag       string            `json:"etag,omitempty"`
		Properties map[string]any    `json:"properties"`
	}
	rows := make([]row, len(rs))
	for i, r := range rs {
		rows[i] = row{r.ID.String(), r.Kind(), r.Location, r.SKU, r.Zones, r.Tags, r.Etag, r.Properties}
	}
	out, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

func indent(t *testing.T, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		t.Fatal(err)
	}
	return append(buf.Bytes(), '\n')
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, got)
}
