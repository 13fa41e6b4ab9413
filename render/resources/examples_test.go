package resources

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
)

var update = flag.Bool("update", false, "rewrite golden files")

const examplesDir = "../../examples"

// exampleConfig reads the example cluster's azure.json and azsvc.yaml.
func exampleConfig(t testing.TB) *cluster.Config {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examplesDir, "azure.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := cluster.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	settings, err := os.ReadFile(filepath.Join(examplesDir, "azsvc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var own struct {
		ClusterName  string `json:"cluster-name"`
		Subscription string `json:"subscription"`
	}
	if err := yaml.Unmarshal(settings, &own); err != nil {
		t.Fatal(err)
	}
	cfg.ClusterName, cfg.Subscription = own.ClusterName, own.Subscription
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// exampleState builds the desired state of one scenario directory from its
// manifests (every *.yaml but golden files).
func exampleState(t testing.TB, dir string, cfg *cluster.Config) (*plan.State, []service.Diagnostic) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var svcs []*service.Service
	for _, f := range files {
		if strings.Contains(filepath.Base(f), ".golden.") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in := service.Decode(filepath.Base(f), data)
		svcs = append(svcs, in.Services...)
	}
	st, _, diags := desired.Build(svcs, cfg)
	return st, diags
}

// TestExamplesGolden renders every scenario's desired state as ARM JSON
// into examples/<scenario>/desired.golden.json, and the reconcile errors
// CCM would report into desired.golden.diagnostics.txt.
func TestExamplesGolden(t *testing.T) {
	cfg := exampleConfig(t)
	dirs, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join(examplesDir, d.Name())
		if !isScenario(dir) {
			continue // e.g. examples/rbac: no Services to render
		}
		t.Run(d.Name(), func(t *testing.T) {
			st, diags := exampleState(t, dir, cfg)
			var buf bytes.Buffer
			if err := JSON(&buf, st); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join(dir, "desired.golden.json"), buf.Bytes())
			diagPath := filepath.Join(dir, "desired.golden.diagnostics.txt")
			if len(diags) == 0 {
				if _, err := os.Stat(diagPath); err == nil && !*update {
					t.Errorf("%s exists but Build reported no diagnostics", diagPath)
				} else if *update {
					_ = os.Remove(diagPath)
				}
				return
			}
			golden(t, diagPath, diagnosticsText(diags))
		})
	}
}

func diagnosticsText(diags []service.Diagnostic) []byte {
	lines := make([]string, 0, len(diags))
	for _, d := range diags {
		lines = append(lines, fmt.Sprintf("%s: %s %s [%s] %s", d.Pos, d.Severity, d.Code, d.Service, d.Message))
	}
	sort.Strings(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the output (run go test -update and review the diff):\n%s", path, firstDiff(want, got))
	}
}

func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, w, g)
		}
	}
	return ""
}

// isScenario reports whether dir is a Service scenario: it has a
// service.yaml or golden desired state.
func isScenario(dir string) bool {
	for _, name := range []string{"service.yaml", "desired.golden.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}
