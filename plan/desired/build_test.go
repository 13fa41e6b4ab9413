package desired

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
)

// TestLoadBalancerNames covers the LB rows of §2.2 and §7.6.
func TestLoadBalancerNames(t *testing.T) {
	multi := func(c *cluster.Config) {
		c.BackendPoolType = cluster.PoolNodeIP
		c.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{
			{Name: "kubernetes", PrimaryVMSet: "pool1"},
			{Name: "lb2", PrimaryVMSet: "pool2"},
		}
	}
	tests := []struct {
		name string
		cfg  []func(*cluster.Config)
		ann  map[string]string
		want string
	}{
		{"§2.2 public LB is the cluster name", nil, nil, "kubernetes"},
		{"§2.2 internal LB", nil, map[string]string{"azure-load-balancer-internal": "true"}, "kubernetes-internal"},
		{"§1.2 'True' means external for LB choice", nil, map[string]string{"azure-load-balancer-internal": "True"}, "kubernetes"},
		{"§2.2 loadBalancerName replaces the base", []func(*cluster.Config){func(c *cluster.Config) { c.LoadBalancerName = "mylb" }},
			map[string]string{"azure-load-balancer-internal": "true"}, "mylb-internal"},
		{"§1.3 #3 mode ignored on standard", nil, map[string]string{"azure-load-balancer-mode": "pool2"}, "kubernetes"},
		{"§2.2 basic SKU, non-primary VM set", []func(*cluster.Config){basicSKU}, map[string]string{"azure-load-balancer-mode": "pool2"}, "pool2"},
		{"§2.2 basic SKU, primary VM set maps to the base", []func(*cluster.Config){basicSKU, func(c *cluster.Config) { c.PrimaryScaleSetName = "Pool1" }},
			map[string]string{"azure-load-balancer-mode": "pool1"}, "kubernetes"},
		{"§2.2 multi-SLB by annotation", []func(*cluster.Config){multi}, map[string]string{"azure-load-balancer-configurations": " LB2 "}, "lb2"},
		{"§2.2 multi-SLB internal", []func(*cluster.Config){multi}, map[string]string{"azure-load-balancer-configurations": "lb2", "azure-load-balancer-internal": "true"}, "lb2-internal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := mustBuild(t, testConfig(t, tt.cfg...), manifest("svc", tt.ann, tcp80))
			if d := cmp.Diff([]string{tt.want}, names(st, plan.KindLoadBalancer)); d != "" {
				t.Errorf("LBs (-want +got):\n%s", d)
			}
		})
	}
}

// TestMultiSLBPlacement covers §7.6: Services spread over configurations
// that do not exist yet, then go to the one with the fewest rules.
func TestMultiSLBPlacement(t *testing.T) {
	cfg := testConfig(t, func(c *cluster.Config) {
		c.BackendPoolType = cluster.PoolNodeIP
		c.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{{Name: "kubernetes", PrimaryVMSet: "a"}, {Name: "lb2", PrimaryVMSet: "b"}}
	})
	two := "  ports:\n  - {name: a, port: 80, nodePort: 30080}\n  - {name: b, port: 81, nodePort: 30081}\n"
	st := mustBuild(t, cfg, manifest("s1", nil, two), manifest("s2", nil, tcp80), manifest("s3", nil, tcp80))
	lbOf := func(svc string) string {
		for _, r := range st.OfKind(plan.KindFrontend) {
			if r.Services[0] == "ns/"+svc {
				return r.ID.Names[0]
			}
		}
		return ""
	}
	got := []string{lbOf("s1"), lbOf("s2"), lbOf("s3")}
	if d := cmp.Diff([]string{"kubernetes", "lb2", "lb2"}, got); d != "" {
		t.Errorf("placement (-want +got):\n%s", d)
	}
	_, _, diags := build(t, cfg, manifest("s4", map[string]string{"azure-load-balancer-configurations": "nope"}, tcp80))
	if len(diags) != 1 || diags[0].Code != CodeLBSelection {
		t.Errorf("diagnostics = %+v, want %s", diags, CodeLBSelection)
	}
}

