package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitOpsApplyRefusesUnknowns (issue 20): manifests without UIDs and
// node ports plan with changes (exit 2 under --detailed-exitcode) showing
// "(assigned by the API server)"; apply, fresh or from a saved plan, exits
// 4 naming each Service and value, and writes nothing; once the state CCM
// would build exists (cluster.yaml, with what the API server assigned), the
// same manifests plan "No changes.".
func TestGitOpsApplyRefusesUnknowns(t *testing.T) {
	c := newCLI(t)
	state := filepath.Join(c.dir, "state.json")
	args := func(cmd, files string, extra ...string) []string {
		return append([]string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", "../../examples/gitops/" + files, "--state", state}, extra...)
	}
	res := c.run(args("plan", "deploy", "--detailed-exitcode")...)
	if res.code != exitChanges || !strings.Contains(res.stdout, "pip/aks-prod-weu-(assigned by the API server)") ||
		!strings.Contains(res.stdout, "port = (assigned by the API server)") {
		t.Fatalf("plan: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	before, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(c.dir, "plan.azsvc")
	if res = c.run(args("plan", "deploy", "--out", saved)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	for _, run := range [][]string{args("apply", "deploy", "--auto-approve"), {"--settings", "../../examples/azsvc.yaml", "apply", saved, "--auto-approve"}} {
		res = c.run(run...)
		if res.code != exitInvalid || !strings.Contains(res.stderr, "store/orders-api: metadata.uid, spec.healthCheckNodePort") ||
			!strings.Contains(res.stderr, "the nodePort of port 80/TCP") || !strings.Contains(res.stderr, "--from-cluster") ||
			strings.Contains(res.stderr, "Apply complete") {
			t.Fatalf("%v: exit %d\n%s", run, res.code, res.stderr)
		}
		after, err := os.ReadFile(state)
		if err != nil || string(after) != string(before) {
			t.Fatalf("%v changed the emulator's state (err %v)", run, err)
		}
	}
	if res = c.run(args("apply", "cluster.yaml", "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply cluster.yaml: exit %d\n%s", res.code, res.stderr)
	}
	if res = c.run(args("plan", "deploy", "--detailed-exitcode")...); res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
		t.Fatalf("plan over CCM's state: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}
