package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

// liveCluster are examples/live-cluster's inputs, relative to the
// repository root so plans name them as a user there sees them.
var liveCluster = struct{ services, nodes, slices, config string }{
	services: "examples/live-cluster/services.yaml",
	nodes:    "examples/live-cluster/nodes.yaml",
	slices:   "examples/live-cluster/endpointslices.yaml",
	config:   "examples/live-cluster/azure.json",
}

// The example's two changes are made to copies of its files (kept out of
// examples/ itself, where validating the directory would read the same
// Nodes twice): the cluster autoscaler removes a node (dropDocument), and a
// rollout moves payments' endpoint to another node.
var rollout = [2]string{"addresses: [10.244.1.9]\n    conditions: {ready: true}\n    nodeName: aks-nodepool1-12345678-vmss000001",
	"addresses: [10.244.0.31]\n    conditions: {ready: true}\n    nodeName: aks-nodepool1-12345678-vmss000000"}

// editedCopy copies the example's files into a temporary directory of the
// same layout, file's content changed by edit, and moves there.
func editedCopy(t *testing.T, file string, edit func(string) string) {
	t.Helper()
	tmp := t.TempDir()
	for _, f := range []string{liveCluster.services, liveCluster.nodes, liveCluster.slices, liveCluster.config} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if f == file {
			edited := edit(string(data))
			if edited == string(data) {
				t.Fatalf("%s: the edit changed nothing", f)
			}
			data = []byte(edited)
		}
		if err := os.MkdirAll(filepath.Join(tmp, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(tmp)
}

// dropDocument removes the YAML document that holds marker.
func dropDocument(marker string) func(string) string {
	return func(s string) string {
		docs := strings.Split(s, "---\n")
		kept := docs[:0]
		for _, d := range docs {
			if !strings.Contains(d, marker) {
				kept = append(kept, d)
			}
		}
		return strings.Join(kept, "---\n")
	}
}

// liveClusterInputs loads the example's manifests from the repository root.
func liveClusterInputs(t *testing.T, files ...string) (*Inputs, []string) {
	t.Helper()
	in, err := LoadInputs(Settings{Files: files, AzureConfig: liveCluster.config, ClusterName: exampleCluster})
	if err != nil {
		t.Fatal(err)
	}
	if in.HasErrors() {
		t.Fatalf("diagnostics %+v", in.Diagnostics)
	}
	return in, files
}

// liveClusterTarget opens the example's emulator, then moves to the
// repository root, where the inputs are loaded from.
// seedCCMState puts into tg what CCM built for the example cluster
// (examples/live-cluster/ccm-state.json), read from the repository root
// liveClusterTarget moves to.
func seedCCMState(t *testing.T, tg *Target) {
	t.Helper()
	state, err := os.ReadFile("examples/live-cluster/ccm-state.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Emulator.Seed(state); err != nil {
		t.Fatal(err)
	}
}

func liveClusterTarget(t *testing.T) *Target {
	t.Helper()
	root, err := filepath.Abs(filepath.Join(examples, ".."))
	if err != nil {
		t.Fatal(err)
	}
	in, err := LoadInputs(Settings{Files: []string{filepath.Join(root, liveCluster.services)},
		AzureConfig: filepath.Join(root, liveCluster.config), ClusterName: exampleCluster})
	if err != nil {
		t.Fatal(err)
	}
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	t.Chdir(root)
	return tg
}

// TestLiveClusterGoldenPlans plans examples/live-cluster (multi-SLB with
// nodeIP pools) from an empty emulator, applies it, then plans a scale-in
// (a node leaves every pool it was in: one write per load balancer and one
// for the NSG) and a rollout (a Local Service's endpoints move: its pool
// and NSG rule follow), each converging after apply. Regenerate with
// go test ./cmd/azsvc/internal/engine -run LiveClusterGolden -update.
func TestLiveClusterGoldenPlans(t *testing.T) {
	tg := liveClusterTarget(t)
	in, files := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, liveCluster.slices)
	p := mustPlan(t, in, tg)
	view := View(p, in, tg, files)
	dir := "examples/live-cluster"
	renderGolden(t, filepath.Join(dir, "plan.golden.txt"), func(w *bytes.Buffer) error { return planview.Text(w, view, style.New(false)) })
	renderGolden(t, filepath.Join(dir, "plan.golden.json"), func(w *bytes.Buffer) error { return planview.JSON(w, view) })
	renderGolden(t, filepath.Join(dir, "plan.golden.md"), func(w *bytes.Buffer) error {
		return planview.Markdown(w, view, planview.MarkdownOptions{})
	})
	mustApply(t, p, tg)
	requireEmptyPlan(t, in, tg, "applied example")

	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	changes := []struct {
		name, golden, file string
		edit               func(string) string
		wantLBs            int // LB writes
		// poolReason: with Node manifests, azsvc cannot tell a node that
		// left from one left out of the input (nodes_not_in_input).
		poolReason plan.Reason
	}{
		{"scale-in", "plan-scale-in.golden.txt", liveCluster.nodes, dropDocument("name: aks-nodepool1-12345678-vmss000001\n"), 2, plan.ReasonNodesNotInInput},
		{"rollout", "plan-rollout.golden.txt", liveCluster.slices, func(s string) string { return strings.Replace(s, rollout[0], rollout[1], 1) }, 1, plan.ReasonNodesChanged},
	}
	for _, c := range changes {
		editedCopy(t, c.file, c.edit)
		changed, files := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, liveCluster.slices)
		t.Chdir(root)
		p := mustPlan(t, changed, tg)
		renderGolden(t, filepath.Join(dir, c.golden), func(w *bytes.Buffer) error {
			return planview.Text(w, View(p, changed, tg, files), style.New(false))
		})
		writes := stepTargets(p)
		if writes[plan.KindLoadBalancer] != c.wantLBs || writes[plan.KindSecurityGroup] != 1 || len(p.Steps) != c.wantLBs+1 {
			t.Errorf("%s: writes %v, want %d LB PUTs and one NSG PUT:\n%s", c.name, writes, c.wantLBs, planLines(p))
		}
		for _, ch := range p.Changes {
			want := plan.ReasonNodesChanged
			if ch.ID().Kind == plan.KindBackendPool {
				want = c.poolReason
			}
			if ch.Reason != want || ch.Disruptive != (want == plan.ReasonNodesNotInInput) {
				t.Errorf("%s: %s for %s (disruptive %v), want %s", c.name, ch.ID().Address(), ch.Reason, ch.Disruptive, want)
			}
		}
		mustApply(t, p, tg)
		requireEmptyPlan(t, changed, tg, c.name+" applied")
		// Back to the cluster as it was, for the next change.
		mustApply(t, mustPlan(t, in, tg), tg)
		requireEmptyPlan(t, in, tg, c.name+" undone")
	}
}

