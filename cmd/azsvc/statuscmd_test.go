package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStatusCommand is azsvc status end to end through the CLI: exit 3
// while Azure lacks what the Service needs, 0 once applied; text, wide and
// JSON; a focus; and the flags a read-only command does not take.
func TestStatusCommand(t *testing.T) {
	c := newCLI(t)
	res := c.run(loopArgs(c, "status")...)
	if res.code != exitNotReady || !strings.Contains(res.stdout, "Nothing in Azure yet") ||
		!strings.HasSuffix(res.stdout, "Not ready: web/storefront.\n") {
		t.Fatalf("status before apply: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if res = c.run(loopArgs(c, "apply", "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	res = c.run(loopArgs(c, "status")...)
	if res.code != exitOK || !strings.Contains(res.stdout, "Frontend aa62e357e30fe583286601c1aabfef69: 203.0.113.1") ||
		!strings.HasSuffix(res.stdout, "Ready: every condition of 1 Service is True.\n") || strings.Contains(res.stdout, "idle timeout") {
		t.Fatalf("status after apply: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if res = c.run(loopArgs(c, "status", "-o", "wide")...); res.code != exitOK || !strings.Contains(res.stdout, "idle timeout 4 min") {
		t.Errorf("status -o wide: exit %d\n%s", res.code, res.stdout)
	}
	res = c.run(loopArgs(c, "status", "-o", "json")...)
	var doc struct {
		FormatVersion string `json:"format_version"`
		Ready         bool   `json:"ready"`
		Services      []struct {
			Namespace, Name string
			Conditions      []struct{ Type, Status, Message string }
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || res.code != exitOK {
		t.Fatalf("status -o json: exit %d, %v\n%s", res.code, err, res.stdout)
	}
	if doc.FormatVersion != "1.0" || !doc.Ready || len(doc.Services) != 1 || doc.Services[0].Name != "storefront" ||
		len(doc.Services[0].Conditions) != 4 || doc.Services[0].Conditions[3].Message != "a plan changes nothing" {
		t.Errorf("status -o json: %+v", doc)
	}
	if res = c.run(loopArgs(c, "status", "--service", "web/nosuch")...); res.code != exitUsage {
		t.Errorf("a focus on no Service: exit %d\n%s", res.code, res.stderr)
	}
	for _, flag := range []string{"--prune", "--auto-approve", "--detailed-exitcode"} {
		if res = c.run(loopArgs(c, "status", flag)...); res.code != exitUsage || !strings.Contains(res.stderr, "unknown flag: "+flag) {
			t.Errorf("status %s: exit %d\n%s", flag, res.code, res.stderr)
		}
	}
}

// TestStatusFocus: --service shows the Services it names only, and the
// header says so, as a focused plan's does.
func TestStatusFocus(t *testing.T) {
	c := newCLI(t)
	res := c.run(exampleArgs(c, "pls", "status", "--service", "partner-api/webhooks")...)
	if res.code != exitNotReady || !strings.Contains(res.stdout, "\nService partner-api/webhooks (") ||
		strings.Contains(res.stdout, "partner-api/gateway") || !strings.Contains(res.stdout, "Focus:          1 of 2 Services (--service partner-api/webhooks)") {
		t.Errorf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

// TestStatusJSONOnFailure: with -o json, a status that fails before its
// document (no azure.json) still prints JSON, as every document command
// does.
func TestStatusJSONOnFailure(t *testing.T) {
	c := newCLI(t)
	res := c.run("status", "-f", "../../examples/public-basic", "-o", "json")
	var doc struct {
		Errored  bool `json:"errored"`
		ExitCode int  `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || res.code != exitUsage || !doc.Errored || doc.ExitCode != exitUsage {
		t.Errorf("exit %d, %+v, %v\n%s", res.code, doc, err, res.stdout)
	}
}
