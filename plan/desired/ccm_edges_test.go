package desired

import (
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// TestAnnotationEdgesFollowCCM pins the odd cases where desired-state
// building once read annotations its own way and now reads them through the
// plan/service accessors, as CCM does (ccm-semantics §1.2-§1.4, §5.2).
func TestAnnotationEdgesFollowCCM(t *testing.T) {
	t.Run("§5.2 empty item in azure-allowed-ip-ranges is an invalid range: deny-all", func(t *testing.T) {
		st := mustBuild(t, testConfig(t), manifest("svc", map[string]string{"azure-allowed-ip-ranges": "10.0.0.0/8,"}, tcp80))
		var deny int
		for _, r := range st.OfKind(plan.KindSecurityRule) {
			if r.Properties["access"] == "Deny" {
				deny++
			}
		}
		if deny != 1 {
			t.Errorf("deny rules = %d, want 1 (loadbalancer/configuration.go:AllowedIPRanges keeps empty items)", deny)
		}
	})
	t.Run("§4 empty per-port probe protocol falls through to the global one", func(t *testing.T) {
		st := mustBuild(t, testConfig(t), manifest("svc", map[string]string{
			"port_80_health-probe_protocol":             "",
			"azure-load-balancer-health-probe-protocol": "http",
		}, tcp80))
		probes := st.OfKind(plan.KindProbe)
		if len(probes) != 1 || probes[0].Properties["protocol"] != "Http" {
			t.Errorf("probes = %v, want one Http probe", names(st, plan.KindProbe))
		}
	})
	t.Run("§1.3 #3 __AUTO__ is auto mode, case-insensitively", func(t *testing.T) {
		st := mustBuild(t, testConfig(t, basicSKU), manifest("svc", map[string]string{"azure-load-balancer-mode": " __AUTO__ "}, tcp80))
		if got := names(st, plan.KindLoadBalancer); len(got) != 1 || got[0] != "kubernetes" {
			t.Errorf("load balancers = %v, want [kubernetes]", got)
		}
	})
	t.Run("§1.3 #19 empty item in azure-additional-public-ips is CCM's error", func(t *testing.T) {
		_, _, diags := build(t, testConfig(t), manifest("svc", map[string]string{"azure-additional-public-ips": "20.1.2.3,"}, tcp80))
		if len(diags) != 1 || diags[0].Code != CodeAdditionalIPs {
			t.Errorf("diagnostics = %+v, want one %s", diags, CodeAdditionalIPs)
		}
	})
}
