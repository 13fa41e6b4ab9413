package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// testPrunePartial: --prune over one namespace or a selector of the cluster
// is refused before anything is read or written: the other namespaces'
// Services still exist, and pruning would delete their resources.
func (k *kubeEnv) testPrunePartial(t *testing.T) {
	retail, other := k.ns("retail"), k.ns("other")
	k.shopFixtures(t, retail)
	k.shopFixtures(t, other)
	c := newCLI(t)
	c.emulator = newEmulator(t)
	for _, ns := range []string{other, retail} {
		if res := c.run(k.args("apply", ns, "--auto-approve")...); res.code != exitOK {
			t.Fatalf("apply %s: exit %d\n%s", ns, res.code, res.stderr)
		}
	}
	writes := c.emulator.Counters().Writes("")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"apply -n --prune", k.args("apply", retail, "--auto-approve", "--prune")},
		{"plan -n --prune", k.args("plan", retail, "--prune")},
		{"apply -A -l --prune", []string{"--settings", "../../examples/azsvc.yaml", "apply", "--from-cluster", "-A", "-l", "app=web",
			"--kubeconfig", k.kubeconfig, "--context", "azsvc", "--auto-approve", "--prune"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := c.run(tt.args...)
			if res.code != exitUsage || !strings.Contains(res.stderr, "cannot tell a Service outside that from a deleted one") ||
				!strings.Contains(res.stderr, "--from-cluster -A (--all-namespaces) and no -l") {
				t.Errorf("exit %d, want 64 explaining the refusal:\n%s%s", res.code, res.stdout, res.stderr)
			}
			if n := c.emulator.Counters().Writes(""); n != writes {
				t.Errorf("%d writes after the refusal", n-writes)
			}
		})
	}
	// Both namespaces still plan empty: nothing of other's was pruned.
	for _, ns := range []string{other, retail} {
		if res := c.run(k.args("plan", ns, "--detailed-exitcode")...); res.code != exitOK {
			t.Errorf("plan %s: exit %d\n%s", ns, res.code, res.stdout)
		}
	}
}

// testSavedPlanEnv: a plan made --from-cluster is applied under the lease
// of the cluster it read, found through KUBECONFIG with no cluster flag on
// the apply command line; a kubeconfig without its context refuses (exit
// 1) before any write, unless --no-lock.
func (k *kubeEnv) testSavedPlanEnv(t *testing.T) {
	ns, c, file := k.savedPlan(t, "savedenv", true)
	t.Setenv("KUBECONFIG", writeKubeconfig(t, k.server, filepath.Join(k.dir, "certs", "apiserver.crt"), k.tokens["azsvc"]))
	res := c.run("--settings", "../../examples/azsvc.yaml", "apply", file, "--auto-approve")
	if res.code != exitRuntime || !strings.Contains(res.stderr, `context "azsvc"`) || !strings.Contains(res.stderr, "where apply takes the lease") {
		t.Errorf("apply of the saved plan without its context: exit %d, want 1 naming the context:\n%s", res.code, res.stderr)
	}
	if n := c.emulator.Counters().Writes(""); n != 0 {
		t.Fatalf("%d writes without the lease", n)
	}

	t.Setenv("KUBECONFIG", k.kubeconfig) // its current context is admin; the plan's is azsvc
	k.applySaved(t, c, ns, file)
}

// testSavedPlanStale: a Service edited in the cluster between plan --out
// and apply FILE makes the saved plan stale (exit 5, naming it): applying
// it would write the annotations as they were.
func (k *kubeEnv) testSavedPlanStale(t *testing.T) {
	ns, c, file := k.savedPlan(t, "savedstale", false)
	var web corev1.Service
	path := "/api/v1/namespaces/" + ns + "/services/web"
	k.must(t, http.MethodGet, path, nil, &web)
	web.Annotations = map[string]string{"service.beta.kubernetes.io/azure-dns-label-name": "edited-" + k.run}
	k.must(t, http.MethodPut, path, web, nil)

	for _, extra := range [][]string{nil, {"--no-lock"}} {
		args := append([]string{"--settings", "../../examples/azsvc.yaml", "apply", file,
			"--kubeconfig", k.kubeconfig, "--context", "azsvc", "--auto-approve"}, extra...)
		res := c.run(args...)
		if res.code != exitStale || !strings.Contains(res.stderr, "Service "+ns+"/web: changed in the cluster since the plan") {
			t.Errorf("apply %v of a plan whose Service changed: exit %d, want 5 naming %s/web:\n%s", extra, res.code, ns, res.stderr)
		}
		if n := c.emulator.Counters().Writes(""); n != 0 {
			t.Fatalf("%d writes of a stale plan", n)
		}
	}
	k.checkReleased(t)
}

// testStatusForbidden: --update-status without update on services/status
// is refused before the first Azure write (exit 1, naming what is
// missing), not found after them (exit 7).
func (k *kubeEnv) testStatusForbidden(t *testing.T) {
	ns := k.ns("nostatus")
	k.shopFixtures(t, ns)
	user := "nostatus-" + k.run
	k.createAll(t, 2, func(i int) string {
		return "/apis/rbac.authorization.k8s.io/v1/" + []string{"clusterroles", "clusterrolebindings"}[i]
	}, func(i int) any {
		if i == 0 {
			return map[string]any{"metadata": map[string]any{"name": user}, "rules": []any{
				map[string]any{"apiGroups": []string{""}, "resources": []string{"services", "nodes"}, "verbs": []string{"list"}},
				map[string]any{"apiGroups": []string{"discovery.k8s.io"}, "resources": []string{"endpointslices"}, "verbs": []string{"list"}},
				map[string]any{"apiGroups": []string{"coordination.k8s.io"}, "resources": []string{"leases"}, "verbs": []string{"get", "create", "update"}},
			}}
		}
		return map[string]any{"metadata": map[string]any{"name": user},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": user},
			"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}}}
	})
	k.waitAllowed(t, user, "list", "services", ns)
	// The admin token impersonating user: run.sh has no token for it.
	cfg := filepath.Join(t.TempDir(), "kubeconfig")
	writeFile(t, cfg, fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: %q, certificate-authority: %q}
users:
- name: u
  user: {token: %q, as: %q}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`, k.server, filepath.Join(k.dir, "certs", "apiserver.crt"), k.tokens["admin"], user))
	if err := os.Chmod(cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	c.emulator = newEmulator(t)
	res := c.run("--settings", "../../examples/azsvc.yaml", "apply", "--from-cluster", "-n", ns, "--kubeconfig", cfg,
		"--auto-approve", "--update-status")
	if res.code != exitRuntime || !strings.Contains(res.stderr, `RBAC: not allowed to update services/status (API group "") in namespace "`+ns+`"`) {
		t.Errorf("apply --update-status without the permission: exit %d, want 1 naming update services/status:\n%s", res.code, res.stderr)
	}
	if n := c.emulator.Counters().Writes(""); n != 0 {
		t.Errorf("%d writes before the missing permission was found", n)
	}
	if l, _ := k.lease(t); l.holder() != "" {
		t.Errorf("lease held by %q after the refusal", l.holder())
	}
}
