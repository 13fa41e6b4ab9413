package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/planfile"
)

// TestPruneOverPartOfCluster: --prune with a cluster read of one namespace
// (-n, or the context's) or of a selector is a usage error before the
// cluster is contacted; -A without -l is not refused.
func TestPruneOverPartOfCluster(t *testing.T) {
	unreachable := writeKubeconfig(t, "https://127.0.0.1:1", filepath.Join(t.TempDir(), "ca.crt"), "t")
	tests := []struct {
		name    string
		env     string // AZSVC_PRUNE
		args    []string
		refused bool
	}{
		{name: "plan -n", args: []string{"plan", "--from-cluster", "-n", "retail", "--prune"}, refused: true},
		{name: "apply, the context's namespace", args: []string{"apply", "--from-cluster", "--prune", "--auto-approve"}, refused: true},
		{name: "apply -A -l", args: []string{"apply", "--from-cluster", "-A", "-l", "app=web", "--prune", "--auto-approve"}, refused: true},
		{name: "prune from the environment", env: "true", args: []string{"plan", "--from-cluster", "-n", "retail"}, refused: true},
		{name: "apply -A", args: []string{"apply", "--from-cluster", "-A", "--prune", "--auto-approve"}},
		{name: "plan -n without --prune", args: []string{"plan", "--from-cluster", "-n", "retail"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			t.Setenv("AZSVC_PRUNE", tt.env)
			args := append([]string{"--settings", "../../examples/azsvc.yaml", "--config", "../../examples/azure.json"}, tt.args...)
			res := c.run(append(args, "--kubeconfig", unreachable)...)
			said := strings.Contains(res.stderr, "azsvc cannot tell a Service outside that from a deleted one")
			if tt.refused && (res.code != exitUsage || !said || !strings.Contains(res.stderr, "-A (--all-namespaces) and no -l")) {
				t.Errorf("exit %d, want 64 explaining why:\n%s", res.code, res.stderr)
			}
			if !tt.refused && (res.code == exitUsage || said) {
				t.Errorf("refused: exit %d\n%s", res.code, res.stderr)
			}
		})
	}
}

// TestSavedPlanPruneOverPartOfCluster: a saved plan made with --prune over
// one namespace (by an azsvc that allowed it) is refused by apply FILE.
func TestSavedPlanPruneOverPartOfCluster(t *testing.T) {
	c := newCLI(t)
	saved := filepath.Join(c.dir, "plan.json")
	data := savedExamplePlan(t, c, saved)
	for _, tt := range []struct {
		name    string
		cluster planfile.ClusterSource
		want    string
	}{
		{"one namespace", planfile.ClusterSource{Namespace: "retail"}, `reads only namespace "retail"`},
		{"a selector", planfile.ClusterSource{Namespace: "default", AllNamespaces: true, Selector: "app=web"}, `reads only the Services matching -l "app=web"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s planfile.Plan
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			cl := tt.cluster
			cl.Where, cl.Objects = "cluster context \"prod\"", `{"services":[],"nodes":[],"endpointSlices":[]}`
			s.Sources.Prune, s.Sources.Cluster = true, &cl
			out, err := planfile.Marshal(&s)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(c.dir, "partial.json")
			writeFile(t, file, string(out))
			res := c.run("--settings", "../../examples/azsvc.yaml", "apply", file, "--state", filepath.Join(c.dir, "state.json"), "--auto-approve")
			if res.code != exitUsage || !strings.Contains(res.stderr, "was made with --prune over part of the cluster") || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, want 64 naming what was read:\n%s", res.code, res.stderr)
			}
		})
	}
}
