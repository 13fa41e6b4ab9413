package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictFindingsFailEveryCommand: the findings issue 22 made errors
// (a non-boolean internal annotation, a misspelt type, Azure annotations
// on a ClusterIP Service, additional IPs CCM cannot parse) fail render and
// plan as they fail validate: plan runs validate's checks (engine.Build).
func TestStrictFindingsFailEveryCommand(t *testing.T) {
	svc := func(typ, key, value string) string {
		return "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n  uid: 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\n" +
			"  annotations:\n    service.beta.kubernetes.io/" + key + ": " + value + "\n" +
			"spec:\n  type: " + typ + "\n  ports:\n  - {name: https, protocol: TCP, port: 443, nodePort: 31443}\n"
	}
	tests := []struct{ name, manifest, code string }{
		{"internal yes", svc("LoadBalancer", "azure-load-balancer-internal", `"yes"`), "AZSVC1043"},
		{"type Loadbalancer", svc("Loadbalancer", "azure-load-balancer-internal", `"true"`), "AZSVC0011"},
		{"ClusterIP with Azure annotations", svc("ClusterIP", "azure-pls-create", `"true"`), "AZSVC0012"},
		{"additional IPs with a space", svc("LoadBalancer", "azure-additional-public-ips", `"20.62.13.8, 20.62.13.9"`), "AZSVC1022"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			manifest := filepath.Join(c.dir, "svc.yaml")
			writeFile(t, manifest, tt.manifest)
			settings := []string{"--settings", "../../examples/azsvc.yaml"}
			for _, args := range [][]string{
				{"validate", "-f", manifest},
				{"render", "-f", manifest},
				{"plan", "-f", manifest, "--state", filepath.Join(c.dir, "state.json"), "--detailed-exitcode"},
				{"apply", "-f", manifest, "--state", filepath.Join(c.dir, "state.json"), "--auto-approve"},
			} {
				res := c.run(append(settings, args...)...)
				if res.code != exitInvalid || !strings.Contains(res.stdout+res.stderr, "error["+tt.code+"]") {
					t.Errorf("%s: exit %d, want %d with %s\nstdout:\n%s\nstderr:\n%s", args[0], res.code, exitInvalid, tt.code, res.stdout, res.stderr)
				}
			}
		})
	}
}

// TestMisspeltTypeUnderPrune: a Service whose type turns into a typo
// (Loadbalancer) is no longer skipped in silence: before, plan --prune
// planned the delete of its frontend, rule and public IP and exited 2,
// and apply made it. Now both exit 4 and nothing is deleted.
func TestMisspeltTypeUnderPrune(t *testing.T) {
	c := newCLI(t)
	manifest := filepath.Join(c.dir, "svc.yaml")
	good := "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n  uid: 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\n" +
		"spec:\n  type: LoadBalancer\n  ports:\n  - {name: https, protocol: TCP, port: 443, nodePort: 31443}\n"
	// Another Service keeps the input from being empty, which --prune
	// refuses on its own.
	good += "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: other\n  namespace: shop\n  uid: 4f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b\n" +
		"spec:\n  type: LoadBalancer\n  ports:\n  - {name: https, protocol: TCP, port: 8443, nodePort: 31444}\n"
	writeFile(t, manifest, good)
	args := func(cmd string, extra ...string) []string {
		return append([]string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", manifest, "--state", filepath.Join(c.dir, "state.json"), "--prune"}, extra...)
	}
	if res := c.run(args("apply", "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	writeFile(t, manifest, strings.Replace(good, "type: LoadBalancer", "type: Loadbalancer", 1))
	if res := c.run(args("plan", "--detailed-exitcode")...); res.code != exitInvalid {
		t.Errorf("plan --prune: exit %d, want %d\n%s", res.code, exitInvalid, res.stdout)
	}
	if res := c.run(args("apply", "--auto-approve")...); res.code != exitInvalid || strings.Contains(res.stderr, "Apply complete") {
		t.Errorf("apply --prune: exit %d, want %d\n%s", res.code, exitInvalid, res.stderr)
	}
	writeFile(t, manifest, good)
	if res := c.run(args("plan", "--detailed-exitcode")...); res.code != exitOK {
		t.Errorf("the Service's resources did not survive: plan exits %d\n%s", res.code, res.stdout)
	}
}
