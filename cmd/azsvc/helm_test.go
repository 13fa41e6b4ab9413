package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helmRendered is testdata/helm/shop rendered by helm template
// (testdata/helm/README.md says how): several documents, the Source comment
// of templates/services.yaml twice, a Service with an unknown annotation.
func helmRendered(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/helm/rendered.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestValidateHelmGolden (issue 20 item 3): findings in helm template's
// output name the template and the Service in text, carry it in JSON, and
// sit on the template file in SARIF, relative to the git root, with no
// region (no line of the output maps to one of the template).
func TestValidateHelmGolden(t *testing.T) {
	golden, err := filepath.Abs("testdata/helm")
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			c := newCLI(t)
			// helm template ran in charts/ of a work tree, as in
			// testdata/helm, whatever checkout the test runs in.
			root := c.dir
			if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			c.dir, c.stdin = filepath.Join(root, "charts"), helmRendered(t)
			if err := os.Mkdir(c.dir, 0o755); err != nil {
				t.Fatal(err)
			}
			res := c.run("validate", "-f", "-", "-o", format)
			if res.code != exitInvalid {
				t.Errorf("exit %d, want %d", res.code, exitInvalid)
			}
			assertGolden(t, filepath.Join(golden, "validate_"+format+".golden"), transcript(res))
		})
	}
}

// TestPlanTimeHelmTemplate: a refusal found while planning names the
// template too.
func TestPlanTimeHelmTemplate(t *testing.T) {
	c := newCLI(t)
	cfg := exampleConfig(t, c.dir, "azure.json", func(m map[string]any) { delete(m, "subnetName") })
	c.stdin = helmRendered(t)
	res := c.run("render", "-f", "-", "--config", cfg)
	want := "shop/templates/services.yaml (default/shop-api, from <stdin>:"
	if res.code != exitInvalid || !strings.Contains(res.stderr, want) || !strings.Contains(res.stderr, "AZSVC4009") {
		t.Errorf("exit %d, want %d and an AZSVC4009 at %q:\n%s", res.code, exitInvalid, want, res.stderr)
	}
}
