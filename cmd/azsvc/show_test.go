package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestShowRendersTheSavedPlanOffline: show renders a saved plan exactly as
// plan --out printed it, in every format, with no target, configuration
// or settings file; drift found with --since is shown too.
func TestShowRendersTheSavedPlanOffline(t *testing.T) {
	c := newCLI(t)
	seedStateFile(t, filepath.Join(c.dir, "state.json"), "../../examples/emulator-seed.json") // the PLS's subnets
	saved := filepath.Join(c.dir, "plan.json")
	for _, format := range []string{"text", "json", "markdown"} {
		planned := c.run(exampleArgs(c, "pls", "plan", "--out", saved, "-o", format)...)
		if planned.code != exitOK {
			t.Fatalf("plan --out -o %s: exit %d\n%s", format, planned.code, planned.stderr)
		}
		shown := c.run("show", saved, "-o", format)
		if shown.code != exitOK || shown.stdout != planned.stdout {
			t.Errorf("show -o %s: exit %d, output differs from plan's:\n%s\n---\n%s\n%s", format, shown.code, shown.stdout, planned.stdout, shown.stderr)
		}
	}

	// Drift found with --since is part of the saved plan.
	state := filepath.Join(c.dir, "state.json")
	if res := c.run("apply", saved, "--state", state, "--target", "emulator", "--auto-approve"); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	editInAzure(t, state, exampleLB, func(lb map[string]any) {
		rule := lb["properties"].(map[string]any)["loadBalancingRules"].([]any)[0].(map[string]any)
		rule["properties"].(map[string]any)["idleTimeoutInMinutes"] = 30
	})
	again := filepath.Join(c.dir, "again.json")
	planned := c.run(exampleArgs(c, "pls", "plan", "--since", saved, "--out", again)...)
	shown := c.run("show", again)
	if shown.code != exitOK || shown.stdout != planned.stdout || !strings.Contains(shown.stdout, "idleTimeoutInMinutes: 4 -> 30") {
		t.Errorf("show of a plan with drift: exit %d\n%s\n---\n%s", shown.code, shown.stdout, planned.stdout)
	}

	if res := c.run("show"); res.code != exitUsage {
		t.Errorf("show without a file: exit %d, want %d", res.code, exitUsage)
	}
	if res := c.run("show", filepath.Join(c.dir, "nope.json")); res.code != exitRuntime {
		t.Errorf("show of a missing file: exit %d, want %d", res.code, exitRuntime)
	}
}
