package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// scaleLBs is how many standard LBs the scale configuration spreads
// Services over: 10,000 Services need at least 17 (600 frontends per LB,
// arm-rules §2.4), public and internal Services each getting their own.
const scaleLBs = 20

// scaleConfig is the example cluster with multiple standard load balancers
// (ccm-semantics §7.6): nodeIP pools and scaleLBs configurations, the first
// named after the cluster.
func scaleConfig(t testing.TB) *cluster.Config {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal(exampleAzureJSON(t), &raw); err != nil {
		t.Fatal(err)
	}
	raw["loadBalancerBackendPoolConfigurationType"] = "nodeIP"
	configs := []any{map[string]any{"name": exampleCluster, "primaryVMSet": "aks-nodepool1-vmss"}}
	for i := 1; i < scaleLBs; i++ {
		configs = append(configs, map[string]any{"name": fmt.Sprintf("slb-%02d", i), "primaryVMSet": fmt.Sprintf("aks-pool%02d-vmss", i)})
	}
	raw["multipleStandardLoadBalancerConfigurations"] = configs
	data, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	cfg := configFrom(t, data, exampleCluster)
	if !cfg.MultiSLB() {
		t.Fatal("scale configuration is not multi-SLB")
	}
	return cfg
}

// scaleManifests renders n Services: one in four public, one port each
// (ports vary, so NSG rules are shared by up to n/50 Services), and only
// three in ten with NSG rules: a cluster NSG holds at most 4,000
// destination prefixes (arm-rules §2.4), the rest set
// azure-disable-load-balancer-nsg-rule as such clusters must.
func scaleManifests(n int) []byte {
	docs := make([]string, n)
	for i := range docs {
		docs[i] = scaleService(i, i%4 != 0, i%10 < 3)
	}
	return []byte(strings.Join(docs, "---\n"))
}

// scaleService is Service i. Node ports repeat past the Kubernetes range's
// 2,768 ports; nothing in a plan depends on them being unique.
func scaleService(i int, internal, nsgRule bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%05d\n  namespace: ns-%d\n  uid: %08x-0000-4000-8000-%012x\n  annotations:\n",
		i, i%40, i, i)
	b.WriteString("    example.com/generated: \"true\"\n")
	if internal {
		b.WriteString("    service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"\n")
	}
	if !nsgRule {
		b.WriteString("    service.beta.kubernetes.io/azure-disable-load-balancer-nsg-rule: \"true\"\n")
	}
	fmt.Fprintf(&b, "spec:\n  type: LoadBalancer\n  selector:\n    app: svc-%05d\n  ports:\n    - name: web\n      protocol: TCP\n      port: %d\n      targetPort: 8080\n      nodePort: %d\n",
		i, 8000+i%50, 30000+i%2767)
	return b.String()
}

// appliedTarget applies in to a fresh in-memory emulator and returns it
// converged, with the counters reset.
func appliedTarget(t testing.TB, in *Inputs, opts emulator.Options) *Target {
	t.Helper()
	tg := newMemTarget(t, in, opts)
	p := mustPlan(t, in, tg)
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	tg.Emulator.Counters().Reset()
	return tg
}

// stepTargets counts a plan's steps by the kind of resource they write.
func stepTargets(p *plan.Plan) map[plan.Kind]int {
	out := map[plan.Kind]int{}
	for _, st := range p.Steps {
		out[st.Target.Kind]++
	}
	return out
}