// TestRuleProperties covers every property of §3.
func TestRuleProperties(t *testing.T) {
	base := func(extra map[string]any) map[string]any {
		p := map[string]any{"protocol": "Tcp", "frontendPort": 80, "backendPort": 80, "enableFloatingIP": true,
			"idleTimeoutInMinutes": 4, "enableTcpReset": true, "disableOutboundSnat": false, "loadDistribution": "Default"}
		for k, v := range extra {
			if v == nil {
				delete(p, k)
			} else {
				p[k] = v
			}
		}
		return p
	}
	tests := []struct {
		name string
		cfg  []func(*cluster.Config)
		ann  map[string]string
		spec string
		rule string
		want map[string]any
	}{
		{"§3 defaults", nil, nil, tcp80, "TCP-80", base(nil)},
		{"§3 floating IP disabled: backendPort = nodePort", nil, map[string]string{"azure-disable-load-balancer-floating-ip": "true"}, tcp80, "TCP-80",
			base(map[string]any{"enableFloatingIP": false, "backendPort": 30080})},
		{"§1.3 #10 idle timeout", nil, map[string]string{"azure-load-balancer-tcp-idle-timeout": " 30 "}, tcp80, "TCP-80", base(map[string]any{"idleTimeoutInMinutes": 30})},
		{"§1.3 #21 TCP reset disabled", nil, map[string]string{"azure-load-balancer-disable-tcp-reset": "TRUE"}, tcp80, "TCP-80", base(map[string]any{"enableTcpReset": false})},
		{"§3 UDP: Udp, no TCP reset", nil, nil, tcpUDP, "UDP-53",
			base(map[string]any{"protocol": "Udp", "frontendPort": 53, "backendPort": 53, "enableTcpReset": nil})},
		{"§3 basic SKU: no TCP reset", []func(*cluster.Config){basicSKU}, nil, tcp80, "TCP-80", base(map[string]any{"enableTcpReset": nil})},
		{"§3 disableOutboundSNAT from config", []func(*cluster.Config){func(c *cluster.Config) { c.DisableOutboundSNAT = true }}, nil, tcp80, "TCP-80",
			base(map[string]any{"disableOutboundSnat": true})},
		{"§3 sessionAffinity ClientIP: SourceIP", nil, nil, tcp80 + "  sessionAffinity: ClientIP\n", "TCP-80", base(map[string]any{"loadDistribution": "SourceIP"})},
		{"§3 SCTP internal: protocol All, ports kept", nil, map[string]string{"azure-load-balancer-internal": "true"},
			"  ports:\n  - {protocol: SCTP, port: 36412, nodePort: 30412}\n", "SCTP-36412",
			base(map[string]any{"protocol": "All", "frontendPort": 36412, "backendPort": 36412, "enableTcpReset": nil})},
		{"§3 IPv6 internal (dual-stack): floating off, nodePort", nil, map[string]string{"azure-load-balancer-internal": "true"},
			tcp80 + "  ipFamilies: [IPv4, IPv6]\n", "TCP-80-IPv6", base(map[string]any{"enableFloatingIP": false, "backendPort": 30080})},
		{"§3 HA ports: All, 0/0, TCP reset always", nil,
			map[string]string{"azure-load-balancer-internal": "true", "azure-load-balancer-enable-high-availability-ports": "true"}, tcpUDP, "TCP-80",
			base(map[string]any{"protocol": "All", "frontendPort": 0, "backendPort": 0})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := mustBuild(t, testConfig(t, tt.cfg...), manifest("svc", tt.ann, tt.spec))
			r := named(st, plan.KindRule, testPrefix+"-"+tt.rule)
			if r == nil {
				t.Fatalf("no rule %s; rules %v", tt.rule, names(st, plan.KindRule))
			}
			got := map[string]any{}
			for k, v := range r.Properties {
				switch k {
				case "frontendIPConfiguration", "backendAddressPool", "probe":
				default:
					got[k] = v
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("rule properties (-want +got):\n%s", d)
			}
		})
	}
}

// TestRuleReferences checks rule -> frontend, pool (family) and probe.
func TestRuleReferences(t *testing.T) {
	st := mustBuild(t, testConfig(t), manifest("svc", nil, tcp80+"  ipFamilies: [IPv4, IPv6]\n"))
	r := named(st, plan.KindRule, testPrefix+"-TCP-80-IPv6")
	got := []string{refName(r.Properties["frontendIPConfiguration"]), refName(r.Properties["backendAddressPool"]), refName(r.Properties["probe"])}
	want := []string{testPrefix + "-IPv6", "kubernetes-IPv6", testPrefix + "-TCP-80-IPv6"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("references (-want +got):\n%s", d)
	}
	for _, k := range r.References() {
		if _, ok := st.Get(k); !ok {
			t.Errorf("rule references %s, which is not in the desired state", k)
		}
	}
}

