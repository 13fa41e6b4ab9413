package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/planfile"
)

// A saved plan records the local emulator state by its absolute path, so
// applying it from another directory opens the state it was planned
// against; when that file is gone, apply says so instead of reporting a
// stale plan against a new, empty state.
func TestSavedPlanStateFromAnotherDirectory(t *testing.T) {
	settings, err := filepath.Abs("../../examples/azsvc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	example, err := filepath.Abs("../../examples/public-basic")
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	project, elsewhere := filepath.Join(c.dir, "project"), filepath.Join(c.dir, "elsewhere")
	for _, d := range []string{project, elsewhere} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	saved := filepath.Join(c.dir, "plan.json")

	t.Chdir(project) // the default state, .azsvc/state.json, is relative
	if res := c.run("--settings", settings, "plan", "-f", example, "--out", saved); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	state := filepath.Join(project, ".azsvc", "state.json")
	if got := recordedState(t, saved); got != state {
		t.Errorf("the plan records the state %q, want %q", got, state)
	}

	t.Chdir(elsewhere)
	res := c.run("apply", saved, "--auto-approve")
	if res.code != exitOK || !strings.Contains(res.stderr, "Apply complete!") {
		t.Fatalf("apply from another directory: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, ".azsvc")); !os.IsNotExist(err) {
		t.Errorf("apply created a state in the directory it ran in (%v)", err)
	}

	t.Chdir(project)
	if res := c.run("--settings", settings, "plan", "-f", example, "--out", saved); res.code != exitOK {
		t.Fatalf("second plan --out: exit %d\n%s", res.code, res.stderr)
	}
	if err := os.RemoveAll(filepath.Join(project, ".azsvc")); err != nil {
		t.Fatal(err)
	}
	res = c.run("apply", saved, "--auto-approve")
	want := "the plan was made against the local emulator state " + state + ", which does not exist"
	if res.code != exitRuntime || !strings.Contains(res.stderr, want) || strings.Contains(res.stderr, "stale") {
		t.Errorf("apply of a plan whose state is gone: exit %d, want %d and %q:\n%s", res.code, exitRuntime, want, res.stderr)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("apply created the missing state file (%v)", err)
	}
}

func recordedState(t *testing.T, saved string) string {
	t.Helper()
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	var p planfile.Plan
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p.Sources.Target.State
}
