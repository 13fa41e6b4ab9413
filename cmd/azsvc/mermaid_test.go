package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// plan -o mermaid draws where the plan writes: a subgraph per
// subscription, the cluster's marked, and the endpoint → zone → record
// edges; show draws the saved plan the same (issue 22 item 2).
func TestPlanMermaid(t *testing.T) {
	c := newCLI(t)
	seedState(t, c, "hypershift-private-link")
	saved := filepath.Join(c.dir, "plan.json")
	res := c.run(exampleArgs(c, "hypershift-private-link", "plan", "-o", "mermaid", "--out", saved)...)
	for _, want := range []string{"flowchart LR\n", `["subscription 00000000-0000-0000-0000-000000000000 (the cluster's)"]`,
		`["subscription 5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f"]`, `["resource group rg-guest-foo"]`, `["+ pe/private-router-pe"]`} {
		if res.code != exitOK || !strings.Contains(res.stdout, want) {
			t.Errorf("plan -o mermaid: exit %d, lacks %q:\n%s\n%s", res.code, want, res.stdout, res.stderr)
		}
	}
	if shown := c.run("show", saved, "-o", "mermaid"); shown.code != exitOK || shown.stdout != res.stdout {
		t.Errorf("show -o mermaid: exit %d, differs from plan's:\n%s", shown.code, shown.stdout)
	}
}
