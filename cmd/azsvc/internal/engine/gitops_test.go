package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

// assignedFields are what the API server assigns: a repository holds none.
var assignedFields = regexp.MustCompile(`(?m)^  uid: [0-9a-f-]+\n|^  healthCheckNodePort: \d+\n|, nodePort: \d+\}`)

// TestGitOpsUnknownsGolden is examples/gitops (issue 20 item 1): the
// manifests hold no UID, nodePort or healthCheckNodePort. On an empty
// subscription the plan shows them "(assigned by the API server)" in
// text, markdown and JSON, and names every Service and value apply needs;
// over what CCM built for the same Services (cluster.yaml, as the API
// server returns them) every value comes from Azure and the plan is empty.
func TestGitOpsUnknownsGolden(t *testing.T) {
	dir := filepath.Join(examples, "gitops")
	cluster, err := os.ReadFile(filepath.Join(dir, "cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := os.ReadFile(filepath.Join(dir, "deploy", "store.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := docs(assignedFields.ReplaceAllStringFunc(string(cluster), closeBrace)), docs(string(repo)); a != b {
		t.Fatalf("deploy/store.yaml is not cluster.yaml without what the API server assigns:\n%s\n---\n%s", a, b)
	}
	// Both targets are made before moving to the repository root, where
	// positions and the header read examples/gitops/..., as a user sees them.
	tg := newExampleTarget(t, loadExample(t, filepath.Join(dir, "deploy")), emulator.Options{InstantOperations: true})
	built := loadExample(t, filepath.Join(dir, "cluster.yaml"))
	ccm := newExampleTarget(t, built, emulator.Options{InstantOperations: true})
	mustApply(t, mustPlan(t, built, ccm), ccm)
	root, err := filepath.Abs(filepath.Join(examples, ".."))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	files := []string{filepath.Join("examples", "gitops", "deploy")}
	settings := exampleSettings(files...)
	settings.AzureConfig = filepath.Join(root, "examples", "azure.json")
	in, err := LoadInputs(settings)
	if err != nil || in.HasErrors() {
		t.Fatalf("load: %v %+v", err, in.Diagnostics)
	}
	p := mustPlan(t, in, tg)
	want := []string{"store/mqtt " + plan.FieldUID, "store/mqtt " + plan.NodePortField("TCP", 8080),
		"store/orders-api " + plan.FieldUID, "store/orders-api " + plan.FieldHealthCheckNodePort,
		"store/storefront " + plan.FieldUID, "store/storefront " + plan.NodePortField("TCP", 443),
		"store/storefront " + plan.NodePortField("TCP", 80)}
	var got []string
	for _, u := range p.Unresolved {
		got = append(got, u.Service+" "+u.Field)
	}
	if !slices.Equal(got, want) {
		t.Errorf("unresolved = %q, want %q", got, want)
	}
	view := View(p, in, tg, files)
	base := filepath.Join("examples", "gitops")
	renderGolden(t, filepath.Join(base, "plan.golden.txt"), func(w *bytes.Buffer) error { return planview.Text(w, view, style.New(false)) })
	renderGolden(t, filepath.Join(base, "plan.golden.md"), func(w *bytes.Buffer) error {
		return planview.Markdown(w, view, planview.MarkdownOptions{})
	})
	renderGolden(t, filepath.Join(base, "plan.golden.json"), func(w *bytes.Buffer) error { return planview.JSON(w, view) })

	adopted := mustPlan(t, in, ccm)
	requireEmpty(t, "the repository over what CCM built", adopted)
	if len(adopted.Unresolved) != 0 || len(adopted.AdoptedPorts) != 4 || len(adopted.Adopted) != 3 {
		t.Errorf("over CCM's state: unresolved %v, ports %v, uids %v", adopted.Unresolved, adopted.AdoptedPorts, adopted.Adopted)
	}
	renderGolden(t, filepath.Join(base, "plan-ccm.golden.txt"), func(w *bytes.Buffer) error {
		return planview.Text(w, View(adopted, in, ccm, files), style.New(false))
	})
}

func closeBrace(m string) string {
	if strings.HasSuffix(m, "}") {
		return "}"
	}
	return ""
}
