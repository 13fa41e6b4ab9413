package engine

import (
	"context"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/scalegen"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// scaleLBs is how many standard LBs the scale configuration spreads
// Services over (scalegen.LBs).
const scaleLBs = scalegen.LBs

// scaleConfig is the example cluster with multiple standard load balancers,
// as `azsvc bench-fixture` writes it (scalegen.AzureJSON).
func scaleConfig(t testing.TB) *cluster.Config {
	t.Helper()
	data, err := scalegen.AzureJSON(exampleAzureJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg := configFrom(t, data, scalegen.ClusterName)
	if !cfg.MultiSLB() {
		t.Fatal("scale configuration is not multi-SLB")
	}
	return cfg
}

// scaleManifests renders n Services as scalegen.Manifests does.
func scaleManifests(n int) []byte { return scalegen.Manifests(n, 0) }

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
