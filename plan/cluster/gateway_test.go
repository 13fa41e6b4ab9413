package cluster

import (
	"errors"
	"strings"
	"testing"
)

// sgConfig is a minimal azure.json with extra keys added, e.g.
// `"serviceGatewayEnabled":true`.
func sgConfig(extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return `{"resourceGroup":"rg","location":"l","securityGroupName":"n"` + extra + `}`
}

// TestServiceGatewayPartial: CCM refuses to start when one or two of the
// three Service Gateway settings are set without the rest
// (pkg/provider/azure.go:351-358 at 7b31c76); azsvc says which go together
// and what the file holds.
func TestServiceGatewayPartial(t *testing.T) {
	tests := []struct{ name, extra, wantHas string }{
		{"enabled alone", `"serviceGatewayEnabled":true`, `serviceGatewayEnabled: true, loadBalancerBackendPoolConfigurationType: "nodeIPConfiguration", loadBalancerSku: "standard"`},
		{"podIP alone", `"loadBalancerBackendPoolConfigurationType":"podIP"`, `loadBalancerBackendPoolConfigurationType: "podIP"`},
		{"service SKU alone", `"loadBalancerSku":"service"`, `loadBalancerSku: "service"`},
		{"service SKU any case with podIP", `"loadBalancerSku":"Service","loadBalancerBackendPoolConfigurationType":"PodIP"`, `serviceGatewayEnabled: false`},
		{"enabled and podIP on standard", `"serviceGatewayEnabled":true,"loadBalancerBackendPoolConfigurationType":"podIP"`, `loadBalancerSku: "standard"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse([]byte(sgConfig(tt.extra)))
			if err == nil {
				t.Fatal("Parse accepted a partial Service Gateway configuration")
			}
			msg := err.Error()
			for _, want := range []string{"serviceGatewayEnabled: true, loadBalancerBackendPoolConfigurationType: podIP and loadBalancerSku: service go together", tt.wantHas} {
				if !strings.Contains(msg, want) {
					t.Errorf("err = %q, want it to contain %q", msg, want)
				}
			}
			if errors.Is(err, ErrNotModelled) {
				t.Errorf("a partial configuration is an azure.json error, not the mode refusal: %v", err)
			}
		})
	}
}

// TestServiceGatewayFull: the three settings together select the mode
// (case-insensitive, pkg/provider/config/azure.go:201-207), which azsvc
// refuses rather than plan a shared Basic load balancer; the combinations
// CCM itself refuses in that mode stay azure.json errors
// (pkg/provider/azure.go:361-373).
func TestServiceGatewayFull(t *testing.T) {
	full := `"serviceGatewayEnabled":true,"loadBalancerBackendPoolConfigurationType":"podIP","loadBalancerSku":"service"`
	for _, extra := range []string{full, `"serviceGatewayEnabled":true,"loadBalancerBackendPoolConfigurationType":"PODIP","loadBalancerSku":"SERVICE"`} {
		_, _, err := Parse([]byte(sgConfig(extra)))
		if !errors.Is(err, ErrNotModelled) {
			t.Fatalf("%s: err = %v, want ErrNotModelled", extra, err)
		}
		for _, want := range []string{"Service Gateway mode", "not planned by azsvc", "SKU Service per Service", "StandardV2", "no NSG rules"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %q, want it to say %q", err, want)
			}
		}
	}
	for name, extra := range map[string]string{
		"multi-SLB":       full + `,"multipleStandardLoadBalancerConfigurations":[{"name":"kubernetes","primaryVMSet":"v"}]`,
		"pool migration":  full + `,"enableMigrateToIPBasedBackendPoolAPI":true`,
		"outbound SNAT":   full + `,"disableOutboundSNAT":true`,
		"bad probe mode":  full + `,"clusterServiceLoadBalancerHealthProbeMode":"all"`,
		"bad pool type":   `"serviceGatewayEnabled":true,"loadBalancerBackendPoolConfigurationType":"pods","loadBalancerSku":"service"`,
		"sku with space ": `"serviceGatewayEnabled":true,"loadBalancerBackendPoolConfigurationType":"podIP","loadBalancerSku":"service "`,
	} {
		_, _, err := Parse([]byte(sgConfig(extra)))
		if err == nil || errors.Is(err, ErrNotModelled) {
			t.Errorf("%s: err = %v, want an azure.json error", name, err)
		}
	}
}

// TestSKU: loadBalancerSku is compared as CCM compares it, case-insensitive
// and untrimmed (pkg/provider/config/azure.go:205-215); CCM defaults only an
// empty value (pkg/provider/azure.go:600) and builds Basic for any other, so
// azsvc names such a value instead of planning Basic.
func TestSKU(t *testing.T) {
	for in, want := range map[string]string{`"standard"`: "standard", `"Standard"`: "standard", `"BASIC"`: "basic", `""`: "standard"} {
		cfg, _, err := Parse([]byte(sgConfig(`"loadBalancerSku":` + in)))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if cfg.LoadBalancerSKU != want || cfg.Standard() != (want == SKUStandard) {
			t.Errorf("%s: SKU %q (standard %v), want %q", in, cfg.LoadBalancerSKU, cfg.Standard(), want)
		}
	}
	for _, in := range []string{"premium", "standardv2", " standard", "   ", "gateway"} {
		_, _, err := Parse([]byte(sgConfig(`"loadBalancerSku":"` + in + `"`)))
		if err == nil {
			t.Errorf("%q accepted: CCM would build a Basic load balancer for it", in)
			continue
		}
		for _, want := range []string{`"loadBalancerSku": invalid value "` + in + `"`, "want standard or basic", "Basic load balancer"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: err = %q, want it to contain %q", in, err, want)
			}
		}
	}
}

func TestNotModelledNamesKnownKeys(t *testing.T) {
	known := modelledKeys()
	for _, u := range NotModelled() {
		for _, k := range u.Keys {
			key, _, _ := strings.Cut(k, ":")
			if !known[strings.ToLower(key)] {
				t.Errorf("NotModelled lists %q, which Config does not read", key)
			}
		}
		if u.What == "" {
			t.Errorf("%v: no explanation", u.Keys)
		}
	}
}
