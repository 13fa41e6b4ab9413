package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestValidateAndPlanAgree (issue 20): on every example input, validate
// finds an error exactly when plan does: a value only the API server
// assigns is no error for either (examples/gitops), and plan refuses no
// input that validate passes.
func TestValidateAndPlanAgree(t *testing.T) {
	files, err := filepath.Glob("../../examples/invalid/*.yaml")
	if err != nil || len(files) < 40 {
		t.Fatalf("examples/invalid: %d files, %v", len(files), err)
	}
	more, _ := filepath.Glob("../../examples/*/service.yaml")
	files = append(append(files, more...), "../../examples/gitops/deploy")
	for _, f := range files {
		c := newCLI(t)
		v := c.run("validate", "-f", f, "--config", "../../examples/azure.json", "-o", "json")
		var vdoc struct {
			ErrorCount int `json:"error_count"`
		}
		if err := json.Unmarshal([]byte(v.stdout), &vdoc); err != nil {
			t.Fatalf("%s: validate -o json: %v\n%s", f, err, v.stdout)
		}
		p := c.run("--settings", "../../examples/azsvc.yaml", "plan", "-f", f, "--state", filepath.Join(c.dir, "state.json"), "-o", "json")
		var pdoc struct {
			Errored bool `json:"errored"`
		}
		if err := json.Unmarshal([]byte(p.stdout), &pdoc); err != nil {
			t.Fatalf("%s: plan -o json: %v\n%s", f, err, p.stdout)
		}
		if (vdoc.ErrorCount > 0) != pdoc.Errored {
			t.Errorf("%s: validate finds %d errors, plan errored %v (exit %d)\n%s", f, vdoc.ErrorCount, pdoc.Errored, p.code, p.stderr)
		}
	}
}
