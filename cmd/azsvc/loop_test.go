package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loopArgs are the settings of the README's main job: the example cluster
// on a fresh emulator state in the test's directory.
func loopArgs(c *cli, cmd string, extra ...string) []string {
	return exampleArgs(c, "public-basic", cmd, extra...)
}

func exampleArgs(c *cli, example, cmd string, extra ...string) []string {
	args := []string{"--settings", "../../examples/azsvc.yaml", cmd,
		"-f", "../../examples/" + example, "--state", filepath.Join(c.dir, "state.json")}
	return append(args, extra...)
}

// TestPlanApplyLoop is the README's main job end to end through the CLI:
// plan shows changes (exit 2 with --detailed-exitcode), apply makes them,
// and the next plan is empty (exit 0).
func TestPlanApplyLoop(t *testing.T) {
	c := newCLI(t)
	res := c.run(loopArgs(c, "plan", "--detailed-exitcode")...)
	if res.code != exitChanges || !strings.Contains(res.stdout, "Plan: 7 to create") {
		t.Fatalf("first plan: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "local emulator (state ") {
		t.Errorf("plan header does not name the target:\n%s", res.stdout)
	}
	if res = c.run(loopArgs(c, "apply")...); res.code != exitUsage || !strings.Contains(res.stderr, "no TTY") {
		t.Fatalf("apply without a TTY or --auto-approve: exit %d, stderr %s", res.code, res.stderr)
	}
	if res = c.run(loopArgs(c, "apply", "--auto-approve")...); res.code != exitOK || !strings.Contains(res.stderr, "Apply complete!") {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	res = c.run(loopArgs(c, "plan", "--detailed-exitcode")...)
	if res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
		t.Fatalf("second plan: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

// TestApplyJSONEvents checks that -o json keeps stdout to JSON Lines.
func TestApplyJSONEvents(t *testing.T) {
	c := newCLI(t)
	res := c.run(loopArgs(c, "apply", "--auto-approve", "-o", "json")...)
	if res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	types := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var ev struct{ Type string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		types[ev.Type]++
	}
	if types["apply_start"] != 3 || types["apply_complete"] != 3 || types["summary"] != 1 {
		t.Errorf("events = %v, want 3 starts, 3 completions and a summary", types)
	}
	// Converged: nothing to do, but scripts still get their summary.
	res = c.run(loopArgs(c, "apply", "--auto-approve", "-o", "json")...)
	if res.code != exitOK || !strings.Contains(res.stdout, `"summary"`) || strings.Count(strings.TrimSpace(res.stdout), "\n") != 0 {
		t.Errorf("converged apply -o json: exit %d, stdout %q", res.code, res.stdout)
	}
}

// TestSavedPlan applies a saved plan, and refuses (exit 5) one whose
// resources changed after it was made. The pls example also updates an
// existing subnet, so its If-Match must survive a new azsvc process.
func TestSavedPlan(t *testing.T) {
	for _, example := range []string{"public-basic", "pls"} {
		t.Run(example, func(t *testing.T) { testSavedPlan(t, example) })
	}
}

func testSavedPlan(t *testing.T, example string) {
	c := newCLI(t)
	seedStateFile(t, filepath.Join(c.dir, "state.json"), "../../examples/emulator-seed.json") // pls: its subnets
	saved := filepath.Join(c.dir, "plan.json")
	if res := c.run(exampleArgs(c, example, "plan", "--out", saved)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	stale := filepath.Join(c.dir, "stale.json")
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, stale, string(data))

	applySaved := func(file string) result {
		return c.run("--settings", "../../examples/azsvc.yaml", "apply", file,
			"--state", filepath.Join(c.dir, "state.json"), "--auto-approve")
	}
	if res := applySaved(saved); res.code != exitOK {
		t.Fatalf("apply saved plan: exit %d\n%s", res.code, res.stderr)
	}
	// The same plan again: what it would create now exists.
	res := applySaved(stale)
	if res.code != exitStale || !strings.Contains(res.stderr, "changed since") && !strings.Contains(res.stderr, "since the plan") {
		t.Fatalf("stale plan: exit %d, want %d\n%s", res.code, exitStale, res.stderr)
	}
}

// TestRenderFormats runs render in every format on one example.
func TestRenderFormats(t *testing.T) {
	for _, format := range []string{"text", "json", "yaml", "mermaid"} {
		c := newCLI(t)
		res := c.run("--settings", "../../examples/azsvc.yaml", "render", "-f", "../../examples/public-basic", "-o", format)
		if res.code != exitOK || !strings.Contains(res.stdout, "aks-prod-weu") {
			t.Errorf("render -o %s: exit %d\n%s\n%s", format, res.code, res.stdout, res.stderr)
		}
	}
}
