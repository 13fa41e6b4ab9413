package cluster

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const minimal = `{"resourceGroup":"rg","location":"westeurope","securityGroupName":"nsg","subscriptionId":"sub"}`

// TestParseDefaults checks CCM's defaults (ccm-semantics §10): the SKU
// default is standard although CCM's docs say basic (Appendix A).
func TestParseDefaults(t *testing.T) {
	cfg, notes, err := Parse([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes = %v, want none", notes)
	}
	got := map[string]any{
		"sku": cfg.LoadBalancerSKU, "pool": cfg.BackendPoolType, "probeMode": cfg.HealthProbeMode,
		"sharedPort": cfg.SharedHealthProbePort, "sharedPath": cfg.SharedHealthProbePath,
		"maxRules": cfg.MaximumLoadBalancerRuleCount, "vmType": cfg.VMType, "cluster": cfg.ClusterName,
		"excludeMaster": *cfg.ExcludeMasterFromStandardLB, "lbBase": cfg.LBBase(), "lbRG": cfg.LBResourceGroup(),
		"nsgRG": cfg.NSGResourceGroup(), "vnetRG": cfg.VnetRG(), "plsRG": cfg.PLSResourceGroup(),
		"interval": cfg.LoadBalancerBackendPoolUpdateInterval,
	}
	want := map[string]any{
		"sku": "standard", "pool": "nodeIPConfiguration", "probeMode": "servicenodeport",
		"sharedPort": int32(10256), "sharedPath": "/healthz", "maxRules": 250, "vmType": "vmss",
		"cluster": "kubernetes", "excludeMaster": true, "lbBase": "kubernetes", "lbRG": "rg",
		"nsgRG": "rg", "vnetRG": "rg", "plsRG": "rg", "interval": 30,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("defaults (-want +got):\n%s", d)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"missing resourceGroup", `{"location":"x","securityGroupName":"n"}`, `missing required key "resourceGroup"`},
		{"missing location", `{"resourceGroup":"x","securityGroupName":"n"}`, `missing required key "location"`},
		{"missing securityGroupName (§5.1)", `{"resourceGroup":"x","location":"y"}`, `missing required key "securityGroupName"`},
		{"syntax error names line", "{\n\"resourceGroup\": ,\n}", "line 2, column"},
		{"wrong type names key", `{"resourceGroup":"x","location":"y","securityGroupName":"n","disableOutboundSNAT":"yes"}`,
			`line 1, column 88: key "disableOutboundSNAT": want true or false, got a string`},
		{"number for a string", `{"resourceGroup":"x","location":"y","securityGroupName":"n","subscriptionId":123}`,
			`line 1, column 81: key "subscriptionId": want a string, got a number`},
		{"fraction for a whole number", `{"resourceGroup":"x","location":"y","securityGroupName":"n","maximumLoadBalancerRuleCount":1.5}`,
			`key "maximumLoadBalancerRuleCount": want a whole number, got a number (1.5)`},
		{"string for a secret-free auth bool", `{"resourceGroup":"x","location":"y","securityGroupName":"n","useManagedIdentityExtension":"maybe"}`,
			`key "useManagedIdentityExtension": want true or false, got a string`},
		{"bad sku", `{"resourceGroup":"x","location":"y","securityGroupName":"n","loadBalancerSku":"premium"}`, `"loadBalancerSku": invalid value "premium"`},
		{"bad pool type", `{"resourceGroup":"x","location":"y","securityGroupName":"n","loadBalancerBackendPoolConfigurationType":"nic"}`, `loadBalancerBackendPoolConfigurationType`},
		{"bad probe mode", `{"resourceGroup":"x","location":"y","securityGroupName":"n","clusterServiceLoadBalancerHealthProbeMode":"all"}`, `clusterServiceLoadBalancerHealthProbeMode`},
		{"outbound snat on basic (§10)", `{"resourceGroup":"x","location":"y","securityGroupName":"n","loadBalancerSku":"basic","disableOutboundSNAT":true}`, `disableOutboundSNAT`},
		{"multi-SLB without primaryVMSet", `{"resourceGroup":"x","location":"y","securityGroupName":"n","multipleStandardLoadBalancerConfigurations":[{"name":"kubernetes"}]}`, `primaryVMSet`},
		{"nodeSelector In without values", multiSLBSelector(`{"matchExpressions":[{"key":"pool","operator":"In"}]}`), `multipleStandardLoadBalancerConfigurations[0].nodeSelector: `},
		{"nodeSelector unknown operator", multiSLBSelector(`{"matchExpressions":[{"key":"pool","operator":"Gt","values":["1"]}]}`), `multipleStandardLoadBalancerConfigurations[0].nodeSelector: `},
		{"nodeSelector Exists with values", multiSLBSelector(`{"matchExpressions":[{"key":"pool","operator":"Exists","values":["a"]}]}`), `nodeSelector`},
		{"nodeSelector expression not an object", multiSLBSelector(`{"matchExpressions":["pool in (a)"]}`), `nodeSelector: not a label selector`},
		{"nodeSelector label value", multiSLBSelector(`{"matchLabels":{"pool":"a b"}}`), `nodeSelector`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "json:") || strings.Contains(err.Error(), "Go struct") {
				t.Errorf("err = %v: encoding/json's wording leaks", err)
			}
		})
	}
}

