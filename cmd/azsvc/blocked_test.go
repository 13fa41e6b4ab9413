package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlockedSubnetTypoFails: a subnet name typo (ilb-subnt) left the
// Service without a load balancer while plan --detailed-exitcode and apply
// exited 0 and the entry named no Service (issue 22 item 4). Now plan,
// with or without --detailed-exitcode, and apply exit 4, name the Service
// and suggest the subnet the plan read; apply writes nothing unless
// --allow-blocked, which applies the other Service.
func TestBlockedSubnetTypoFails(t *testing.T) {
	c := newCLI(t)
	state := filepath.Join(c.dir, "state.json")
	seedStateFile(t, state, "../../examples/emulator-seed.json") // aks-vnet's ilb-subnet
	data, err := os.ReadFile("../../examples/internal-subnet/service.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(c.dir, "svc.yaml")
	writeFile(t, manifest, strings.Replace(string(data), "internal-subnet: ilb-subnet", "internal-subnet: ilb-subnt", 1))
	args := func(cmd string, extra ...string) []string {
		return append([]string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", manifest, "--state", state}, extra...)
	}
	for _, extra := range [][]string{nil, {"--detailed-exitcode"}} {
		res := c.run(args("plan", extra...)...)
		if res.code != exitInvalid || !strings.Contains(res.stdout, "Service payments/ledger-api: subnet ilb-subnt not found") ||
			!strings.Contains(res.stdout, "did you mean ilb-subnet?") || !strings.Contains(res.stderr, "Failed: 1 blocked change leaves Service payments/ledger-api") {
			t.Errorf("plan %v: exit %d, want 4 naming the Service and ilb-subnet\nstdout:\n%s\nstderr:\n%s", extra, res.code, res.stdout, res.stderr)
		}
	}
	res := c.run(args("plan", "-o", "json")...)
	var doc struct {
		Applyable bool `json:"applyable"`
		Summary   struct {
			BlockedFailing int `json:"blocked_failing"`
		} `json:"summary"`
		Blocked []struct {
			Code, Suggestion string
			Fails            bool
		} `json:"blocked"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || res.code != exitInvalid {
		t.Fatalf("plan -o json: exit %d, %v\n%s", res.code, err, res.stdout)
	}
	if doc.Applyable || doc.Summary.BlockedFailing != 1 || len(doc.Blocked) != 1 || !doc.Blocked[0].Fails ||
		doc.Blocked[0].Code != "subnet_missing" || doc.Blocked[0].Suggestion != "ilb-subnet" {
		t.Errorf("plan -o json: %+v", doc)
	}

	// A saved plan keeps its blocked changes: apply FILE refuses it too.
	saved := filepath.Join(c.dir, "plan.json")
	if res := c.run(args("plan", "--out", saved)...); res.code != exitInvalid {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	applySaved := func(extra ...string) result {
		return c.run(append([]string{"--settings", "../../examples/azsvc.yaml", "apply", saved, "--state", state, "--auto-approve"}, extra...)...)
	}
	before, _ := os.ReadFile(state)
	if res := applySaved(); res.code != exitInvalid || !strings.Contains(res.stdout, "did you mean ilb-subnet?") {
		t.Errorf("apply FILE: exit %d, want 4\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	res = c.run(args("apply", "--auto-approve")...)
	after, _ := os.ReadFile(state)
	if res.code != exitInvalid || !strings.Contains(res.stderr, "nothing was applied (--allow-blocked applies the rest)") {
		t.Errorf("apply: exit %d, want 4\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if string(before) != string(after) {
		t.Errorf("apply wrote to the emulator although it refused the plan")
	}
	res = applySaved("--allow-blocked")
	if res.code != exitOK || !strings.Contains(res.stderr, "Apply complete!") {
		t.Errorf("apply FILE --allow-blocked: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(stateBody(t, state, "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/loadBalancers/aks-prod-weu-internal"),
		"aa19217a0c814521297bce66680cc04b") {
		t.Errorf("apply --allow-blocked did not give ledger-metrics its frontend")
	}
}

// TestHeldBlockDoesNotFail: a block that holds back a delete protecting
// what is still in use (endpoint_connected: --prune would delete the PLS a
// declared PrivateEndpoint connects to) is no failure: plan exits 2 under
// --detailed-exitcode, as before.
func TestHeldBlockDoesNotFail(t *testing.T) {
	res := planPruneEndpointOnly(t)
	if res.code != exitChanges || !strings.Contains(res.stdout, "! lb/aks-prod-weu-internal/frontend/a4d2b8f6e1c3a4e599b7d0f2e6a8c1d3: cannot delete") ||
		strings.Contains(res.stdout, "✗") {
		t.Errorf("plan --prune: exit %d, want 2 with the held block marked !\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
}

// planPruneEndpointOnly applies the HyperShift example, then plans
// --prune --detailed-exitcode with only its PrivateEndpoint, naming the
// PLS by ID: the Service's frontend stays for the endpoint
// (endpoint_connected), its rules and probes go.
func planPruneEndpointOnly(t *testing.T) result {
	c := newCLI(t)
	seedState(t, c, "hypershift-private-link")
	if res := c.run(exampleArgs(c, "hypershift-private-link", "apply", "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	data, err := os.ReadFile("../../examples/hypershift-private-link/endpoint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plsID := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/privateLinkServices/pls-foo"
	only := filepath.Join(c.dir, "endpoint.yaml")
	writeFile(t, only, strings.Replace(string(data), "  service: private-router\n", "  privateLinkServiceID: "+plsID+"\n", 1))
	return c.run("--settings", "../../examples/azsvc.yaml", "plan", "-f", only, "--state", filepath.Join(c.dir, "state.json"),
		"--prune", "--detailed-exitcode")
}
