package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// ciStep is one step of a CI recipe that runs a shell script: GitHub's
// run, Azure Pipelines' script or AzureCLI@2's inlineScript.
type ciStep struct {
	name, id, script string
	env              map[string]string
}

// ciRecipe is a workflow or pipeline: its variables and its shell steps,
// in order.
type ciRecipe struct {
	file  string
	env   map[string]string
	steps []ciStep
}

func loadRecipe(t *testing.T, file string) *ciRecipe {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	r := &ciRecipe{file: file, env: stringMap(doc["env"])}
	for k, v := range stringMap(doc["variables"]) {
		r.env[k] = v
	}
	collectSteps(doc, r)
	return r
}

// collectSteps walks the document for "steps" lists in document order
// (jobs, stages, deployment strategies), keeping the shell steps.
func collectSteps(v any, r *ciRecipe) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // "plan" stage before "apply" needs no order: tests look steps up by name
		for _, k := range keys {
			if k == "steps" {
				for _, s := range asList(t[k]) {
					if step, ok := shellStep(s); ok {
						r.steps = append(r.steps, step)
					}
				}
				continue
			}
			collectSteps(t[k], r)
		}
	case []any:
		for _, x := range t {
			collectSteps(x, r)
		}
	}
}

func shellStep(v any) (ciStep, bool) {
	m, _ := v.(map[string]any)
	s := ciStep{env: stringMap(m["env"])}
	s.name, _ = m["name"].(string)
	if s.name == "" {
		s.name, _ = m["displayName"].(string)
	}
	s.id, _ = m["id"].(string)
	for _, key := range []string{"run", "script"} {
		if script, ok := m[key].(string); ok {
			s.script = script
		}
	}
	if in, ok := m["inputs"].(map[string]any); ok {
		if script, ok := in["inlineScript"].(string); ok {
			s.script = script
		}
	}
	return s, s.script != ""
}

func (r *ciRecipe) step(t *testing.T, name string) ciStep {
	t.Helper()
	for _, s := range r.steps {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("%s: no step %q", r.file, name)
	return ciStep{}
}

func asList(v any) []any { l, _ := v.([]any); return l }

func stringMap(v any) map[string]string {
	out := map[string]string{}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			out[k] = fmt.Sprint(x)
		}
	}
	return out
}

var (
	ghExpr  = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)
	adoExpr = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_.]*)\)`)
)

// ciRun runs recipe steps as the CI system would, in dir: GitHub's
// ${{ expressions }} and Azure Pipelines' $(macros) replaced from vars
// (a macro that names no variable stays, as Azure Pipelines leaves it);
// steps.ID.outputs.NAME from what earlier steps wrote to $GITHUB_OUTPUT.
type ciRun struct {
	t       *testing.T
	dir     string
	vars    map[string]string
	env     []string // extra environment: PATH, the emulator target
	outputs map[string]string
}

func (c *ciRun) expand(s string) string {
	s = ghExpr.ReplaceAllStringFunc(s, func(m string) string {
		expr := ghExpr.FindStringSubmatch(m)[1]
		if v, ok := c.outputs[expr]; ok {
			return v
		}
		return c.vars[expr]
	})
	return adoExpr.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := c.vars[adoExpr.FindStringSubmatch(m)[1]]; ok {
			return v
		}
		return m
	})
}

// run runs one step with bash as GitHub does (-eo pipefail) and returns
// its exit code and output.
func (c *ciRun) run(r *ciRecipe, s ciStep) (int, string) {
	c.t.Helper()
	outFile := filepath.Join(c.t.TempDir(), "github_output")
	env := append([]string{"GITHUB_OUTPUT=" + outFile, "GITHUB_STEP_SUMMARY=" + filepath.Join(c.t.TempDir(), "summary")}, c.env...)
	for _, m := range []map[string]string{r.env, s.env} {
		for k, v := range m {
			env = append(env, k+"="+c.expand(v))
		}
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", c.expand(s.script))
	cmd.Dir, cmd.Env = c.dir, env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("%s: %s: %v", r.file, s.name, err)
	}
	if data, err := os.ReadFile(outFile); err == nil && s.id != "" {
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				c.outputs["steps."+s.id+".outputs."+k] = v
			}
		}
	}
	return code, string(out)
}

// ciPath builds azsvc for a recipe test and returns a PATH that finds it
// first (the build cache makes the second build quick).
func ciPath(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "azsvc"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
}
