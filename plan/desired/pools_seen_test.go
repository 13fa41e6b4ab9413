package desired

import (
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

func preConfigured(types string) func(*cluster.Config) {
	return func(c *cluster.Config) { c.PreConfiguredBackendPoolLoadBalancerTypes = types }
}

// poolKey is the key of pool on load balancer lb in testConfig's group.
func poolKey(lb, pool string) plan.Key {
	return plan.ChildID(plan.NewID("sub", "rg", plan.KindLoadBalancer, lb), plan.KindBackendPool, pool).Key()
}

// TestPreConfiguredPools: CCM leaves the members of a pool that ARM holds
// on a load balancer type preConfiguredBackendPoolLoadBalancerTypes names
// (isBackendPoolPreConfigured, by the Service's internal flag), fills one
// it has to create, and under multi-SLB fills every load balancer's
// cluster pool while a Service outside those types places one.
func TestPreConfiguredPools(t *testing.T) {
	external := manifest("ext", nil, tcp80)
	internal := manifest("int", map[string]string{"azure-load-balancer-internal": "true"}, tcp80)
	local := manifest("loc", map[string]string{"azure-load-balancer-internal": "true"}, tcp80+"  externalTrafficPolicy: Local\n  healthCheckNodePort: 32000\n")
	node := nodeYAML("n1", []string{"10.0.0.4"})
	slice := "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: loc-1, namespace: ns, labels: {kubernetes.io/service-name: loc}}\naddressType: IPv4\nendpoints:\n- {addresses: [10.1.0.4], nodeName: n1}\n"
	held := &SeenLBs{Pools: map[plan.Key]bool{
		poolKey("kubernetes", "kubernetes"): true, poolKey("kubernetes-internal", "kubernetes"): true,
		poolKey("kubernetes-internal", "ns-loc"): true,
	}}
	multi := &SeenLBs{Names: map[string]bool{"kubernetes": true, "kubernetes-internal": true}, Nodes: map[string]map[string]bool{"kubernetes": {"n1": true}}, Pools: held.Pools}
	n1 := []string{"n1=10.0.0.4"}
	for _, tc := range []struct {
		name              string
		cfg               *cluster.Config
		seen              *SeenLBs
		docs              []string
		lb, pool          string
		want              []string // nil: left as ARM holds it
		wantPreConfigured bool
	}{
		{"internal, held", testConfig(t, nodeIPPools, preConfigured("internal")), held, []string{internal, external, node}, "kubernetes-internal", "kubernetes", nil, true},
		{"internal, external pool", testConfig(t, nodeIPPools, preConfigured("internal")), held, []string{internal, external, node}, "kubernetes", "kubernetes", n1, false},
		{"internal, created", testConfig(t, nodeIPPools, preConfigured("internal")), nil, []string{internal, node}, "kubernetes-internal", "kubernetes", n1, false},
		{"external, held", testConfig(t, nodeIPPools, preConfigured("external")), held, []string{internal, external, node}, "kubernetes", "kubernetes", nil, true},
		{"all, held", testConfig(t, nodeIPPools, preConfigured("all")), held, []string{internal, node}, "kubernetes-internal", "kubernetes", nil, true},
		{"case matters", testConfig(t, nodeIPPools, preConfigured("Internal")), held, []string{internal, node}, "kubernetes-internal", "kubernetes", n1, false},
		{"multi-SLB, an external Service fills every LB", testConfig(t, multiSLB("kubernetes"), preConfigured("internal")), multi, []string{internal, external, node}, "kubernetes-internal", "kubernetes", n1, false},
		{"multi-SLB, internal only", testConfig(t, multiSLB("kubernetes"), preConfigured("internal")), multi, []string{internal, node}, "kubernetes-internal", "kubernetes", nil, true},
		{"multi-SLB, Local pool", testConfig(t, multiSLB("kubernetes"), preConfigured("internal")), multi, []string{local, external, node, slice}, "kubernetes-internal", "ns-loc", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := buildWith(t, tc.cfg, tc.seen, tc.docs...)
			if got := members(t, st, tc.lb, tc.pool); !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("members %v, want %v", got, tc.want)
			}
			in := service.Decode("in.yaml", []byte(strings.Join(tc.docs, "---\n")))
			notes := Membership(st, tc.cfg, &in.Topology, func(plan.Key) bool { return false })
			address := "lb/" + tc.lb + "/pool/" + tc.pool
			got := slices.ContainsFunc(notes, func(m plan.Membership) bool {
				return m.Code == plan.MembershipPreConfigured && slices.Contains(m.Pools, address)
			})
			if got != tc.wantPreConfigured {
				t.Errorf("membership notes %+v, want preconfigured for %s: %v", notes, address, tc.wantPreConfigured)
			}
			// A first build knows nothing of ARM: it fills the pool, and
			// SamePlacement sends the planner to build again.
			first := buildWith(t, tc.cfg, nil, tc.docs...)
			rebuild := tc.wantPreConfigured || tc.name == "internal, external pool" // the internal pool is held
			if same := SamePlacement(first, tc.cfg, &in.Topology, tc.seen); same == rebuild {
				t.Errorf("SamePlacement of a build without ARM: %v", same)
			}
		})
	}
}

