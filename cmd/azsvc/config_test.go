package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/service"
)

// capturePlan replaces plan with a version that records its options
// instead of running.
func capturePlan(got **planOptions) func(a *app) *cobra.Command {
	return func(a *app) *cobra.Command {
		return newPlanCmd(a, func(_ context.Context, o *planOptions) error {
			*got = o
			return nil
		})
	}
}

func TestConfigPrecedence(t *testing.T) {
	const global = "cluster-name: file-global\n"
	const scoped = "plan:\n  cluster-name: file-scoped\n"
	tests := []struct {
		name string
		file string
		env  map[string]string
		args []string
		want string
	}{
		{name: "default", want: ""},
		{name: "file", file: global, want: "file-global"},
		{name: "file camelCase key", file: "clusterName: camel\n", want: "camel"},
		{name: "file scoped beats file global", file: global + scoped, want: "file-scoped"},
		{name: "env beats file", file: global + scoped, env: map[string]string{"AZSVC_CLUSTER_NAME": "env-global"}, want: "env-global"},
		{name: "env scoped beats env global", env: map[string]string{
			"AZSVC_CLUSTER_NAME": "env-global", "AZSVC_PLAN_CLUSTER_NAME": "env-scoped"}, want: "env-scoped"},
		{name: "flag beats env and file", file: global + scoped,
			env:  map[string]string{"AZSVC_CLUSTER_NAME": "env-global", "AZSVC_PLAN_CLUSTER_NAME": "env-scoped"},
			args: []string{"--cluster-name", "flag"}, want: "flag"},
		{name: "empty env is unset", file: global, env: map[string]string{"AZSVC_CLUSTER_NAME": ""}, want: "file-global"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			if tt.file != "" {
				writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), tt.file)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var got *planOptions
			c.replace = capturePlan(&got)
			res := c.run(append([]string{"plan", "-f", "x"}, tt.args...)...)
			if res.code != 0 || got == nil {
				t.Fatalf("exit %d, stderr: %s", res.code, res.stderr)
			}
			if got.Cluster.ClusterName != tt.want {
				t.Errorf("cluster name = %q, want %q", got.Cluster.ClusterName, tt.want)
			}
		})
	}
}

func TestConfigValueTypes(t *testing.T) {
	c := newCLI(t)
	writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), `
filename: [a.yaml, b/]
prune: true
fail-on: warning
plan:
  output: json
  out: saved.json
config: azure.json
`)
	t.Setenv("AZSVC_PLAN_DETAILED_EXITCODE", "true")
	t.Setenv("AZSVC_STATE", "state.json")
	var got *planOptions
	c.replace = capturePlan(&got)
	if res := c.run("plan"); res.code != 0 || got == nil {
		t.Fatalf("exit %d, stderr: %s", res.code, res.stderr)
	}
	want := planOptions{
		inputOptions: inputOptions{Files: []string{"a.yaml", "b/"}, MaxInputSize: byteSize(service.DefaultMaxInputSize)},
		Kube:         kubeOptions{Focusable: true},
		Cluster:      clusterOptions{AzureConfig: filepath.Join(c.dir, "azure.json")}, // relative to azsvc.yaml
		Target: targetOptions{Target: "auto", State: "state.json", Prune: true, Origins: map[string]engine.Origin{
			"config":            {Rank: engine.RankFile, Where: "azsvc.yaml (config)"},
			"detailed-exitcode": {Rank: engine.RankEnv, Where: "env AZSVC_PLAN_DETAILED_EXITCODE"},
			"fail-on":           {Rank: engine.RankFile, Where: "azsvc.yaml (fail-on)"},
			"filename":          {Rank: engine.RankFile, Where: "azsvc.yaml (filename)"},
			"out":               {Rank: engine.RankFile, Where: "azsvc.yaml (plan.out)"},
			"output":            {Rank: engine.RankFile, Where: "azsvc.yaml (plan.output)"},
			"prune":             {Rank: engine.RankFile, Where: "azsvc.yaml (prune)"},
			"state":             {Rank: engine.RankEnv, Where: "env AZSVC_STATE"},
		}},
		DetailedExitcode: true,
		FailOn:           failOnWarning,
		Out:              "saved.json",
		Output:           "json",
	}
	got.IO = nil
	if diff := cmp.Diff(want, *got, cmp.AllowUnexported(planOptions{}, targetOptions{})); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}

