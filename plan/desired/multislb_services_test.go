package desired

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// armLBs is an observed state: load balancers by name, each with the
// frontends (name -> public IP name, "" for none) and the rules listed.
type armLB struct {
	frontends map[string]string
	rules     []string
}

func observedLBs(lbs map[string]armLB, pips map[string]string) *plan.State {
	st := plan.NewState()
	for name, lb := range lbs {
		id := plan.NewID("sub", "rg", plan.KindLoadBalancer, name)
		st.Put(&plan.Resource{ID: id, Properties: map[string]any{}})
		for fe, pip := range lb.frontends {
			props := map[string]any{}
			if pip != "" {
				props["publicIPAddress"] = plan.Ref(plan.NewID("sub", "rg", plan.KindPublicIP, pip))
			} else {
				props["privateIPAddress"] = "10.0.0.9"
			}
			st.Put(&plan.Resource{ID: plan.ChildID(id, plan.KindFrontend, fe), Properties: props})
		}
		for _, r := range lb.rules {
			st.Put(&plan.Resource{ID: plan.ChildID(id, plan.KindRule, r), Properties: map[string]any{}})
		}
	}
	for name, addr := range pips {
		st.Put(&plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPublicIP, name), Properties: map[string]any{"ipAddress": addr}})
	}
	return st
}

// TestMultiSLBHeldPlacement covers getAzureLoadBalancerName with what ARM
// holds (ccm-semantics §7.6): a Service stays on the load balancer holding
// it while that one is eligible; a new Service goes to the one with the
// fewest rules as ARM counts them.
func TestMultiSLBHeldPlacement(t *testing.T) {
	closed := false
	edge := func(c *cluster.Config) {
		c.MultipleStandardLoadBalancerConfigurations[1].ServiceLabelSelector = &cluster.LabelSelector{MatchLabels: map[string]string{"tier": "edge"}}
	}
	noPlacement := func(c *cluster.Config) {
		c.MultipleStandardLoadBalancerConfigurations[1].AllowServicePlacement = &closed
	}
	onLB2 := map[string]armLB{
		"kubernetes": {},
		"lb2":        {frontends: map[string]string{testPrefix: "pip"}, rules: []string{testPrefix + "-TCP-80", "other-TCP-1", "other-TCP-2"}},
	}
	onLB2Internal := map[string]armLB{
		"kubernetes": {},
		"lb2":        {rules: []string{testPrefix + "-TCP-80", "x-TCP-1"}},
	}
	busy := map[string]armLB{"kubernetes": {rules: []string{"x-TCP-1", "x-TCP-2"}}, "lb2": {rules: []string{"y-TCP-1"}}}
	tests := []struct {
		name   string
		cfg    []func(*cluster.Config)
		lbs    map[string]armLB
		labels string
		ann    map[string]string
		want   string // LB, or the refusal's message start
	}{
		{"stays where ARM holds it, whatever the rule counts", nil, onLB2, "", nil, "lb2"},
		{"stays on a load balancer closed to new Services", []func(*cluster.Config){noPlacement}, onLB2, "", nil, "lb2"},
		{"a closed load balancer takes no new Service", []func(*cluster.Config){noPlacement}, busy, "", nil, "kubernetes"},
		{"stays while it matches the selector", []func(*cluster.Config){edge}, onLB2, "tier: edge", nil, "lb2"},
		{"moves when the selector no longer matches", []func(*cluster.Config){edge}, onLB2, "tier: core", nil, "kubernetes"},
		{"moves to the configuration the annotation names", nil, onLB2, "", map[string]string{"azure-load-balancer-configurations": "kubernetes"}, "kubernetes"},
		{"an internal Service keeps its configuration (ActiveServices)", nil, onLB2Internal, "",
			map[string]string{"azure-load-balancer-internal": "true"}, "lb2-internal"},
		{"a new Service goes where ARM counts the fewest rules", nil, busy, "", nil, "lb2"},
		{"a pinned public IP on a load balancer no longer eligible is refused", []func(*cluster.Config){edge}, onLB2, "tier: core",
			map[string]string{"azure-pip-name": "pip"}, `service "svc" specifies an IP that resides on load balancer "lb2"`},
		{"a pinned address stays with its load balancer", nil, onLB2, "", map[string]string{"azure-load-balancer-ipv4": "20.1.2.3"}, "lb2"},
		{"naming a configuration and pinning an IP is refused", nil, onLB2, "",
			map[string]string{"azure-pip-name": "pip", "azure-load-balancer-configurations": "lb2"}, `service "svc" has conflicting load balancer configuration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(t, append([]func(*cluster.Config){func(c *cluster.Config) {
				c.BackendPoolType = cluster.PoolNodeIP
				c.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{{Name: "kubernetes", PrimaryVMSet: "a"}, {Name: "lb2", PrimaryVMSet: "b"}}
			}}, tt.cfg...)...)
			m := manifest("svc", tt.ann, tcp80)
			if tt.labels != "" {
				m = strings.Replace(m, "  namespace: ns\n", "  namespace: ns\n  labels: {"+tt.labels+"}\n", 1)
			}
			in := service.Decode("m.yaml", []byte(m))
			held := HeldFrom(observedLBs(tt.lbs, map[string]string{"pip": "20.1.2.3"}), cfg)
			st, _, diags := BuildWith(in.Services, cfg, Options{Held: held})
			got := strings.Join(names(st, plan.KindLoadBalancer), ",")
			if len(diags) > 0 {
				got = diags[0].Message
			}
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("placed on %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSameLBs: a build without what ARM holds must be made again unless ARM
// holds every Service on the load balancer it chose, and there alone.
func TestSameLBs(t *testing.T) {
	cfg := testConfig(t, func(c *cluster.Config) {
		c.BackendPoolType = cluster.PoolNodeIP
		c.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{{Name: "kubernetes", PrimaryVMSet: "a"}, {Name: "lb2", PrimaryVMSet: "b"}}
	})
	st, scope, _ := build(t, cfg, manifest("svc", nil, tcp80))
	tests := []struct {
		name string
		lbs  map[string]armLB
		want bool
	}{
		{"nothing in ARM", nil, true},
		{"held where built", map[string]armLB{"kubernetes": {frontends: map[string]string{testPrefix: "pip"}, rules: []string{testPrefix + "-TCP-80"}}}, true},
		{"held elsewhere", map[string]armLB{"kubernetes": {}, "lb2": {rules: []string{testPrefix + "-TCP-80"}}}, false},
		{"held on two", map[string]armLB{"kubernetes": {rules: []string{testPrefix + "-TCP-80"}}, "lb2": {rules: []string{testPrefix + "-TCP-81"}}}, false},
		{"new, with load balancers in ARM", map[string]armLB{"kubernetes": {rules: []string{"x-TCP-1"}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SameLBs(st, scope, cfg, HeldFrom(observedLBs(tt.lbs, nil), cfg)); got != tt.want {
				t.Errorf("SameLBs = %v, want %v", got, tt.want)
			}
		})
	}
}
