package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// warnOnly is a Service whose one finding is a warning (AZSVC3007: a
// boolean that decides nothing about exposure, read as false).
const warnOnly = `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  uid: 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-disable-tcp-reset: "yes"
spec:
  type: LoadBalancer
  ports:
  - {name: https, protocol: TCP, port: 443, nodePort: 31443}
`

// TestFailOnWarning: --fail-on warning (or AZSVC_FAIL_ON, or fail-on: in
// azsvc.yaml) turns warnings into exit 4 for validate, render, plan and
// apply, as tflint and kube-linter do; without it warnings alone pass.
func TestFailOnWarning(t *testing.T) {
	c := newCLI(t)
	manifest := filepath.Join(c.dir, "svc.yaml")
	writeFile(t, manifest, warnOnly)
	state := filepath.Join(c.dir, "state.json")
	common := func(cmd string, extra ...string) []string {
		args := []string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", manifest}
		if cmd != "validate" && cmd != "render" {
			args = append(args, "--state", state)
		}
		return append(args, extra...)
	}
	saved := filepath.Join(c.dir, "plan.json")
	tests := []struct {
		name     string
		args     []string
		env      string // AZSVC_FAIL_ON
		want     int
		stdout   string // a substring, or "-" for empty
		noStderr string
	}{
		{"validate passes warnings", common("validate"), "", exitOK, "warning[AZSVC3007]", "Failed:"},
		{"validate --fail-on warning", common("validate", "--fail-on", "warning"), "", exitInvalid, "warning[AZSVC3007]", ""},
		{"validate AZSVC_FAIL_ON=warning", common("validate"), "warning", exitInvalid, "warning[AZSVC3007]", ""},
		{"validate --fail-on error beats the environment", common("validate", "--fail-on", "error"), "warning", exitOK, "warning[AZSVC3007]", "Failed:"},
		{"render passes warnings", common("render"), "", exitOK, "load balancer aks-prod-weu", "Failed:"},
		{"render --fail-on warning", common("render", "--fail-on", "warning"), "", exitInvalid, "-", ""},
		{"plan passes warnings", common("plan", "--detailed-exitcode"), "", exitChanges, "Plan: ", "Failed:"},
		{"plan --fail-on warning", common("plan", "--fail-on", "warning", "--out", saved), "", exitInvalid, "Plan: ", "Saved the plan"},
		{"apply --fail-on warning", common("apply", "--auto-approve", "--fail-on", "warning"), "", exitInvalid, "-", "Apply complete"},
		{"apply AZSVC_FAIL_ON=warning", common("apply", "--auto-approve"), "warning", exitInvalid, "-", "Apply complete"},
		{"an unknown severity", common("validate", "--fail-on", "info"), "", exitUsage, "-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("AZSVC_FAIL_ON", tt.env)
			res := c.run(tt.args...)
			if res.code != tt.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, tt.want, res.stdout, res.stderr)
			}
			switch {
			case tt.stdout == "-" && res.stdout != "":
				t.Errorf("stdout not empty:\n%s", res.stdout)
			case tt.stdout != "-" && !strings.Contains(res.stdout, tt.stdout):
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, res.stdout)
			}
			if tt.want == exitInvalid && !strings.Contains(res.stderr, "Failed (--fail-on warning): 1 warning") {
				t.Errorf("stderr does not say why it failed:\n%s", res.stderr)
			}
			if tt.noStderr != "" && strings.Contains(res.stderr, tt.noStderr) {
				t.Errorf("stderr has %q:\n%s", tt.noStderr, res.stderr)
			}
		})
	}
	if _, err := os.Stat(saved); !os.IsNotExist(err) {
		t.Errorf("plan --fail-on warning saved %s (%v)", saved, err)
	}
	if res := c.run(common("plan", "--detailed-exitcode")...); res.code != exitChanges {
		t.Errorf("apply --fail-on warning wrote to Azure: the next plan exits %d\n%s", res.code, res.stdout)
	}
	// A plan saved without it is refused by apply FILE --fail-on warning.
	if res := c.run(common("plan", "--out", saved)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	res := c.run("--settings", "../../examples/azsvc.yaml", "apply", saved, "--auto-approve", "--fail-on", "warning")
	if res.code != exitInvalid || strings.Contains(res.stderr, "Apply complete") {
		t.Errorf("apply FILE --fail-on warning: exit %d\n%s", res.code, res.stderr)
	}
}
