package desired

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

func nodeIPPools(c *cluster.Config) { c.BackendPoolType = cluster.PoolNodeIP }

// nodeYAML is a Node with the given InternalIPs and extra metadata or spec
// lines ("labels: {...}", "taints: [...]" go where they belong).
func nodeYAML(name string, ips []string, extra ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n", name)
	spec := ""
	for _, e := range extra {
		switch {
		case strings.HasPrefix(e, "taints:") || strings.HasPrefix(e, "providerID:"):
			spec += "  " + e + "\n"
		default:
			b.WriteString("  " + e + "\n")
		}
	}
	if spec != "" {
		b.WriteString("spec:\n" + spec)
	}
	b.WriteString("status:\n  addresses:\n")
	for _, ip := range ips {
		fmt.Fprintf(&b, "  - {type: InternalIP, address: %q}\n", ip)
	}
	return b.String()
}

// buildWith decodes Services, Nodes and EndpointSlices from docs and builds
// with their topology.
func buildWith(t testing.TB, cfg *cluster.Config, seen *SeenLBs, docs ...string) *plan.State {
	t.Helper()
	in := service.Decode("in.yaml", []byte(strings.Join(docs, "---\n")))
	for _, d := range in.Diagnostics {
		if d.Severity == service.SeverityError {
			t.Fatalf("%s: %s", d.Pos, d.Message)
		}
	}
	st, _, diags := BuildWith(in.Services, cfg, Options{Topology: &in.Topology, Seen: seen})
	if len(diags) > 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	return st
}

// members lists a pool's members as "name=ip", nil when the pool plans none.
func members(t testing.TB, st *plan.State, lb, pool string) []string {
	t.Helper()
	for _, r := range st.OfKind(plan.KindBackendPool) {
		parent, _ := r.ID.ParentID()
		if parent.Name() != lb || r.Name() != pool {
			continue
		}
		list, ok := r.Properties[plan.PoolMembersField].([]any)
		if !ok {
			return nil
		}
		out := []string{}
		for _, m := range list {
			mm := m.(map[string]any)
			out = append(out, mm["name"].(string)+"="+mm["properties"].(map[string]any)["ipAddress"].(string))
		}
		return out
	}
	t.Fatalf("no pool %s/%s in %v", lb, pool, names(st, plan.KindBackendPool))
	return nil
}

// TestNodeIPPoolMembers: the node set and CCM's exclusions for IP-based
// pools (EnsureHostsInPool of backendPoolTypeNodeIP), per family.
func TestNodeIPPoolMembers(t *testing.T) {
	dual := manifest("svc", nil, tcp80+"  ipFamilies: [IPv4, IPv6]\n")
	nodes := []string{
		nodeYAML("n1", []string{"10.0.0.4", "fd00::4"}),
		nodeYAML("n2", []string{"10.0.0.5"}, "labels: {node.kubernetes.io/exclude-from-external-load-balancers: \"true\"}"),
		nodeYAML("n3", []string{"10.0.0.6"}, "labels: {node.kubernetes.io/exclude-from-external-load-balancers: \"false\"}"),
		nodeYAML("n4", []string{"10.0.0.7"}, "labels: {node.kubernetes.io/exclude-from-external-load-balancers: maybe}"),
		nodeYAML("n5", []string{"10.0.0.8"}, "taints: [{key: ToBeDeletedByClusterAutoscaler, effect: NoSchedule}]"),
		nodeYAML("n6", []string{"10.0.0.9"}, "labels: {node-role.kubernetes.io/control-plane: \"\"}"),
		nodeYAML("n7", []string{"10.0.0.10"}, "labels: {kubernetes.azure.com/managed: \"false\"}"),
		nodeYAML("n8", []string{"10.0.0.11"}, "deletionTimestamp: 2026-01-02T03:04:05Z"),
		nodeYAML("n9", []string{"10.0.0.12", "10.0.0.13"}, "labels: {kubernetes.azure.com/resource-group: other-rg}"),
	}
	st := buildWith(t, testConfig(t, nodeIPPools), nil, append([]string{dual}, nodes...)...)
	want := []string{"n1=10.0.0.4", "n3=10.0.0.6", "n7=10.0.0.10", "n9=10.0.0.12"}
	if got := members(t, st, "kubernetes", "kubernetes"); !slices.Equal(got, want) {
		t.Errorf("IPv4 pool %v, want %v", got, want)
	}
	if got := members(t, st, "kubernetes", "kubernetes-IPv6"); !slices.Equal(got, []string{"n1=fd00::4"}) {
		t.Errorf("IPv6 pool %v", got)
	}
	pool := named(st, plan.KindBackendPool, "kubernetes")
	if refName(pool.Properties["virtualNetwork"]) != "vnet" {
		t.Errorf("pool virtualNetwork %v", pool.Properties["virtualNetwork"])
	}
}

