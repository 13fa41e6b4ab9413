package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/preflight"
)

func TestExitCodes(t *testing.T) {
	const invalid = "testdata/manifests/invalid"
	const warn = "testdata/manifests/warn"
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStdout string
		wantStderr string
	}{
		{name: "no args shows help", args: nil, want: 0, wantStdout: "Available Commands:"},
		{name: "unknown command", args: []string{"nosuch"}, want: 64, wantStderr: `unknown command "nosuch"`},
		{name: "misspelt command", args: []string{"validat"}, want: 64, wantStderr: "Did you mean this?"},
		{name: "unknown flag", args: []string{"validate", "--bogus"}, want: 64, wantStderr: "unknown flag: --bogus"},
		{name: "missing -f", args: []string{"validate"}, want: 64, wantStderr: "no input: give manifests with -f"},
		{name: "positional arg", args: []string{"validate", "-f", warn, "extra"}, want: 64,
			wantStderr: `unexpected argument "extra": validate reads manifests with -f: azsvc validate -f extra`},
		{name: "positional path to validate", args: []string{"validate", "examples/public-basic"}, want: 64,
			wantStderr: "azsvc validate -f examples/public-basic\nRun 'azsvc validate --help' for usage."},
		{name: "positional paths to render", args: []string{"render", "a b.yaml", "c"}, want: 64,
			wantStderr: `render reads manifests with -f: azsvc render -f 'a b.yaml' -f c`},
		{name: "positional path to plan", args: []string{"plan", "deploy/"}, want: 64,
			wantStderr: `unexpected argument "deploy/": plan reads manifests with -f: azsvc plan -f deploy/`},
		{name: "show without a plan", args: []string{"show"}, want: 64,
			wantStderr: "no saved plan: give the file azsvc plan --out wrote (azsvc show plan.json)"},
		{name: "show two plans", args: []string{"show", "a.json", "b.json"}, want: 64, wantStderr: `one saved plan at a time: got "a.json" and "b.json"`},
		{name: "apply a YAML manifest", args: []string{"apply", warn + "/shared.yaml"}, want: 64,
			wantStderr: warn + "/shared.yaml is a manifest, not a saved plan: use azsvc apply -f " + warn + "/shared.yaml"},
		{name: "apply a JSON manifest", args: []string{"apply", "testdata/args/service.json"}, want: 64,
			wantStderr: "testdata/args/service.json is a manifest, not a saved plan: use azsvc apply -f testdata/args/service.json"},
		{name: "apply a directory", args: []string{"apply", warn}, want: 64,
			wantStderr: warn + " is a directory of manifests, not a saved plan: use azsvc apply -f " + warn},
		{name: "show a manifest", args: []string{"show", "testdata/args/service.json"}, want: 64,
			wantStderr: "testdata/args/service.json is a manifest, not a saved plan: use azsvc plan -f testdata/args/service.json"},
		{name: "apply other JSON", args: []string{"apply", "testdata/args/not-a-plan.json"}, want: 5, wantStderr: "not a plan file azsvc wrote: it has no format_version"},
		{name: "unknown -o", args: []string{"validate", "-f", warn, "-o", "yaml"}, want: 64,
			wantStderr: `unknown output format "yaml": use one of text, json or sarif`},
		{name: "usage error points at help", args: []string{"validate"}, want: 64, wantStderr: "Run 'azsvc validate --help' for usage."},
		{name: "unreadable path", args: []string{"validate", "-f", "testdata/nosuch"}, want: 1, wantStderr: "no such file"},
		{name: "errors", args: []string{"validate", "-f", invalid}, want: 4, wantStdout: "error[AZSVC1001]"},
		{name: "warnings alone", args: []string{"validate", "-f", warn}, want: 0, wantStdout: "warning[AZSVC3001]"},
		{name: "help topic", args: []string{"help", "exit-codes"}, want: 0, wantStdout: "  130  interrupted"},
		{name: "unknown help topic", args: []string{"help", "nosuch"}, want: 64, wantStderr: "unknown help topic"},
		{name: "help for a command", args: []string{"help", "plan"}, want: 0, wantStdout: "detailed-exitcode"},
		{name: "emulator off loopback", args: []string{"emulator", "serve", "--listen", "0.0.0.0:0"}, want: 64, wantStderr: "loopback"},
		{name: "emulator bad write budget", args: []string{"emulator", "serve", "--write-budget", "1000/five"}, want: 64, wantStderr: "--write-budget \"1000/five\""},
		{name: "emulator negative polls", args: []string{"emulator", "serve", "--operation-polls", "-1"}, want: 64, wantStderr: "--operation-polls -1"},
		{name: "plan bad emulator budget", args: []string{"plan", "-f", warn, "--emulator-write-budget", "0"}, want: 64, wantStderr: "--emulator-write-budget \"0\""},
		{name: "environment topic", args: []string{"help", "environment"}, want: 0, wantStdout: "AZSVC_<COMMAND>_<FLAG>"},
		{name: "completion", args: []string{"completion", "bash"}, want: 0, wantStdout: "bash completion"},
		{name: "completion zsh", args: []string{"completion", "zsh"}, want: 0, wantStdout: "#compdef azsvc"},
		{name: "completion bad shell", args: []string{"completion", "tcsh"}, want: 64, wantStderr: "tcsh"},
		{name: "version", args: []string{"version"}, want: 0, wantStdout: "azsvc version v0.0.0-test"},
		{name: "--version", args: []string{"--version"}, want: 0, wantStdout: "azsvc version v0.0.0-test"},
		{name: "version -o", args: []string{"version", "-o", "sarif"}, want: 64, wantStderr: "use one of text or json"},
		{name: "render needs azure.json", args: []string{"render", "-f", warn}, want: 64, wantStderr: "pass --config azure.json"},
		{name: "render needs -f", args: []string{"render"}, want: 64},
		{name: "render -o", args: []string{"render", "-f", warn, "-o", "sarif"}, want: 64, wantStderr: "text, json, yaml or mermaid"},
		{name: "plan needs azure.json", args: []string{"plan", "-f", warn, "--detailed-exitcode"}, want: 64, wantStderr: "pass --config azure.json"},
		{name: "plan -o", args: []string{"plan", "-f", warn, "-o", "sarif"}, want: 64, wantStderr: "text, json, markdown or mermaid"},
		{name: "apply missing saved plan", args: []string{"apply", "plan.json"}, want: 1, wantStderr: "read saved plan"},
		{name: "apply needs input", args: []string{"apply", "--auto-approve"}, want: 64},
		{name: "apply plan and -f", args: []string{"apply", "plan.json", "-f", warn}, want: 64, wantStderr: "not both"},
		{name: "apply two plans", args: []string{"apply", "a.json", "b.json"}, want: 64, wantStderr: "one saved plan at a time"},
		{name: "-n without --from-cluster", args: []string{"validate", "-f", warn, "-n", "web"}, want: 64, wantStderr: "add --from-cluster"},
		{name: "--kubeconfig without --from-cluster", args: []string{"plan", "-f", warn, "--kubeconfig", "k"}, want: 64, wantStderr: "add --from-cluster"},
		{name: "--from-cluster needs no -f", args: []string{"plan", "--from-cluster"}, want: 64, wantStderr: "pass --config azure.json"},
		{name: "--update-status needs a cluster", args: []string{"apply", "-f", warn, "--update-status"}, want: 64, wantStderr: "--update-status writes to a cluster"},
		{name: "saved plan and --from-cluster", args: []string{"apply", "plan.json", "--from-cluster"}, want: 64, wantStderr: "saved plan already has its Services"},
		{name: "no kubeconfig", args: []string{"validate", "--from-cluster", "--kubeconfig", "testdata/nosuch"}, want: 1, wantStderr: "kubeconfig"},
		{name: "help rbac", args: []string{"help", "rbac"}, want: 0, wantStdout: "kind: ClusterRole"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := newCLI(t).run(tt.args...)
			if got.code != tt.want {
				t.Errorf("exit code = %d, want %d\nstderr: %s", got.code, tt.want, got.stderr)
			}
			if !strings.Contains(got.stdout, tt.wantStdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.wantStdout, got.stdout)
			}
			if !strings.Contains(got.stderr, tt.wantStderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.wantStderr, got.stderr)
			}
		})
	}
}

