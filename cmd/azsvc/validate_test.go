package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// transcript is a whole run as one golden file: exit code, stderr, stdout.
func transcript(r result) string {
	return fmt.Sprintf("exit: %d\n--- stderr\n%s--- stdout\n%s", r.code, r.stderr, r.stdout)
}

func TestValidateGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"invalid_text", []string{"-f", "testdata/manifests/invalid"}},
		{"invalid_json", []string{"-f", "testdata/manifests/invalid", "-o", "json"}},
		{"invalid_sarif", []string{"-f", "testdata/manifests/invalid", "-o", "sarif"}},
		{"warn_text", []string{"-f", "testdata/manifests/warn"}},
		{"two_inputs_json", []string{"-f", "testdata/manifests/warn/shared.yaml", "-f", "testdata/manifests/invalid/pls.yaml", "-o", "json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := newCLI(t).run(append([]string{"validate"}, tt.args...)...)
			assertGolden(t, filepath.Join("testdata", "validate_"+tt.name+".golden"), transcript(got))
		})
	}
}

// TestValidateExamplesGolden runs validate over the repository's
// examples/invalid set in all three formats, from the repository root so
// paths read as a user would see them.
func TestValidateExamplesGolden(t *testing.T) {
	golden, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join("..", ".."))
	entries, err := os.ReadDir(filepath.Join("examples", "invalid"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("examples/invalid must hold manifests: %v", err)
	}
	for _, format := range []string{"text", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			got := newCLI(t).run("validate", "-f", "examples/invalid/", "-o", format)
			if got.code != exitInvalid {
				t.Errorf("exit code = %d, want %d (examples/invalid must contain errors)", got.code, exitInvalid)
			}
			assertGolden(t, filepath.Join(golden, "examples_invalid_"+format+".golden"), transcript(got))
		})
	}
	// Every other scenario is meant to be valid. Scenario directories also
	// hold golden outputs, so pass their manifests, not the directories.
	t.Run("valid examples", func(t *testing.T) {
		manifests, err := filepath.Glob(filepath.Join("examples", "*", "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var args []string
		for _, m := range manifests {
			// exported-without-uid holds one set of Services twice, with
			// and without UIDs (engine's TestAdoptUIDFromAzure).
			if d := filepath.Base(filepath.Dir(m)); d != "invalid" && m != filepath.Join("examples", "exported-without-uid", "exported.yaml") {
				args = append(args, "-f", m)
			}
		}
		if len(args) < 24 {
			t.Fatalf("found %d example manifests, want at least 12", len(args)/2)
		}
		got := newCLI(t).run(append([]string{"validate"}, args...)...)
		if got.code != exitOK {
			t.Errorf("validating the valid examples exits %d, want 0:\n%s", got.code, got.stdout)
		}
	})
}

func TestValidateStdin(t *testing.T) {
	c := newCLI(t)
	data, err := os.ReadFile("testdata/manifests/invalid/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c.stdin = string(data)
	got := c.run("validate", "-f", "-", "-o", "sarif")
	if got.code != exitInvalid {
		t.Errorf("exit code = %d, want 4; stderr: %s", got.code, got.stderr)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(got.stdout), &log); err != nil {
		t.Fatal(err)
	}
	loc := log.Runs[0].Results[0].Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "stdin" || loc.Region.StartLine != 8 {
		t.Errorf("stdin finding at %s:%d, want stdin:8", loc.ArtifactLocation.URI, loc.Region.StartLine)
	}
}

func TestValidateColor(t *testing.T) {
	const esc = "\x1b["
	tests := []struct {
		name   string
		tty    bool
		env    map[string]string
		args   []string
		colour bool
	}{
		{name: "terminal", tty: true, colour: true},
		{name: "pipe", tty: false, colour: false},
		{name: "--no-color", tty: true, args: []string{"--no-color"}, colour: false},
		{name: "NO_COLOR", tty: true, env: map[string]string{"NO_COLOR": "1"}, colour: false},
		{name: "AZSVC_NO_COLOR", tty: true, env: map[string]string{"AZSVC_NO_COLOR": "true"}, colour: false},
		{name: "CLICOLOR_FORCE", tty: false, env: map[string]string{"CLICOLOR_FORCE": "1"}, colour: true},
		{name: "FORCE_COLOR", tty: false, env: map[string]string{"FORCE_COLOR": "1"}, colour: true},
		{name: "json never", tty: true, args: []string{"-o", "json"}, colour: false},
		{name: "sarif never", tty: true, env: map[string]string{"FORCE_COLOR": "1"}, args: []string{"-o", "sarif"}, colour: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			c.outTTY = tt.tty
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			got := c.run(append([]string{"validate", "-f", "testdata/manifests/invalid"}, tt.args...)...)
			if has := strings.Contains(got.stdout, esc); has != tt.colour {
				t.Errorf("colour in stdout = %v, want %v:\n%q", has, tt.colour, got.stdout)
			}
		})
	}
}

// TestValidateOptions checks flag parsing alone, with the run replaced.
func TestValidateOptions(t *testing.T) {
	c := newCLI(t)
	var got *validateOptions
	c.replace = func(a *app) *cobra.Command {
		return newValidateCmd(a, func(_ context.Context, o *validateOptions) error { got = o; return nil })
	}
	res := c.run("validate", "-f", "a.yaml,b/", "-f", "-", "-o", "sarif")
	if res.code != 0 || got == nil {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if strings.Join(got.Files, " ") != "a.yaml b/ -" || got.Output != "sarif" {
		t.Errorf("options = files %q, output %q", got.Files, got.Output)
	}
}

// Input with no LoadBalancer Service is a warning (AZSVC3018), not a
// silent "0 Services checked": exit 0 still, for validate only; plan of
// the same input keeps its own behaviour.
func TestValidateNothingChecked(t *testing.T) {
	c := newCLI(t)
	empty := filepath.Join(c.dir, "empty.yaml")
	writeFile(t, empty, "")
	res := c.run("validate", "-f", empty)
	if res.code != exitOK || !strings.Contains(res.stdout, empty+": warning[AZSVC3018]: no Service of type LoadBalancer in the input: nothing was checked") ||
		!strings.Contains(res.stderr, "0 Services checked, 0 errors, 1 warning") {
		t.Errorf("validate of an empty file: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	res = c.run("validate", "-f", "testdata/manifests/warn")
	if strings.Contains(res.stdout, "AZSVC3018") {
		t.Errorf("AZSVC3018 for input with Services:\n%s", res.stdout)
	}
	res = c.run("--settings", "../../examples/azsvc.yaml", "plan", "-f", empty, "--state", filepath.Join(c.dir, "state.json"))
	if strings.Contains(res.stdout+res.stderr, "AZSVC3018") {
		t.Errorf("plan warns AZSVC3018 (validate only):\n%s\n%s", res.stdout, res.stderr)
	}
}

// SARIF URIs are relative to the git work tree's root (a .git directory,
// or a .git file as in a linked worktree), whatever directory validate
// runs in; without a work tree, to the working directory; a file outside
// gets an absolute file:// URI.
func TestValidateSARIFURIsRepoRelative(t *testing.T) {
	manifest, err := os.ReadFile("testdata/manifests/invalid/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside.yaml")
	writeFile(t, outside, string(manifest))
	tests := []struct {
		name, git string // git: "", "dir" or "file"
		want      []string
	}{
		{"git directory", "dir", []string{"deploy/web.yaml", "file://" + filepath.ToSlash(outside)}},
		{"git file (worktree)", "file", []string{"deploy/web.yaml", "file://" + filepath.ToSlash(outside)}},
		{"no work tree", "", []string{"web.yaml", "file://" + filepath.ToSlash(outside)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			root := c.dir
			switch tt.git {
			case "dir":
				if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			case "file":
				writeFile(t, filepath.Join(root, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n")
			}
			c.dir = filepath.Join(root, "deploy")
			if err := os.Mkdir(c.dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(c.dir, "web.yaml"), string(manifest))
			t.Chdir(c.dir)
			res := c.run("validate", "-f", "web.yaml", "-f", outside, "-o", "sarif")
			if res.code != exitInvalid {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			var log struct {
				Runs []struct {
					Results []struct {
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct{ URI, URIBaseID string }
							}
						}
					}
				}
			}
			if err := json.Unmarshal([]byte(res.stdout), &log); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, r := range log.Runs[0].Results {
				a := r.Locations[0].PhysicalLocation.ArtifactLocation
				seen[a.URI] = true
				if relative := !strings.HasPrefix(a.URI, "file:"); relative != (a.URIBaseID == "%SRCROOT%") {
					t.Errorf("%s: uriBaseId %q", a.URI, a.URIBaseID)
				}
			}
			for _, want := range tt.want {
				if !seen[want] {
					t.Errorf("no result at %s; URIs: %v", want, seen)
				}
			}
			if len(seen) != len(tt.want) {
				t.Errorf("URIs %v, want %v", seen, tt.want)
			}
		})
	}
}
