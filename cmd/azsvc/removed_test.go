package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPrunedServicesNamed: Services removed under --prune were shown as
// "resource names starting a1042de5…" even when a tag or the saved plan
// named them (issue 22 item 3). A public Service is named by its public
// IP's k8s-azure-service tag; an internal one, which has no tagged
// resource, by the saved plan given with --since, else by its prefix,
// saying that nothing names it.
func TestPrunedServicesNamed(t *testing.T) {
	c := newCLI(t)
	svc := func(name, uid, extra string) string {
		return "apiVersion: v1\nkind: Service\nmetadata:\n  name: " + name + "\n  namespace: shop\n  uid: " + uid + "\n" + extra +
			"spec:\n  type: LoadBalancer\n  ports:\n  - {name: https, protocol: TCP, port: 443, nodePort: 31443}\n---\n"
	}
	internal := "  annotations:\n    service.beta.kubernetes.io/azure-load-balancer-internal: \"true\"\n"
	keep := svc("keep", "1f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a51", internal)
	all := filepath.Join(c.dir, "all.yaml")
	writeFile(t, all, keep+svc("public", "2f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a52", "")+svc("private", "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a53", internal))
	only := filepath.Join(c.dir, "keep.yaml")
	writeFile(t, only, keep)
	state, saved := filepath.Join(c.dir, "state.json"), filepath.Join(c.dir, "applied.json")
	run := func(args ...string) result {
		return c.run(append([]string{"--settings", "../../examples/azsvc.yaml"}, append(args, "--state", state)...)...)
	}
	if res := run("plan", "-f", all, "--out", saved); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	if res := run("apply", saved, "--auto-approve"); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}

	res := run("plan", "-f", only, "--prune")
	for _, want := range []string{
		"# Service shop/public (not in the input: pruned)", // its resources' Services come from the tag already
		"# Service not in the input, resource names starting a3f2a1b4c5d6e4f708a9b0c1d2e3f4a5 (no tag, saved plan or base input names it) (pruned)",
		"narrower: shop/public: public → no frontend, tcp/443 no longer public; tcp/443 no longer from Internet",
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("plan --prune lacks %q:\n%s", want, res.stdout)
		}
	}
	res = run("plan", "-f", only, "--prune", "--since", saved, "-o", "json")
	if !strings.Contains(res.stdout, `"service": "shop/private",`) || !strings.Contains(res.stdout, `"named_by": "saved_plan"`) {
		t.Errorf("plan --prune --since: the saved plan does not name shop/private:\n%s", res.stdout)
	}
	res = run("plan", "-f", only, "--prune", "--since", saved)
	if !strings.Contains(res.stdout, "# Service shop/private, not in the input (named by the saved plan given with --since) (pruned)") {
		t.Errorf("plan --prune --since, text:\n%s", res.stdout)
	}
}

// TestPrunedServiceNamedByPLSOwner: the frontend and rules of a Service
// pruned while a declared PrivateEndpoint keeps its private link service
// are named by the PLS's owner tag (they read "resource names starting
// a4d2b8f6…").
func TestPrunedServiceNamedByPLSOwner(t *testing.T) {
	res := planPruneEndpointOnly(t)
	want := "# Service clusters-foo/private-router, not in the input (named by the k8s-azure-owner-service tag of pls/pls-foo) (pruned)"
	if !strings.Contains(res.stdout, want) {
		t.Errorf("plan --prune lacks %q:\n%s", want, res.stdout)
	}
}
