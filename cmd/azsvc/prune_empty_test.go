package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPruneEmptyInput: --prune over an input without Services (a helm
// template that failed into `-f -`, an empty file) is refused before
// anything is read from ARM, unless --allow-empty-input says that deleting
// everything azsvc owns is meant.
func TestPruneEmptyInput(t *testing.T) {
	c := newCLI(t)
	state := filepath.Join(c.dir, "state.json")
	if res := c.run(exampleArgs(c, "public-basic", "apply", "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	empty := filepath.Join(c.dir, "empty.yaml")
	writeFile(t, empty, "# helm template printed nothing\n")
	configMap := filepath.Join(c.dir, "cm.yaml")
	writeFile(t, configMap, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
	args := func(cmd, input string, extra ...string) []string {
		return append([]string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", input, "--state", state, "--prune"}, extra...)
	}
	for _, tt := range []struct {
		name, cmd, input, stdin, want string
	}{
		{"empty stdin", "apply", "-", "", "no Service of type LoadBalancer and no PrivateEndpoint: with --prune"},
		{"empty file", "plan", empty, "", "add --allow-empty-input"},
		{"only other kinds", "apply", configMap, "", "(1 other documents skipped)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c.stdin = tt.stdin
			extra := []string{}
			if tt.cmd == "apply" {
				extra = append(extra, "--auto-approve")
			}
			res := c.run(args(tt.cmd, tt.input, extra...)...)
			if res.code != exitUsage || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", res.code, exitUsage, tt.want, res.stderr)
			}
		})
	}
	if res := c.run(exampleArgs(c, "public-basic", "plan", "--detailed-exitcode")...); res.code != exitOK {
		t.Fatalf("after the refusals the plan is not empty: exit %d\n%s", res.code, res.stdout)
	}
	res := c.run(args("apply", empty, "--auto-approve", "--allow-empty-input")...)
	if res.code != exitOK || !strings.Contains(res.stderr, "7 deleted") {
		t.Fatalf("apply --prune --allow-empty-input: exit %d, want everything deleted:\n%s", res.code, res.stderr)
	}
}
