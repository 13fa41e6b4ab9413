package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository holding examples/gitops/deploy and
// examples/azure.json, committed once, and returns its directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for src, dst := range map[string]string{"../../examples/gitops/deploy/store.yaml": "deploy/store.yaml", "../../examples/azure.json": "azure.json"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, dst), string(data))
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// headEdit is a pull request on the base: store/mqtt removed, a port
// added to store/storefront, store/orders-api left as it is.
func headEdit(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "deploy", "store.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	s = s[:strings.Index(s, "---\n# Its health probe")]
	s = strings.Replace(s, "    - {name: https, port: 443, targetPort: 8443}\n",
		"    - {name: https, port: 443, targetPort: 8443}\n    - {name: admin, port: 8443, targetPort: 9443}\n", 1)
	writeFile(t, path, s)
}

// TestPlanBaseOffline (issue 20 item 2): plan --base REF -f deploy/, where
// REF is a git revision or a directory, plans the head input against what
// the base builds, in a network namespace, with no state file and no
// subscription: exit 2 on a difference, the removed Service named, the
// unchanged Service (whose UID and node ports the API server assigns)
// without changes, and exit 0 with no difference at all.
func TestPlanBaseOffline(t *testing.T) {
	if !inNetns(t) {
		return
	}
	repo := gitRepo(t)
	baseDir := filepath.Join(t.TempDir(), "base")
	if out, err := exec.Command("cp", "-r", filepath.Join(repo, "deploy"), baseDir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	c := newCLI(t)
	t.Chdir(repo)
	args := func(base string, extra ...string) []string {
		return append([]string{"plan", "--base", base, "-f", "deploy", "--config", "azure.json", "--cluster-name", "aks-prod-weu"}, extra...)
	}
	for _, base := range []string{"HEAD", baseDir} {
		if res := c.run(args(base, "--detailed-exitcode")...); res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
			t.Fatalf("--base %s, nothing changed: exit %d\n%s\n%s", base, res.code, res.stdout, res.stderr)
		}
	}
	headEdit(t, repo)
	if out, err := exec.Command("git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "head").CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	for _, base := range []string{"HEAD~1", baseDir} {
		res := c.run(args(base, "--detailed-exitcode")...)
		if res.code != exitChanges {
			t.Fatalf("--base %s: exit %d\n%s\n%s", base, res.code, res.stdout, res.stderr)
		}
		for _, want := range []string{"# Service store/mqtt", "-   pip/aks-prod-weu-(assigned by the API server)",
			"+   lb/aks-prod-weu/rule/(assigned by the API server)-TCP-8443", "Base:           " + base, "not against Azure"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("--base %s: the plan lacks %q:\n%s", base, want, res.stdout)
			}
		}
		if strings.Contains(res.stdout, "store/orders-api") {
			t.Errorf("--base %s: the unchanged Service has changes:\n%s", base, res.stdout)
		}
	}
	res := c.run(args("HEAD~1", "-o", "json")...)
	var doc struct {
		Context struct{ Base string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || !strings.HasPrefix(doc.Context.Base, "HEAD~1 (commit ") {
		t.Errorf("JSON context.base = %q (%v)", doc.Context.Base, err)
	}
	if _, err := os.Stat(filepath.Join(repo, ".azsvc")); !os.IsNotExist(err) {
		t.Errorf("a base plan made a state directory: %v", err)
	}
	for _, bad := range [][]string{args("no-such-rev"), append(args("HEAD"), "--state", "s.json"), {"plan", "--base", "HEAD", "-f", "-", "--config", "azure.json"}} {
		if res := c.run(bad...); res.code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", bad, res.code, exitUsage, res.stderr)
		}
	}
}

// TestPlanBaseSettingsAndBrokenBase: target and state settings from
// azsvc.yaml are a repository's defaults for its other plans and do not
// stop a base→head plan (only the command line's do); a base that ARM
// would refuse is an error that says why, exit 1 with the JSON error
// document, never a plan (it panicked, and exited 2, which CI passes).
func TestPlanBaseSettingsAndBrokenBase(t *testing.T) {
	c := newCLI(t)
	writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), "target: azure\nstate: elsewhere.json\n")
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base"), filepath.Join(dir, "head")
	for _, d := range []string{base, head} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	svc := `apiVersion: v1
kind: Service
metadata: {name: a, namespace: x, annotations: {service.beta.kubernetes.io/azure-load-balancer-internal: "true"}}
spec: {type: LoadBalancer, loadBalancerIP: ADDR, ports: [{port: 80}]}
`
	writeFile(t, filepath.Join(base, "s.yaml"), strings.Replace(svc, "ADDR", "10.224.0.50", 1))
	writeFile(t, filepath.Join(head, "s.yaml"), strings.Replace(svc, "ADDR", "10.224.0.51", 1))
	args := []string{"plan", "--base", base, "-f", head, "--config", "../../examples/azure.json", "--detailed-exitcode"}
	if res := c.run(args...); res.code != exitChanges || !strings.Contains(res.stdout, "10.224.0.51") {
		t.Fatalf("with target and state in azsvc.yaml: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	writeFile(t, filepath.Join(base, "s.yaml"), strings.Replace(svc, "ADDR", "10.99.0.5", 1)) // outside the subnet
	res := c.run(append(args, "-o", "json")...)
	var doc struct {
		Errored bool
		Error   struct{ Message string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); res.code != exitRuntime || err != nil || !doc.Errored ||
		!strings.Contains(doc.Error.Message, "static IP 10.99.0.5 is outside subnet") {
		t.Errorf("a base ARM would refuse: exit %d, %v\n%s\n%s", res.code, err, res.stdout, res.stderr)
	}
}