// TestLiveClusterAdoptsCCMState: what CCM built for the example cluster
// (examples/live-cluster/ccm-state.json: load balancers with the nodes in
// their pools as CCM appends them, public IPs, NSG rules), planned with the
// same UIDs, Nodes and EndpointSlices, is an empty plan (issue 13 item 5).
func TestLiveClusterAdoptsCCMState(t *testing.T) {
	tg := liveClusterTarget(t)
	in, files := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, liveCluster.slices)
	seedCCMState(t, tg)
	p := mustPlan(t, in, tg)
	requireEmpty(t, "plan over CCM's state", p)
	renderGolden(t, "examples/live-cluster/plan-adopt.golden.txt", func(w *bytes.Buffer) error {
		return planview.Text(w, View(p, in, tg, files), style.New(false))
	})
	// CCM appended the nodes in its own order: azsvc keeps it.
	observed := mustRead(t, tg)
	pool, ok := observed.Get(plan.ChildID(plan.NewID(in.Config.SubscriptionForIDs(), in.Config.ResourceGroup, plan.KindLoadBalancer,
		"aks-prod-weu-internal"), plan.KindBackendPool, "aks-prod-weu").Key())
	if ips := plan.AsBackendPool(pool).Addresses(); !ok || len(ips) != 2 || ips[0] != "10.224.0.5" {
		t.Errorf("CCM's member order changed: %v", ips)
	}
}
