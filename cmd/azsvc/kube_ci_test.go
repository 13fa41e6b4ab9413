package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// testApplyWorkflows runs the apply-on-merge step of the GitHub workflow
// and of the Azure pipeline (issue 20 item 4) against the real API server,
// as the CI system would: the repository's Services (examples/gitops, no
// UIDs or node ports) exist in the cluster, so --from-cluster gives every
// value the API server assigned; the local emulator stands in for Azure.
// Each apply converges: the same manifests then plan "No changes.". The
// pipeline's `az aks get-credentials` is a stand-in that writes the
// test's kubeconfig, as the real one writes the cluster's.
func (k *kubeEnv) testApplyWorkflows(t *testing.T) {
	ns := k.ns("store")
	k.namespace(t, ns)
	repo := t.TempDir()
	data, err := os.ReadFile("../../examples/gitops/deploy/store.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifests := strings.ReplaceAll(string(data), "namespace: store", "namespace: "+ns)
	if err := os.MkdirAll(filepath.Join(repo, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "deploy", "store.yaml"), manifests)
	cfg, err := os.ReadFile("../../examples/azure.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "azure.json"), string(cfg))
	for _, doc := range strings.Split(manifests, "\n---\n") {
		var obj struct {
			Metadata struct{ Name string } `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		_ = yaml.Unmarshal([]byte(doc), &body)
		k.must(t, http.MethodPost, "/api/v1/namespaces/"+ns+"/services", body, nil)
		// The workflows read every namespace: these Services (one pins an
		// address) must not meet the next run's on the same API server,
		// which has no controller to empty a deleted namespace.
		t.Cleanup(func() { k.do(t, http.MethodDelete, "/api/v1/namespaces/"+ns+"/services/"+obj.Metadata.Name, nil) })
	}
	kubeconfig := writeKubeconfig(t, k.server, filepath.Join(k.dir, "certs", "apiserver.crt"), k.tokens["azsvc"])
	bin := t.TempDir()
	writeFile(t, filepath.Join(bin, "az"), "#!/bin/sh\n# az aks get-credentials ... --file F: the test's kubeconfig\nwhile [ $# -gt 0 ]; do [ \"$1\" = --file ] && cp \""+kubeconfig+"\" \"$2\"; shift; done\n")
	if err := os.Chmod(filepath.Join(bin, "az"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := ciPath(t)
	for file, step := range map[string]string{"github-apply.yml": "Apply", "azure-pipelines.yml": "Apply"} {
		r := loadRecipe(t, "../../examples/ci/"+file)
		state := filepath.Join(t.TempDir(), "state.json")
		c := &ciRun{t: t, dir: repo, vars: map[string]string{"Agent.TempDirectory": t.TempDir()}, outputs: map[string]string{},
			env: []string{strings.Replace(path, "PATH=", "PATH="+bin+string(os.PathListSeparator), 1), "HOME=" + t.TempDir(),
				"KUBECONFIG=" + kubeconfig, "AZSVC_TARGET=emulator", "AZSVC_STATE=" + state}}
		for k, v := range r.env {
			c.vars["env."+k], c.vars[k] = v, v
		}
		if code, out := c.run(r, r.step(t, step)); code != 0 || !strings.Contains(out, "Apply complete!") {
			t.Fatalf("%s: %s: exit %d\n%s", file, step, code, out)
		}
		again := newCLI(t)
		t.Setenv("KUBECONFIG", kubeconfig)
		res := again.run("plan", "--from-cluster", "-A", "-f", filepath.Join(repo, "deploy"), "--config", filepath.Join(repo, "azure.json"),
			"--cluster-name", r.env["CLUSTER"], "--target", "emulator", "--state", state, "--detailed-exitcode")
		if res.code != exitOK || !strings.Contains(res.stdout, "No changes.") {
			t.Errorf("%s: after the apply: exit %d\n%s\n%s", file, res.code, res.stdout, res.stderr)
		}
	}
}