func TestParseUnknownKeysNoted(t *testing.T) {
	in := `{"resourceGroup":"rg","location":"l","securityGroupName":"n","aadClientSecret":"s3cret","fooBar":1,"RESOURCEGROUP2":"x"}`
	cfg, notes, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`azure.json: unknown key "RESOURCEGROUP2" ignored`, `azure.json: unknown key "fooBar" ignored`}
	if d := cmp.Diff(want, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
	if _, ok := cfg.Unknown["fooBar"]; !ok {
		t.Errorf("Unknown = %v, want fooBar kept", cfg.Unknown)
	}
	for _, n := range notes {
		if strings.Contains(n, "s3cret") {
			t.Errorf("note leaks a value: %q", n)
		}
	}
}

func TestSubscriptionForIDs(t *testing.T) {
	tests := []struct {
		name                string
		json, override, net string
		want                string
	}{
		{"azure.json", "a", "", "", "a"},
		{"azsvc override", "a", "b", "", "b"},
		{"network subscription wins when different (§2.2)", "a", "", "n", "n"},
		{"network subscription equal", "a", "", "A", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Config{SubscriptionID: tt.json, Subscription: tt.override, NetworkResourceSubscriptionID: tt.net}
			if got := c.SubscriptionForIDs(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cfg, _, err := Parse([]byte(`{"resourceGroup":"rg","location":"l","securityGroupName":"n","loadBalancerBackendPoolConfigurationType":"nodeIP","multipleStandardLoadBalancerConfigurations":[{"name":"lb1","primaryVMSet":"p"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "subscription") {
		t.Errorf("err = %v, want missing subscription", err)
	}
	cfg.Subscription = "s"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "named after the cluster") {
		t.Errorf("err = %v, want multi-SLB cluster-name config error", err)
	}
	cfg.ClusterName = "LB1"
	if err := cfg.Validate(); err != nil {
		t.Errorf("err = %v, want nil (names compare case-insensitively)", err)
	}
}

func TestConfigTags(t *testing.T) {
	c := &Config{Tags: "a=1, b = 2,broken,=x,c=3=4", TagsMap: map[string]string{"A": "map"}}
	want := map[string]string{"A": "map", "b": "2"}
	if d := cmp.Diff(want, c.ConfigTags()); d != "" {
		t.Errorf("tags (-want +got):\n%s", d)
	}
}

func TestExampleConfig(t *testing.T) {
	data, err := os.ReadFile("../../examples/azure.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg, notes, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes = %v", notes)
	}
	cfg.ClusterName = "aks-prod-weu"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
}

// multiSLBSelector is an azure.json with one multi-SLB configuration whose
// nodeSelector is sel.
func multiSLBSelector(sel string) string {
	return `{"resourceGroup":"x","location":"y","securityGroupName":"n","multipleStandardLoadBalancerConfigurations":[{"name":"kubernetes","primaryVMSet":"v","nodeSelector":` + sel + `}]}`
}

func TestLabelSelectorMatches(t *testing.T) {
	expr := func(key, op string, values ...any) any {
		m := map[string]any{"key": key, "operator": op}
		if values != nil {
			m["values"] = values
		}
		return m
	}
	labels := map[string]string{"pool": "a", "zone": "1"}
	tests := []struct {
		name string
		sel  *LabelSelector
		want bool
	}{
		{"nil matches nothing", nil, false},
		{"matchLabels", &LabelSelector{MatchLabels: map[string]string{"pool": "a"}}, true},
		{"matchLabels differ", &LabelSelector{MatchLabels: map[string]string{"pool": "b"}}, false},
		{"In", &LabelSelector{MatchExpressions: []any{expr("pool", "In", "a", "b")}}, true},
		{"In without the label", &LabelSelector{MatchExpressions: []any{expr("gpu", "In", "a")}}, false},
		{"NotIn", &LabelSelector{MatchExpressions: []any{expr("pool", "NotIn", "b")}}, true},
		{"NotIn without the label", &LabelSelector{MatchExpressions: []any{expr("gpu", "NotIn", "x")}}, true},
		{"Exists", &LabelSelector{MatchExpressions: []any{expr("zone", "Exists")}}, true},
		{"DoesNotExist", &LabelSelector{MatchExpressions: []any{expr("zone", "DoesNotExist")}}, false},
		{"labels and expressions together", &LabelSelector{MatchLabels: map[string]string{"zone": "1"},
			MatchExpressions: []any{expr("pool", "NotIn", "a")}}, false},
		{"In without values is invalid", &LabelSelector{MatchExpressions: []any{expr("pool", "In")}}, false},
		{"unknown operator", &LabelSelector{MatchExpressions: []any{expr("pool", "Gt", "1")}}, false},
		{"not a mapping", &LabelSelector{MatchExpressions: []any{"pool in (a)"}}, false},
	}
	for _, tc := range tests {
		if got := tc.sel.Matches(labels); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
