package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONOnEveryExitPath: with -o json, stdout holds JSON whatever the
// exit code: the command's own document, or when it fails before having
// one an error document (apply: a summary event) naming the exit code.
func TestJSONOnEveryExitPath(t *testing.T) {
	c := newCLI(t)
	saved := filepath.Join(c.dir, "plan.json")
	data := savedExamplePlan(t, c, saved)
	modified := filepath.Join(c.dir, "modified.json")
	writeFile(t, modified, strings.Replace(string(data), `"frontendPort": 80`, `"frontendPort": 81`, 1))
	basic := filepath.Join(c.dir, "basic.json")
	writeFile(t, basic, strings.Replace(readString(t, "../../examples/azure.json"), `"loadBalancerSku": "standard"`, `"loadBalancerSku": "basic"`, 1))
	state := filepath.Join(c.dir, "state.json")
	tests := []struct {
		name string
		args []string
		code int
		kind string // the error kind; "" when the command prints its own document
	}{
		{"plan without -f", []string{"plan", "-o", "json"}, exitUsage, "usage_error"},
		{"plan refused by preflight", []string{"--settings", "../../examples/azsvc.yaml", "plan", "-f", "../../examples/public-basic",
			"--config", basic, "--state", state, "-o", "json"}, exitInvalid, ""}, // the plan, with its refusals
		{"plan with invalid manifests", exampleArgs(c, "invalid", "plan", "-o", "json"), exitInvalid, ""},
		{"plan --since of a missing file", exampleArgs(c, "public-basic", "plan", "--since", "nope.json", "-o", "json"), exitInvalid, "invalid_input"},
		{"plan --detailed-exitcode", exampleArgs(c, "public-basic", "plan", "--detailed-exitcode", "-o", "json"), exitChanges, ""},
		{"show of a modified plan", []string{"show", modified, "-o", "json"}, exitStale, "stale_plan"},
		{"render without --config", []string{"render", "-f", "../../examples/public-basic", "-o", "json"}, exitUsage, "usage_error"},
		{"apply of a modified plan", []string{"apply", modified, "--state", state, "--target", "emulator", "--auto-approve", "-o", "json"}, exitStale, "stale_plan"},
		{"apply without approval", exampleArgs(c, "public-basic", "apply", "-o", "json"), exitUsage, "usage_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := c.run(tt.args...)
			if res.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, tt.code, res.stderr)
			}
			var doc struct {
				ExitCode int    `json:"exit_code"`
				Type     string `json:"type"`
				Error    struct{ Kind, Message string }
				Summary  struct{ Outcome string }
			}
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, res.stdout)
			}
			kind := doc.Error.Kind
			if doc.Type == "summary" {
				kind = doc.Summary.Outcome
			}
			if tt.kind != "" && (kind != tt.kind || doc.ExitCode != tt.code || doc.Error.Message == "") {
				t.Errorf("error document %+v, want kind %s and exit code %d", doc, tt.kind, tt.code)
			}
		})
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