// TestSCTPExternal covers the SCTP guard of §3.
func TestSCTPExternal(t *testing.T) {
	_, _, diags := build(t, testConfig(t), manifest("svc", nil, "  ports:\n  - {protocol: SCTP, port: 36412, nodePort: 30412}\n"))
	if len(diags) != 1 || diags[0].Code != CodeSCTP {
		t.Fatalf("diagnostics = %+v, want %s", diags, CodeSCTP)
	}
}

// TestPools covers the backend pool rows of §2.2: cluster pools per family
// on every LB, per-Service pools for ETP Local under multi-SLB.
func TestPools(t *testing.T) {
	st := mustBuild(t, testConfig(t), manifest("svc", nil, tcp80+"  ipFamilies: [IPv4, IPv6]\n"))
	if d := cmp.Diff([]string{"kubernetes", "kubernetes-IPv6"}, names(st, plan.KindBackendPool)); d != "" {
		t.Errorf("pools (-want +got):\n%s", d)
	}
	multi := testConfig(t, func(c *cluster.Config) {
		c.BackendPoolType = cluster.PoolNodeIP
		c.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{{Name: "kubernetes", PrimaryVMSet: "a"}}
	})
	st = mustBuild(t, multi, manifest("Web", nil, tcp80+local+"  ipFamilies: [IPv4, IPv6]\n"))
	if d := cmp.Diff([]string{"ns-web", "ns-web-ipv6"}, names(st, plan.KindBackendPool)); d != "" {
		t.Errorf("multi-SLB local pools (-want +got):\n%s", d)
	}
}

// TestSharedProbeMerged covers §4.1: one shared probe on the LB serving
// every cluster-policy Service.
func TestSharedProbeMerged(t *testing.T) {
	st := mustBuild(t, testConfig(t, sharedProbeMode), manifest("svc", nil, tcp80), manifest("b", nil, tcpUDP))
	probes := st.OfKind(plan.KindProbe)
	if len(probes) != 1 || probes[0].Name() != sharedProbeName {
		t.Fatalf("probes = %v, want only the shared probe", names(st, plan.KindProbe))
	}
	if d := cmp.Diff([]string{"ns/b", "ns/svc"}, probes[0].Services); d != "" {
		t.Errorf("shared probe services (-want +got):\n%s", d)
	}
}

// TestScopeLoadBalancerNames covers the managed LB set of §2.4: the
// planner may change and delete only LBs named by the cluster, a multi-SLB
// configuration, a VM set or loadBalancerName.
func TestScopeLoadBalancerNames(t *testing.T) {
	multi := func(c *cluster.Config) {
		c.BackendPoolType = cluster.PoolNodeIP
		c.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{
			{Name: "Kubernetes", PrimaryVMSet: "pool1"}, {Name: "lb3", PrimaryVMSet: "pool3"}, {Name: "lb2", PrimaryVMSet: "pool2"},
		}
	}
	tests := []struct {
		name string
		cfg  []func(*cluster.Config)
		anns []map[string]string
		want []string
	}{
		{"single standard LB: none besides the cluster", nil, []map[string]string{nil}, nil},
		{"multi-SLB: every configuration, placed or not", []func(*cluster.Config){multi}, []map[string]string{nil}, []string{"lb2", "lb3"}},
		{"basic SKU: the VM-set LBs the Services use", []func(*cluster.Config){basicSKU},
			[]map[string]string{{"azure-load-balancer-mode": "pool2"}, {"azure-load-balancer-mode": "pool2", "azure-load-balancer-internal": "true"}, nil},
			[]string{"pool2"}},
		{"loadBalancerName", []func(*cluster.Config){func(c *cluster.Config) { c.LoadBalancerName = "mylb" }}, []map[string]string{nil}, []string{"mylb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms []string
			for i, ann := range tt.anns {
				ms = append(ms, manifest(fmt.Sprintf("svc%d", i), ann, tcp80))
			}
			_, scope, diags := build(t, testConfig(t, tt.cfg...), ms...)
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %+v", diags)
			}
			if scope.Cluster != "kubernetes" {
				t.Errorf("Cluster = %q", scope.Cluster)
			}
			if d := cmp.Diff(tt.want, scope.LoadBalancerNames); d != "" {
				t.Errorf("LoadBalancerNames (-want +got):\n%s", d)
			}
		})
	}
}
