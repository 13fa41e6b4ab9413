package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// genNode is one generated Node, rendered to YAML beside the Services.
type genNode struct {
	name, ip     string
	pool         string // nodepool: "a" or "b" (a multi-SLB nodeSelector matches pool b)
	excluded     bool   // exclude-from-external-load-balancers
	controlPlane bool
	deleting     bool // ToBeDeletedByClusterAutoscaler
}

func (n *genNode) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata:\n  name: %s\n  labels:\n    pool: %s\n", n.name, n.pool)
	if n.excluded {
		b.WriteString("    node.kubernetes.io/exclude-from-external-load-balancers: \"true\"\n")
	}
	if n.controlPlane {
		b.WriteString("    node-role.kubernetes.io/control-plane: \"\"\n")
	}
	if n.deleting {
		b.WriteString("spec:\n  taints: [{key: ToBeDeletedByClusterAutoscaler, effect: NoSchedule}]\n")
	}
	fmt.Fprintf(&b, "status:\n  addresses: [{type: InternalIP, address: %s}]\n", n.ip)
	return b.String()
}

// nodeWorld is a generated cluster: Services and Nodes.
type nodeWorld struct {
	g     *generator
	svcs  []*genService
	nodes []*genNode
	next  int // node counter, so names and addresses are never reused
	// fixed keeps the Service set: under multi-SLB, azsvc places Services
	// on load balancers without looking at where ARM has them (CCM keeps a
	// Service on its current LB), so adding one can move others, which
	// this test is not about.
	fixed bool
}

func (w *nodeWorld) addNode() string {
	w.next++
	n := &genNode{name: fmt.Sprintf("aks-np-%d", w.next), ip: fmt.Sprintf("10.224.3.%d", 3+w.next), pool: []string{"a", "b"}[w.g.rng.IntN(2)]}
	n.controlPlane = w.g.chance(0.1)
	w.nodes = append(w.nodes, n)
	return "add node " + n.name
}

// service is a generated Service without Private Link (IP-based pools
// and PLSs are not documented to work together), some with floating IP off.
func (w *nodeWorld) service() *genService {
	s := w.g.service()
	s.pls, s.ep = false, nil
	s.noFloat = w.g.chance(0.4)
	return s
}

// step changes the world at random and says how.
func (w *nodeWorld) step() string {
	g := w.g
	switch k := g.rng.IntN(6); {
	case k == 0 || len(w.nodes) < 2:
		return w.addNode()
	case k == 1:
		i := g.rng.IntN(len(w.nodes))
		name := w.nodes[i].name
		w.nodes = append(w.nodes[:i:i], w.nodes[i+1:]...)
		return "remove node " + name
	case k == 2:
		n := w.nodes[g.rng.IntN(len(w.nodes))]
		n.excluded = !n.excluded
		return fmt.Sprintf("%s: excluded %v", n.name, n.excluded)
	case k == 3:
		n := w.nodes[g.rng.IntN(len(w.nodes))]
		n.deleting = !n.deleting
		return fmt.Sprintf("%s: to be deleted %v", n.name, n.deleting)
	case (k == 4 || w.fixed) && len(w.svcs) > 0:
		s := w.svcs[g.rng.IntN(len(w.svcs))]
		s.noFloat = !s.noFloat
		return fmt.Sprintf("%s/%s: floating IP off %v", s.ns, s.name, s.noFloat)
	}
	s := w.service()
	w.svcs = append(w.svcs, s)
	return "add Service " + s.ns + "/" + s.name
}

func (w *nodeWorld) manifests() []byte {
	docs := []string{string(manifests(w.svcs))}
	for _, n := range w.nodes {
		docs = append(docs, n.yaml())
	}
	return []byte(strings.Join(docs, "---\n"))
}

// nodeIPConfig is the example cluster with IP-based pools; multi adds a
// second standard load balancer for nodes labelled pool=b.
func nodeIPConfig(t testing.TB, multi bool) *cluster.Config {
	cfg := exampleConfig(t)
	cfg.BackendPoolType = cluster.PoolNodeIP
	if multi {
		cfg.MultipleStandardLoadBalancerConfigurations = []cluster.MultiSLBConfig{
			{Name: exampleCluster, PrimaryVMSet: "aks-nodepool1-vmss"},
			{Name: "slb-b", PrimaryVMSet: "aks-poolb-vmss", NodeSelector: &cluster.LabelSelector{MatchLabels: map[string]string{"pool": "b"}}},
		}
	}
	return cfg
}

// TestPropertyConvergeNodes drives random Services and Nodes (joining,
// leaving, excluded, tainted for deletion, control plane) through plan and
// apply with IP-based pools, single and multi-SLB: every apply succeeds,
// the second plan is empty, and no pool holds an address of a node that
// is not in the node set. -seeds N runs more seeds, -seed S one.
func TestPropertyConvergeNodes(t *testing.T) {
	members := 0
	for i := range *propSeeds {
		seed := uint64(i + 1)
		if *propSeed >= 0 {
			if i > 0 {
				break
			}
			seed = uint64(*propSeed)
		}
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { members += runNodeProperty(t, seed) })
	}
	if members == 0 {
		t.Fatal("no pool ever held a member: the test exercises nothing")
	}
}

// runNodeProperty runs one seed and returns how many pool members it saw.
func runNodeProperty(t *testing.T, seed uint64) int {
	cfg := nodeIPConfig(t, seed%2 == 0)
	w := &nodeWorld{g: newGenerator(seed), fixed: cfg.MultiSLB()}
	for range 3 + w.g.rng.IntN(4) {
		w.svcs = append(w.svcs, w.service())
	}
	for range 2 + w.g.rng.IntN(4) {
		w.addNode()
	}
	tg := newMemTarget(t, mustInputs(t, cfg, w.manifests(), true), emulator.Options{InstantOperations: true})
	what := fmt.Sprintf("seed %d (rerun: go test ./cmd/azsvc/internal/engine/ -run TestPropertyConvergeNodes -args -seed %d), initial", seed, seed)
	members := 0
	for i := 0; i < 6; i++ {
		data := w.manifests()
		in := mustInputs(t, cfg, data, true)
		retarget(tg, in)
		p := mustPlan(t, in, tg)
		if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
			t.Fatalf("%s: apply: %v\nplan:\n%s\nmanifests:\n%s", what, err, planLines(p), data)
		}
		requireEmptyPlan(t, in, tg, what)
		members += requireEligibleMembers(t, mustRead(t, tg), w, what)
		what = fmt.Sprintf("seed %d, step %d: %s", seed, i+1, w.step())
	}
	return members
}

// requireEligibleMembers fails when a pool holds an address that is no
// node's of the node set, or a control-plane node's; it returns how many
// members the pools hold.
func requireEligibleMembers(t *testing.T, observed *plan.State, w *nodeWorld, what string) int {
	t.Helper()
	eligible := map[string]bool{}
	for _, n := range w.nodes {
		if !n.excluded && !n.deleting && !n.controlPlane {
			eligible[n.ip] = true
		}
	}
	total := 0
	for _, pool := range observed.OfKind(plan.KindBackendPool) {
		ips := plan.AsBackendPool(pool).Addresses()
		total += len(ips)
		for _, ip := range ips {
			if !eligible[ip] && len(eligible) > 0 {
				t.Fatalf("%s: %s holds %s, which no eligible node has (eligible %v)", what, pool.ID.Address(), ip, eligible)
			}
		}
	}
	return total
}
