package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// seedState writes an emulator state file holding the examples' cluster
// (examples/emulator-seed.json: its subnets) and an example's own
// emulator-seed.json (a guest VNet in another subscription), as `azsvc
// emulator serve --seed ... --seed ... --state FILE` would leave it.
func seedState(t *testing.T, c *cli, example string) {
	t.Helper()
	var seeds [][]byte
	for _, f := range []string{filepath.Join("..", "..", "examples", "emulator-seed.json"),
		filepath.Join("..", "..", "examples", example, "emulator-seed.json")} {
		seed, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, seed)
	}
	emu, err := emulator.Open(emulator.Options{StatePath: filepath.Join(c.dir, "state.json")})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Seed(seeds...); err != nil {
		t.Fatal(err)
	}
	if err := emu.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPrivateEndpointCLI: the HyperShift example through a saved plan (its
// endpoint in a second subscription), then the manual one: apply succeeds
// with the connection Pending and says so, and so does the next plan,
// which exits 0 under --detailed-exitcode.
func TestPrivateEndpointCLI(t *testing.T) {
	c := newCLI(t)
	seedState(t, c, "hypershift-private-link")
	saved := filepath.Join(c.dir, "plan.json")
	if res := c.run(exampleArgs(c, "hypershift-private-link", "plan", "--out", saved)...); res.code != exitOK ||
		!strings.Contains(res.stdout, "pe/private-router-pe") || !strings.Contains(res.stdout, "Private Link (Service") {
		t.Fatalf("plan --out: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	res := c.run("--settings", "../../examples/azsvc.yaml", "apply", saved, "--state", filepath.Join(c.dir, "state.json"), "--auto-approve")
	if res.code != exitOK || !strings.Contains(res.stderr, "Apply complete!") {
		t.Fatalf("apply saved plan: exit %d\n%s", res.code, res.stderr)
	}
	if res := c.run(exampleArgs(c, "hypershift-private-link", "plan", "--detailed-exitcode")...); res.code != exitOK {
		t.Fatalf("second plan: exit %d\n%s", res.code, res.stdout)
	}

	m := newCLI(t)
	seedState(t, m, "private-endpoint-manual")
	res = m.run(exampleArgs(m, "private-endpoint-manual", "apply", "--auto-approve")...)
	if res.code != exitOK || !strings.Contains(res.stderr, "Awaiting approval by the PLS owner") {
		t.Fatalf("manual apply: exit %d\n%s", res.code, res.stderr)
	}
	res = m.run(exampleArgs(m, "private-endpoint-manual", "plan", "--detailed-exitcode", "-o", "json")...)
	if res.code != exitOK || !strings.Contains(res.stdout, `"awaiting_approval": 1`) || !strings.Contains(res.stdout, `"status": "Pending"`) {
		t.Fatalf("plan after a Pending connection: exit %d\n%s", res.code, res.stdout)
	}
}
