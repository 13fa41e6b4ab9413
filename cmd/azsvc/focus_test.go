package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestFocusedPlan: --service, -n and -l plan only the changes of the
// Services they select; the rest is read (shared resources stay right),
// the plan says what it was narrowed to and how much it left out, and a
// saved focused plan applies exactly that.
func TestFocusedPlan(t *testing.T) {
	c := newCLI(t)
	seedStateFile(t, filepath.Join(c.dir, "state.json"), "../../examples/emulator-seed.json")
	full := planJSON(t, c, exampleArgs(c, "shared-ip", "plan", "-o", "json")...)
	if full.Summary["create"].(float64) == 0 {
		t.Fatalf("full plan creates nothing: %v", full.Summary)
	}
	for _, focus := range [][]string{{"--service", "shared-edge/mqtt-broker"}, {"-l", "tier=messaging"}} {
		args := append(exampleArgs(c, "shared-ip", "plan", "-o", "json"), focus...)
		p := planJSON(t, c, args...)
		if p.Context["focus"] == nil || !strings.Contains(p.Context["focus"].(string), "1 of 2 Services") {
			t.Errorf("%v: context %v, want the focus named", focus, p.Context)
		}
		if p.Summary["unfocused"] == nil || p.Summary["unfocused"].(float64) == 0 {
			t.Errorf("%v: summary %v, want changes left out", focus, p.Summary)
		}
		for _, ch := range p.Changes {
			if !servesMQTT(ch.Services) {
				t.Errorf("%v: a change outside the focus is planned: %s %v", focus, ch.Address, ch.Services)
			}
		}
	}
	res := c.run(append(exampleArgs(c, "shared-ip", "plan"), "--service", "shared-edge/nosuch")...)
	if res.code != exitUsage || !strings.Contains(res.stderr, "no such Service") {
		t.Errorf("unknown --service: exit %d\n%s", res.code, res.stderr)
	}
	res = c.run(append(exampleArgs(c, "shared-ip", "plan"), "-n", "elsewhere")...)
	if res.code != exitUsage || !strings.Contains(res.stderr, "no Service of the input matches -n elsewhere") {
		t.Errorf("-n matching nothing: exit %d\n%s", res.code, res.stderr)
	}

	// A focused plan saved and applied changes only its Service; the next
	// full plan still has the other one's changes.
	saved := filepath.Join(c.dir, "focus.json")
	if res := c.run(append(exampleArgs(c, "shared-ip", "plan", "--out", saved), "--service", "shared-edge/mqtt-broker")...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	if res := c.run("--settings", "../../examples/azsvc.yaml", "apply", saved, "--state", filepath.Join(c.dir, "state.json"), "--auto-approve"); res.code != exitOK {
		t.Fatalf("apply focused plan: exit %d\n%s", res.code, res.stderr)
	}
	if res := c.run("--settings", "../../examples/azsvc.yaml", "apply", saved, "--service", "x/y", "--auto-approve"); res.code != exitUsage {
		t.Errorf("apply FILE --service: exit %d, want a usage error\n%s", res.code, res.stderr)
	}
	after := planJSON(t, c, exampleArgs(c, "shared-ip", "plan", "-o", "json")...)
	if after.Summary["create"].(float64) == 0 {
		t.Errorf("after the focused apply, the full plan has nothing left for web-ingress: %v", after.Summary)
	}
	for _, ch := range after.Changes {
		if servesMQTT(ch.Services) && len(ch.Services) == 1 {
			t.Errorf("mqtt-broker still has a change after its focused apply: %s", ch.Address)
		}
	}
}

type planDoc struct {
	Context map[string]any
	Summary map[string]any
	Changes []struct {
		Address  string
		Services []struct{ Namespace, Name string }
	}
}

func planJSON(t *testing.T, c *cli, args ...string) planDoc {
	t.Helper()
	res := c.run(args...)
	var doc planDoc
	if res.code != exitOK || json.Unmarshal([]byte(res.stdout), &doc) != nil {
		t.Fatalf("%v: exit %d\n%s\n%s", args, res.code, res.stdout, res.stderr)
	}
	return doc
}

func servesMQTT(services []struct{ Namespace, Name string }) bool {
	for _, s := range services {
		if s.Namespace == "shared-edge" && s.Name == "mqtt-broker" {
			return true
		}
	}
	return false
}