// TestNodeIPPoolWithoutNodes: no eligible node leaves a single-SLB pool as
// ARM holds it (removeNodeIPAddressesFromBackendPool), and no Node input
// leaves every pool so; a NotReady node stays a member.
func TestNodeIPPoolWithoutNodes(t *testing.T) {
	svc := manifest("svc", nil, tcp80)
	st := buildWith(t, testConfig(t, nodeIPPools), nil, svc, nodeYAML("cp", []string{"10.0.0.4"}, "labels: {node-role.kubernetes.io/master: \"\"}"))
	if got := members(t, st, "kubernetes", "kubernetes"); got != nil {
		t.Errorf("members %v, want the pool left as ARM holds it", got)
	}
	if got := members(t, buildWith(t, testConfig(t, nodeIPPools), nil, svc), "kubernetes", "kubernetes"); got != nil {
		t.Errorf("members without Node input: %v", got)
	}
	notReady := nodeYAML("n1", []string{"10.0.0.4"}) + "  conditions: [{type: Ready, status: \"False\"}]\n"
	st = buildWith(t, testConfig(t, nodeIPPools), nil, svc, notReady)
	if got := members(t, st, "kubernetes", "kubernetes"); !slices.Equal(got, []string{"n1=10.0.0.4"}) {
		t.Errorf("NotReady node: members %v", got)
	}
	cfg := testConfig(t)
	in := service.Decode("n.yaml", []byte(notReady))
	notes := Membership(mustBuild(t, testConfig(t, nodeIPPools), svc), testConfig(t, nodeIPPools), nil, func(plan.Key) bool { return false })
	if len(notes) != 1 || notes[0].Code != plan.MembershipNoNodes {
		t.Errorf("notes without nodes %+v", notes)
	}
	notes = Membership(mustBuild(t, cfg, svc), cfg, &in.Topology, func(plan.Key) bool { return true })
	if len(notes) != 1 || notes[0].Code != plan.MembershipVMs || notes[0].Pools[0] != "lb/kubernetes/pool/kubernetes" {
		t.Errorf("notes for a NIC pool %+v", notes)
	}
}

