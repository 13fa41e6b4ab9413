package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// TestLiveClusterPartialNodes: the example's Services with only its first
// Node manifest, against what CCM built. The EndpointSlices name nodes the
// input lacks (a warning); each pool losing members whose Node is not in
// the input is disruptive (nodes_not_in_input), and the NSG rule left
// without node addresses goes for nodes_changed, not because no Service
// needs it. Read from a cluster, which lists every Node, the same nodes
// have left: the reason is nodes_changed, and only the pools left empty
// under a load-balancing rule stay disruptive.
func TestLiveClusterPartialNodes(t *testing.T) {
	tg := liveClusterTarget(t)
	seedCCMState(t, tg)
	editedCopy(t, liveCluster.nodes, func(s string) string { return s[:strings.Index(s, "---\n")] })
	in, err := LoadInputs(Settings{Files: []string{liveCluster.services, liveCluster.nodes, liveCluster.slices},
		AzureConfig: liveCluster.config, ClusterName: exampleCluster})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(in.Diagnostics, func(d service.Diagnostic) bool { return d.Code == service.CodeUnknownNodeName }) {
		t.Errorf("no %s warning: %+v", service.CodeUnknownNodeName, in.Diagnostics)
	}
	const (
		storefront = "lb/aks-prod-weu-2/pool/aks-prod-weu"
		payments   = "lb/aks-prod-weu/pool/retail-payments"
		ordersDB   = "lb/aks-prod-weu-internal/pool/aks-prod-weu"
	)
	type want struct {
		reason     plan.Reason
		disruptive bool
	}
	check := func(what string, p *plan.Plan, wants map[string]want) {
		t.Helper()
		seen := 0
		for _, c := range p.Changes {
			addr := c.ID().Address()
			if c.ID().Kind == plan.KindSecurityRule {
				if !c.IsDelete() || c.Reason != plan.ReasonNodesChanged {
					t.Errorf("%s: %s %v for %s, want a delete for nodes_changed", what, addr, c.Actions, c.Reason)
				}
				continue
			}
			w, ok := wants[addr]
			if !ok {
				t.Errorf("%s: unexpected change of %s", what, addr)
				continue
			}
			seen++
			if c.Reason != w.reason || c.Disruptive != w.disruptive {
				t.Errorf("%s: %s for %s, disruptive %v; want %s, %v", what, addr, c.Reason, c.Disruptive, w.reason, w.disruptive)
			}
		}
		if seen != len(wants) {
			t.Errorf("%s: %d pool changes, want %d:\n%s", what, seen, len(wants), planLines(p))
		}
	}
	missing := plan.ReasonNodesNotInInput
	check("manifests", mustPlan(t, in, tg), map[string]want{storefront: {missing, true}, payments: {missing, true}, ordersDB: {missing, true}})
	in.Service.Topology.NodesFromCluster = true
	left := plan.ReasonNodesChanged
	check("cluster", mustPlan(t, in, tg), map[string]want{storefront: {left, true}, payments: {left, true}, ordersDB: {left, false}})
}