func TestInterrupted(t *testing.T) {
	c := newCLI(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c.ctx = ctx
	got := c.run("validate", "-f", "testdata/manifests/warn")
	if got.code != 130 {
		t.Errorf("exit code = %d, want 130; stderr: %s", got.code, got.stderr)
	}
}

func TestExitCodeHelpListsEveryCode(t *testing.T) {
	help := exitCodesHelp()
	for _, code := range []string{"0", "1", "2", "4", "5", "7", "64", "130"} {
		if !strings.Contains(help, "\n  "+code+" ") {
			t.Errorf("help exit-codes does not list %s:\n%s", code, help)
		}
	}
}

func TestVersionJSON(t *testing.T) {
	got := newCLI(t).run("version", "-o", "json")
	var b buildInfo
	if err := json.Unmarshal([]byte(got.stdout), &b); err != nil {
		t.Fatalf("version -o json: %v\n%s", err, got.stdout)
	}
	if b.Version != "v0.0.0-test" || b.Platform != "linux/amd64" {
		t.Errorf("version -o json = %+v", b)
	}
}

func TestNewBuildInfo(t *testing.T) {
	vcs := &debug.BuildInfo{Main: debug.Module{Path: "github.com/azsvc/azsvc", Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "fedcba9876543210fedcba9876543210fedcba98"},
		{Key: "vcs.time", Value: "2026-11-24T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	released := &debug.BuildInfo{Main: debug.Module{Path: "github.com/azsvc/azsvc", Version: "v1.4.0"}}
	tests := []struct {
		name                  string
		version, commit, date string
		info                  *debug.BuildInfo
		want                  buildInfo
	}{
		{"ldflags win", "v1.2.3", "0123456789abcdef0123", "2026-01-02T03:04:05Z", vcs,
			buildInfo{Version: "v1.2.3", Commit: "0123456789abcdef0123", Date: "2026-01-02T03:04:05Z", Modified: true}},
		{"plain go build in a clone: Go's VCS stamp", "", "", "", vcs,
			buildInfo{Version: "dev", Commit: "fedcba9876543210fedcba9876543210fedcba98", Date: "2026-11-24T10:00:00Z", Modified: true}},
		{"ldflags version, VCS commit and time", "v1.2.3", "", "", vcs,
			buildInfo{Version: "v1.2.3", Commit: "fedcba9876543210fedcba9876543210fedcba98", Date: "2026-11-24T10:00:00Z", Modified: true}},
		{"go install @v1.4.0", "", "", "", released, buildInfo{Version: "v1.4.0"}},
		{"nothing recorded", "", "", "", nil, buildInfo{Version: "dev"}},
	}
	for _, tt := range tests {
		got := newBuildInfo(tt.version, tt.commit, tt.date, tt.info)
		got.GoVersion, got.Platform = "", ""
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	b := newBuildInfo("", "", "", vcs)
	if s := b.String(); !strings.HasPrefix(s, "azsvc version dev, commit fedcba987654-dirty, built 2026-11-24T10:00:00Z, go") {
		t.Errorf("String() = %q", s)
	}
}

// --version and version print the same line: commit and date included.
func TestVersionFlagMatchesCommand(t *testing.T) {
	build := newBuildInfo("v1.2.3", "0123456789abcdef0123", "2026-01-02T03:04:05Z", nil)
	printed := func(args ...string) string {
		var out bytes.Buffer
		a := &app{io: &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: io.Discard}, build: build, dir: t.TempDir()}
		if code := run(context.Background(), a, args); code != exitOK {
			t.Fatalf("%v: exit %d", args, code)
		}
		return out.String()
	}
	isolateEnv(t)
	want := build.String() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if got := printed(args...); got != want {
			t.Errorf("%v printed %q, want %q", args, got, want)
		}
	}
}

// TestExitCodeOfErrors pins the one mapping from the errors commands
// return to exit codes.
func TestExitCodeOfErrors(t *testing.T) {
	partial := &apply.Error{Result: &apply.Result{Applied: []*apply.StepResult{{}}}}
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"runtime", errors.New("boom"), exitRuntime},
		{"usage", usageErrorf("bad"), exitUsage},
		{"target", &engine.TargetError{}, exitUsage},
		{"changes", &reported{errChangesPresent}, exitChanges},
		{"invalid", &reported{errInvalidInput}, exitInvalid},
		{"limits", fmt.Errorf("plan: %w", preflight.ErrRefused), exitInvalid},
		{"stale before any write", fmt.Errorf("x: %w", apply.ErrStale), exitStale},
		{"stale after a write", errors.Join(apply.ErrStale, partial), exitPartial},
		{"partial", apply.ErrPartial, exitPartial},
		{"interrupted", apply.ErrInterrupted, exitInterrupted},
		{"not approved", &reported{errNotApproved}, exitRuntime},
	}
	for _, tt := range tests {
		if got := exitCode(context.Background(), tt.err); got != tt.want {
			t.Errorf("%s: exit %d, want %d", tt.name, got, tt.want)
		}
	}
}