// TestNodeIPsAsNSGDestinations: with floating IP disabled and Nodes known,
// the rule lists the pool's node addresses (nodeIP) or every InternalIP of
// the nodes the VMs put in a NIC pool; without Nodes, the marker.
func TestNodeIPsAsNSGDestinations(t *testing.T) {
	svc := manifest("svc", map[string]string{"azure-disable-load-balancer-floating-ip": "true"}, tcp80)
	nodes := []string{
		nodeYAML("n1", []string{"10.0.0.4", "10.0.1.4"}),
		nodeYAML("n2", []string{"10.0.0.5"}, "labels: {kubernetes.azure.com/managed: \"false\"}"),
		nodeYAML("cp", []string{"10.0.0.6"}, "labels: {node-role.kubernetes.io/control-plane: \"\"}"),
	}
	tests := []struct {
		name string
		cfg  *cluster.Config
		docs []string
		want any
	}{
		{"nodeIP", testConfig(t, nodeIPPools), append([]string{svc}, nodes...), []any{"10.0.0.4", "10.0.0.5"}},
		{"nodeIPConfiguration", testConfig(t), append([]string{svc}, nodes...), []any{"10.0.0.4", "10.0.1.4"}},
		{"nodeIPConfiguration with control plane nodes", testConfig(t, func(c *cluster.Config) { f := false; c.ExcludeMasterFromStandardLB = &f }),
			append([]string{svc}, nodes...), []any{"10.0.0.4", "10.0.0.6", "10.0.1.4"}},
		{"no Node input", testConfig(t, nodeIPPools), []string{svc}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := buildWith(t, tc.cfg, nil, tc.docs...)
			rules := st.OfKind(plan.KindSecurityRule)
			if len(rules) != 1 {
				t.Fatalf("rules %v", names(st, plan.KindSecurityRule))
			}
			got := rules[0].Properties["destinationAddressPrefixes"]
			if tc.want == nil {
				if _, ok := plan.ParseBackendNodeIPs(got); !ok {
					t.Errorf("destinations %v, want the pool marker", got)
				}
				return
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("destinations %v, want %v", got, tc.want)
			}
		})
	}
	// No node qualifies: the rule has no destination and is left out.
	st := buildWith(t, testConfig(t), nil, svc, nodes[2])
	if len(st.OfKind(plan.KindSecurityRule)) != 0 || len(st.OfKind(plan.KindSecurityGroup)) != 0 {
		t.Errorf("rules %v", names(st, plan.KindSecurityRule))
	}
}

// TestLocalServicePool: under multi-SLB an ETP Local Service's pool holds
// the nodes running its endpoints, ready or not; without any EndpointSlice
// of the Service every node (getLocalServiceEndpointsNodeNames is nil).
func TestLocalServicePool(t *testing.T) {
	local := manifest("web", map[string]string{"azure-disable-load-balancer-floating-ip": "true"},
		tcp80+"  externalTrafficPolicy: Local\n  healthCheckNodePort: 32000\n")
	slice := `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-1, namespace: ns, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
endpoints:
- {addresses: [10.244.0.7], nodeName: n2, conditions: {ready: false}}
- {addresses: [10.244.0.8], nodeName: N3}
`
	nodes := []string{nodeYAML("n1", []string{"10.0.0.4"}), nodeYAML("n2", []string{"10.0.0.5"}), nodeYAML("n3", []string{"10.0.0.6"})}
	cfg := testConfig(t, multiSLB("kubernetes"))
	st := buildWith(t, cfg, nil, append([]string{local, slice}, nodes...)...)
	if got := members(t, st, "kubernetes", "ns-web"); !slices.Equal(got, []string{"n2=10.0.0.5", "n3=10.0.0.6"}) {
		t.Errorf("Local pool %v", got)
	}
	rule := st.OfKind(plan.KindSecurityRule)[0]
	if got := fmt.Sprint(rule.Properties["destinationAddressPrefixes"]); got != "[10.0.0.5 10.0.0.6]" {
		t.Errorf("NSG destinations %s, want the Local pool's nodes", got)
	}
	other := strings.Replace(slice, "service-name: web", "service-name: other", 1)
	st = buildWith(t, cfg, nil, append([]string{local, other}, nodes...)...)
	if got := members(t, st, "kubernetes", "ns-web"); len(got) != 3 {
		t.Errorf("Local pool without its slices %v, want every node", got)
	}
	st = buildWith(t, cfg, nil, append([]string{local}, nodes...)...)
	if got := members(t, st, "kubernetes", "ns-web"); got != nil {
		t.Errorf("Local pool without EndpointSlice input %v, want none planned", got)
	}
}

func multiSLB(names ...string) func(*cluster.Config) {
	return func(c *cluster.Config) {
		c.BackendPoolType = cluster.PoolNodeIP
		for _, n := range names {
			c.MultipleStandardLoadBalancerConfigurations = append(c.MultipleStandardLoadBalancerConfigurations,
				cluster.MultiSLBConfig{Name: n, PrimaryVMSet: n + "-vmss"})
		}
	}
}

