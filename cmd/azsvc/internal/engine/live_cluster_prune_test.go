package engine

import (
	"os"
	"slices"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// TestLiveClusterPruneConverges: pruning the only Service on aks-prod-weu-2
// deletes that load balancer, and multi-SLB placement leaves it out in the
// same plan (CCM places no node on a load balancer it deleted), so its node
// moves to the remaining configuration's pools at once and one apply
// converges.
func TestLiveClusterPruneConverges(t *testing.T) {
	tg := liveClusterTarget(t)
	in, _ := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, liveCluster.slices)
	mustApply(t, mustPlan(t, in, tg), tg)
	requireEmptyPlan(t, in, tg, "applied example")

	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	editedCopy(t, liveCluster.services, dropDocument("name: storefront\n"))
	pruned, _ := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, liveCluster.slices)
	t.Chdir(root)
	pruned.Scope.Prune = true
	p := mustPlan(t, pruned, tg)
	var deleted, joined bool
	for _, c := range p.Changes {
		if c.IsDelete() && c.ID().Address() == "lb/aks-prod-weu-2" {
			deleted = true
		}
		if c.ID().Address() == "lb/aks-prod-weu-internal/pool/aks-prod-weu" && c.After != nil &&
			slices.Contains(plan.AsBackendPool(c.After).Addresses(), "10.224.1.4") {
			joined = true
		}
	}
	if !deleted || !joined {
		t.Fatalf("want lb/aks-prod-weu-2 deleted (%v) and 10.224.1.4 in lb/aks-prod-weu-internal/pool/aks-prod-weu (%v):\n%s", deleted, joined, planLines(p))
	}
	mustApply(t, p, tg)
	requireEmptyPlan(t, pruned, tg, "pruned and applied")
}