// Values that would reach ARM IDs or URLs are checked before anything is
// read: a subscription that is not a GUID, an endpoint carrying a password.
func TestTargetValuesAreChecked(t *testing.T) {
	c := newCLI(t)
	res := c.run(exampleArgs(c, "public-basic", "plan", "--subscription", "../../x")...)
	if res.code != exitUsage || !strings.Contains(res.stderr, "is not a subscription ID") {
		t.Errorf("--subscription ../../x: exit %d\n%s", res.code, res.stderr)
	}
	res = c.run("--settings", "../../examples/azsvc.yaml", "plan", "-f", "../../examples/public-basic", "--target", "auto",
		"--arm-endpoint", "http://user:s3cretpw@127.0.0.1:1", "--arm-token", "t")
	if res.code != exitUsage || strings.Contains(res.stderr, "s3cretpw") || !strings.Contains(res.stderr, "user info") {
		t.Errorf("--arm-endpoint with a password: exit %d\n%s", res.code, res.stderr)
	}
	saved := filepath.Join(c.dir, "x.json")
	res = c.run(exampleArgs(c, "invalid", "plan", "--out", saved)...)
	if res.code != exitInvalid || !strings.Contains(res.stderr, "Not saved to "+saved) {
		t.Errorf("plan --out with errors: exit %d\n%s", res.code, res.stderr)
	}
}