// TestMultiSLBNodePlacement: nodes go to their primary VM set's load
// balancer, else stay where ARM has them if still eligible, else to the
// eligible configuration with the fewest nodes (nodeSelector first); both
// LBs of a configuration hold its nodes, and a configuration without a
// load balancer takes none.
func TestMultiSLBNodePlacement(t *testing.T) {
	cfg := testConfig(t, multiSLB("kubernetes", "slb-a", "slb-b", "slb-c"))
	cfg.MultipleStandardLoadBalancerConfigurations[1].NodeSelector = &cluster.LabelSelector{
		MatchExpressions: []any{map[string]any{"key": "pool", "operator": "In", "values": []any{"a"}}}}
	svcs := []string{
		manifest("s1", nil, tcp80), manifest("s2", nil, tcp80),
		manifest("s3", map[string]string{"azure-load-balancer-internal": "true"}, tcp80),
	}
	vmss := "providerID: azure:///subscriptions/sub/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/kubernetes-vmss/virtualMachines/0"
	nodes := []string{
		nodeYAML("n0", []string{"10.0.0.4"}, vmss),
		nodeYAML("n1", []string{"10.0.0.5"}, "labels: {pool: a}"),
		nodeYAML("n2", []string{"10.0.0.6"}),
		nodeYAML("n3", []string{"10.0.0.7"}),
		nodeYAML("n4", []string{"10.0.0.8"}),
	}
	st := buildWith(t, cfg, nil, append(svcs, nodes...)...)
	// s1 -> kubernetes, s2 -> slb-a, s3 -> kubernetes-internal; slb-b and
	// slb-c have no load balancer. n2..n4 may go to kubernetes only.
	if got := names(st, plan.KindLoadBalancer); fmt.Sprint(got) != "[kubernetes kubernetes-internal slb-a]" {
		t.Fatalf("load balancers %v", got)
	}
	want := map[string][]string{
		"kubernetes":          {"n0=10.0.0.4", "n2=10.0.0.6", "n3=10.0.0.7", "n4=10.0.0.8"},
		"kubernetes-internal": {"n0=10.0.0.4", "n2=10.0.0.6", "n3=10.0.0.7", "n4=10.0.0.8"},
		"slb-a":               {"n1=10.0.0.5"},
	}
	for lb, w := range want {
		if got := members(t, st, lb, "kubernetes"); !slices.Equal(got, w) {
			t.Errorf("%s: %v, want %v", lb, got, w)
		}
	}
	// slb-b exists in ARM and holds n3: n3 stays there; n2 goes to
	// kubernetes (a tie goes to the first configuration), n4 to slb-b.
	seen := &SeenLBs{Names: map[string]bool{"slb-b": true}, Nodes: map[string]map[string]bool{"slb-b": {"n3": true}, "slb-a": {"gone": true}}}
	st = buildWith(t, cfg, seen, append(svcs, nodes...)...)
	want = map[string][]string{
		"kubernetes": {"n0=10.0.0.4", "n2=10.0.0.6"},
		"slb-a":      {"n1=10.0.0.5"},
	}
	for lb, w := range want {
		if got := members(t, st, lb, "kubernetes"); !slices.Equal(got, w) {
			t.Errorf("with ARM's placement, %s: %v, want %v", lb, got, w)
		}
	}
	in := service.Decode("in.yaml", []byte(strings.Join(append(svcs, nodes...), "---\n")))
	if !SamePlacement(st, cfg, &in.Topology, seen) {
		t.Error("a state built with what ARM holds is not the same placement")
	}
	if SamePlacement(buildWith(t, cfg, nil, append(svcs, nodes...)...), cfg, &in.Topology, seen) {
		t.Error("a state built without what ARM holds is the same placement")
	}
}

func TestVMSSOfProviderID(t *testing.T) {
	tests := map[string]string{
		"azure:///subscriptions/s/resourceGroups/mc_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-np1-vmss/virtualMachines/3": "aks-np1-vmss",
		"azure:///subscriptions/s/resourceGroups/rg/providers/microsoft.compute/virtualmachinescalesets/pool/virtualmachines/0":            "pool",
		"azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-0":                                      "",
		"kind://docker/kind/kind-worker": "",
		"":                               "",
	}
	for id, want := range tests {
		if got := vmssOfProviderID(id); got != want {
			t.Errorf("%q: %q, want %q", id, got, want)
		}
	}
}