// TestMultiSLBUnrecordedConfigTakesEveryNode: a configuration whose load
// balancer the plan builds, that no pool in ARM recorded and placement
// gives no node, has a nil node set in CCM, and bi.EnsureHostsInPool puts
// every node in its pool; once ARM holds its pool (recorded, even empty)
// it holds only the nodes placed there.
func TestMultiSLBUnrecordedConfigTakesEveryNode(t *testing.T) {
	cfg := testConfig(t, multiSLB("kubernetes", "slb-a"))
	cfg.MultipleStandardLoadBalancerConfigurations[0].ServiceLabelSelector = &cluster.LabelSelector{MatchLabels: map[string]string{"lb": "main"}}
	cfg.MultipleStandardLoadBalancerConfigurations[1].ServiceLabelSelector = &cluster.LabelSelector{MatchLabels: map[string]string{"lb": "a"}}
	main := strings.Replace(manifest("main", nil, tcp80), "  namespace: ns\n", "  namespace: ns\n  labels: {lb: main}\n", 1)
	onA := strings.Replace(manifest("on-a", nil, tcp80), "  namespace: ns\n", "  namespace: ns\n  labels: {lb: a}\n", 1)
	vmss := "providerID: azure:///subscriptions/sub/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/kubernetes-vmss/virtualMachines/0"
	docs := []string{main, onA, nodeYAML("n0", []string{"10.0.0.4"}, vmss), nodeYAML("n1", []string{"10.0.0.5"}, vmss)}
	// ARM holds kubernetes with both nodes; slb-a is new.
	seen := &SeenLBs{Names: map[string]bool{"kubernetes": true}, Nodes: map[string]map[string]bool{"kubernetes": {"n0": true, "n1": true}}}
	st := buildWith(t, cfg, seen, docs...)
	every := []string{"n0=10.0.0.4", "n1=10.0.0.5"}
	if got := members(t, st, "slb-a", "kubernetes"); !slices.Equal(got, every) {
		t.Errorf("new configuration without nodes: %v, want every node %v", got, every)
	}
	if got := members(t, st, "kubernetes", "kubernetes"); !slices.Equal(got, every) {
		t.Errorf("kubernetes: %v", got)
	}
	seen.Names["slb-a"], seen.Nodes["slb-a"] = true, map[string]bool{}
	st = buildWith(t, cfg, seen, docs...)
	if got := members(t, st, "slb-a", "kubernetes"); got == nil || len(got) != 0 {
		t.Errorf("recorded empty configuration: %v, want no member", got)
	}
}
