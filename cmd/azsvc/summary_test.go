package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChooseSummaryFile(t *testing.T) {
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	gh := env(map[string]string{stepSummaryEnv: "/runner/step_summary"})
	tests := []struct {
		name, flag, format string
		lookup             func(string) (string, bool)
		want               summaryFile
		ok                 bool
	}{
		{"flag, any format", "s.md", "text", gh, summaryFile{path: "s.md"}, true},
		{"step summary for markdown", "", "markdown", gh, summaryFile{path: "/runner/step_summary", implicit: true}, true},
		{"not for json", "", "json", gh, summaryFile{}, false},
		{"empty variable is unset", "", "markdown", env(map[string]string{stepSummaryEnv: ""}), summaryFile{}, false},
		{"nothing", "", "markdown", env(nil), summaryFile{}, false},
	}
	for _, tt := range tests {
		got, ok := chooseSummaryFile(tt.flag, tt.format, tt.lookup)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCIRunURL(t *testing.T) {
	tests := []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "42"}, "https://github.com/o/r/actions/runs/42"},
		{map[string]string{"SYSTEM_COLLECTIONURI": "https://dev.azure.com/org/", "SYSTEM_TEAMPROJECT": "My Project", "BUILD_BUILDID": "7"},
			"https://dev.azure.com/org/My%20Project/_build/results?buildId=7"},
		{map[string]string{"GITHUB_RUN_ID": "42"}, ""},
	}
	for _, tt := range tests {
		got := ciRunURL(func(k string) (string, bool) { v, ok := tt.vars[k]; return v, ok })
		if got != tt.want {
			t.Errorf("ciRunURL(%v) = %q, want %q", tt.vars, got, tt.want)
		}
	}
}

// TestStepSummary: in GitHub Actions, plan -o markdown appends the whole
// plan to the job's step summary, as GitHub documents, and an explicit
// --summary-file is written anew, whatever -o is.
func TestStepSummary(t *testing.T) {
	c := newCLI(t)
	step := filepath.Join(c.dir, "step_summary")
	writeFile(t, step, "earlier step\n")
	t.Setenv(stepSummaryEnv, step)
	t.Setenv("GITHUB_SERVER_URL", "https://github.com")
	t.Setenv("GITHUB_REPOSITORY", "o/r")
	t.Setenv("GITHUB_RUN_ID", "42")
	res := c.run(loopArgs(c, "plan", "-o", "markdown")...)
	data, err := os.ReadFile(step)
	if res.code != exitOK || err != nil || !strings.HasPrefix(string(data), "earlier step\n<!-- azsvc:plan v1") {
		t.Fatalf("step summary: exit %d, %v\n%s\n%s", res.code, err, data, res.stderr)
	}
	if !strings.Contains(res.stdout, "[CI run](https://github.com/o/r/actions/runs/42)") {
		t.Errorf("the comment does not link the run:\n%s", res.stdout)
	}
	if res := c.run(loopArgs(c, "plan", "-o", "json")...); res.code != exitOK {
		t.Fatalf("plan -o json: exit %d", res.code)
	}
	if again, _ := os.ReadFile(step); string(again) != string(data) {
		t.Errorf("plan -o json wrote the step summary")
	}
	own := filepath.Join(c.dir, "summary.md")
	writeFile(t, own, "stale\n")
	if res := c.run(loopArgs(c, "plan", "--summary-file", own)...); res.code != exitOK || !strings.Contains(res.stdout, "Plan: 7 to create") {
		t.Fatalf("plan --summary-file: exit %d\n%s", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(own); !strings.HasPrefix(string(data), "<!-- azsvc:plan v1") {
		t.Errorf("--summary-file not rewritten as markdown:\n%.300s", data)
	}
	if res := c.run(loopArgs(c, "plan", "--summary-file", filepath.Join(c.dir, "no", "such", "dir.md"))...); res.code != exitRuntime {
		t.Errorf("an unwritable --summary-file: exit %d, want %d", res.code, exitRuntime)
	}
}