func TestConfigEnvList(t *testing.T) {
	c := newCLI(t)
	t.Setenv("AZSVC_FILENAME", "a.yaml,b/")
	var got *planOptions
	c.replace = capturePlan(&got)
	if res := c.run("plan"); res.code != 0 || got == nil {
		t.Fatalf("exit %d, stderr: %s", res.code, res.stderr)
	}
	if diff := cmp.Diff([]string{"a.yaml", "b/"}, got.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestConfigFileSelection(t *testing.T) {
	c := newCLI(t)
	writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), "cluster-name: from-default\n")
	other := filepath.Join(t.TempDir(), "other.yaml")
	writeFile(t, other, "cluster-name: from-other\n")
	var got *planOptions
	c.replace = capturePlan(&got)

	c.run("plan", "-f", "x", "--settings", other)
	if got.Cluster.ClusterName != "from-other" {
		t.Errorf("--config: cluster name = %q, want from-other", got.Cluster.ClusterName)
	}
	t.Setenv("AZSVC_SETTINGS", other)
	c.run("plan", "-f", "x")
	if got.Cluster.ClusterName != "from-other" {
		t.Errorf("AZSVC_SETTINGS: cluster name = %q, want from-other", got.Cluster.ClusterName)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name       string
		file       string
		env        map[string]string
		args       []string
		want       int
		wantStderr string
	}{
		{name: "bad bool from env", env: map[string]string{"AZSVC_NO_COLOR": "maybe"}, want: 64,
			wantStderr: "invalid value for --no-color from env AZSVC_NO_COLOR"},
		{name: "bad -o from file", file: "output: yaml\n", want: 64, wantStderr: `unknown output format "yaml"`},
		{name: "missing --settings", args: []string{"--settings", "nosuch.yaml"}, want: 1, wantStderr: "config file: stat nosuch.yaml"},
		{name: "malformed file", file: "cluster-name: [\n", want: 1, wantStderr: "read config file"},
		{name: "azure.json as config", file: `{"tenantId": "t", "resourceGroup": "rg", "location": "westeurope"}`, want: 64,
			wantStderr: "looks like the cloud provider's azure.json"},
		{name: "unknown key warns", file: "clustr-name: x\nvalidate:\n  outptu: json\n", want: 0,
			wantStderr: `unknown key "clustr-name" is ignored`},
		{name: "unknown key warned", file: "cluster-nmae: prod\n", want: 0,
			wantStderr: `unknown key "cluster-nmae" is ignored`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			if tt.file != "" {
				writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), tt.file)
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			args := append([]string{"validate", "-f", "testdata/manifests/warn"}, tt.args...)
			got := c.run(args...)
			if got.code != tt.want {
				t.Errorf("exit code = %d, want %d; stderr: %s", got.code, tt.want, got.stderr)
			}
			if !strings.Contains(got.stderr, tt.wantStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.wantStderr, got.stderr)
			}
		})
	}
}

func TestUnknownKeysScoped(t *testing.T) {
	c := newCLI(t)
	writeFile(t, filepath.Join(c.dir, "azsvc.yaml"),
		"validate:\n  outptu: json\n  output: json\nplan:\n  detailedExitcode: true\nno-color: true\nverbose: 1\n")
	got := c.run("validate", "-f", "testdata/manifests/warn")
	if !strings.Contains(got.stderr, `unknown key "validate.outptu"`) {
		t.Errorf("misspelt scoped key not reported:\n%s", got.stderr)
	}
	for _, ok := range []string{"validate.output", "plan.detailedexitcode", "no-color", "verbose"} {
		if strings.Contains(got.stderr, `"`+ok+`"`) {
			t.Errorf("valid key %s reported as unknown:\n%s", ok, got.stderr)
		}
	}
}

func TestVerboseShowsSources(t *testing.T) {
	c := newCLI(t)
	writeFile(t, filepath.Join(c.dir, "azsvc.yaml"), "validate:\n  output: json\n")
	t.Setenv("AZSVC_NO_COLOR", "true")
	got := c.run("validate", "-f", "testdata/manifests/warn", "-v")
	for _, want := range []string{
		"using settings file " + filepath.Join(c.dir, "azsvc.yaml"),
		"--output from azsvc.yaml (validate.output)",
		"--no-color from env AZSVC_NO_COLOR",
	} {
		if !strings.Contains(got.stderr, want) {
			t.Errorf("stderr does not contain %q:\n%s", want, got.stderr)
		}
	}
	if !strings.HasPrefix(got.stdout, "{") {
		t.Errorf("validate.output from the file was not applied:\n%s", got.stdout)
	}
}
