package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// runScript runs a hack/action script with env added to a clean
// environment (PATH and HOME only, so a runner's GITHUB_* never leaks in).
func runScript(t *testing.T, script string, env map[string]string) (stdout, stderr string, err error) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the action's scripts run under bash; tested on Linux and macOS")
	}
	cmd := exec.Command("bash", filepath.Join("../../hack/action", script))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// TestInstallScript runs the action's install script against a release
// directory laid out as make release lays it out, from this test's build.
func TestInstallScript(t *testing.T) {
	dir, archive := fakeRelease(t, testVersion, azsvcBinary(t))
	checkInstall(t, dir, archive, testVersion)
}

// TestInstallFromMakeRelease runs the same checks against the output of
// make release, which takes minutes: AZSVC_RELEASE_DIR=dist and
// AZSVC_RELEASE_VERSION=vX.Y.Z (the VERSION it was made with) enable it.
func TestInstallFromMakeRelease(t *testing.T) {
	dir, version := os.Getenv("AZSVC_RELEASE_DIR"), os.Getenv("AZSVC_RELEASE_VERSION")
	if dir == "" || version == "" {
		t.Skip("AZSVC_RELEASE_DIR and AZSVC_RELEASE_VERSION are not set (make release, then AZSVC_RELEASE_DIR=$PWD/dist AZSVC_RELEASE_VERSION=...)")
	}
	archive := archiveName(t, readGoreleaserConfig(t), version, runtime.GOOS, runtime.GOARCH)
	checkInstall(t, dir, archive, version)
}

func checkInstall(t *testing.T, releaseDir, archive, version string) {
	// Each case gets its own copy of the release, which it may spoil.
	copyRelease := func(t *testing.T) string {
		dst := t.TempDir()
		for _, name := range []string{archive, "SHA256SUMS"} {
			b, err := os.ReadFile(filepath.Join(releaseDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dst
	}
	archiveSum := func(t *testing.T, dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, archive))
		if err != nil {
			t.Fatal(err)
		}
		return sha256Hex(b)
	}
	tests := []struct {
		name    string
		spoil   func(t *testing.T, dir string, env map[string]string)
		wantErr string // empty: installs
	}{
		{name: "release directory"},
		{name: "file URL", spoil: func(_ *testing.T, dir string, env map[string]string) {
			env["AZSVC_BASE_URL"] = "file://" + dir
		}},
		{name: "version without v", spoil: func(_ *testing.T, _ string, env map[string]string) {
			env["AZSVC_VERSION"] = strings.TrimPrefix(version, "v")
		}},
		{name: "pinned checksum, no SHA256SUMS", spoil: func(t *testing.T, dir string, env map[string]string) {
			env["AZSVC_SHA256"] = strings.ToUpper(archiveSum(t, dir))
			os.Remove(filepath.Join(dir, "SHA256SUMS"))
		}},
		{name: "tampered archive", wantErr: "checksum mismatch for " + archive, spoil: func(t *testing.T, dir string, _ map[string]string) {
			appendTo(t, filepath.Join(dir, archive), "\x00")
		}},
		{name: "tampered archive, pinned checksum", wantErr: "checksum mismatch", spoil: func(t *testing.T, dir string, env map[string]string) {
			env["AZSVC_SHA256"] = archiveSum(t, dir)
			appendTo(t, filepath.Join(dir, archive), "\x00")
		}},
		{name: "pinned checksum of another file", wantErr: "checksum mismatch", spoil: func(_ *testing.T, _ string, env map[string]string) {
			env["AZSVC_SHA256"] = strings.Repeat("ab", 32)
		}},
		{name: "no line for the archive", wantErr: "has no line for " + archive, spoil: func(t *testing.T, dir string, _ map[string]string) {
			if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Repeat("0", 64)+"  azsvc_other.tar.gz\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "archive of another version", wantErr: "refusing to install", spoil: func(t *testing.T, dir string, env map[string]string) {
			// The same bytes named as v0.0.99's, checksums and all: only
			// the binary's own version line can tell.
			other := archiveName(t, readGoreleaserConfig(t), "v0.0.99", runtime.GOOS, runtime.GOARCH)
			sums := archiveSum(t, dir) + "  " + other + "\n"
			if err := os.Rename(filepath.Join(dir, archive), filepath.Join(dir, other)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
				t.Fatal(err)
			}
			env["AZSVC_VERSION"] = "v0.0.99"
		}},
		{name: "missing release", wantErr: "no azsvc_", spoil: func(_ *testing.T, _ string, env map[string]string) {
			env["AZSVC_VERSION"] = "v0.0.1"
		}},
		{name: "not a version", wantErr: "must be a release version", spoil: func(_ *testing.T, _ string, env map[string]string) {
			env["AZSVC_VERSION"] = "latest"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, installDir, gh := copyRelease(t), t.TempDir(), t.TempDir()
			env := map[string]string{
				"AZSVC_VERSION":     version,
				"AZSVC_BASE_URL":    dir,
				"AZSVC_INSTALL_DIR": installDir,
				"GITHUB_PATH":       filepath.Join(gh, "path"),
				"GITHUB_OUTPUT":     filepath.Join(gh, "output"),
			}
			if tt.spoil != nil {
				tt.spoil(t, dir, env)
			}
			stdout, stderr, err := runScript(t, "install.sh", env)
			bin := filepath.Join(installDir, "azsvc")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(stderr, tt.wantErr) {
					t.Fatalf("install.sh: err %v, stderr %q; want a failure saying %q", err, stderr, tt.wantErr)
				}
				if _, err := os.Stat(bin); err == nil {
					t.Errorf("install.sh failed but left %s", bin)
				}
				return
			}
			if err != nil {
				t.Fatalf("install.sh: %v\n%s", err, stderr)
			}
			if got := strings.TrimSpace(stdout); got != bin {
				t.Errorf("install.sh printed %q, want the binary's path %q", got, bin)
			}
			out, err := exec.Command(bin, "version").Output()
			if err != nil || !strings.HasPrefix(string(out), "azsvc version "+version+",") {
				t.Errorf("installed azsvc version: %q, %v; want azsvc version %s", out, err, version)
			}
			wantFile(t, env["GITHUB_PATH"], installDir+"\n")
			wantFile(t, env["GITHUB_OUTPUT"], "path="+bin+"\n")
		})
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func wantFile(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Errorf("%s: %q, %v; want %q", filepath.Base(path), b, err, want)
	}
}

// TestRunScript runs the action's command step: the command's words as
// bash reads them, its exit code in GITHUB_OUTPUT, the step passing only on
// the exit codes it is told pass.
func TestRunScript(t *testing.T) {
	bin := azsvcBinary(t)
	tests := []struct {
		name     string
		command  string
		ok       string
		wantCode string
		wantErr  bool
		wantOut  string
	}{
		{name: "success", command: "version", wantCode: "0", wantOut: "azsvc version " + testVersion},
		{name: "quoted words", command: `version -o "json"`, wantCode: "0", wantOut: `"version": "` + testVersion + `"`},
		{name: "several lines", command: "version \\\n  -o\njson\n", wantCode: "0", wantOut: `"version": "` + testVersion + `"`},
		{name: "usage error fails the step", command: "plan", wantCode: "64", wantErr: true},
		{name: "exit code listed as passing", command: "plan", ok: "0 2 64", wantCode: "64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			env := map[string]string{
				"AZSVC_BIN":     bin,
				"AZSVC_COMMAND": tt.command,
				"AZSVC_STDOUT":  filepath.Join(dir, "stdout"),
				"GITHUB_OUTPUT": filepath.Join(dir, "output"),
			}
			if tt.ok != "" {
				env["AZSVC_OK_EXIT_CODES"] = tt.ok
			}
			_, stderr, err := runScript(t, "run.sh", env)
			if (err != nil) != tt.wantErr {
				t.Fatalf("run.sh: err %v, want error %v\n%s", err, tt.wantErr, stderr)
			}
			if tt.wantErr && (err.(*exec.ExitError).ExitCode() != 64 || !strings.Contains(stderr, "::error")) {
				t.Errorf("run.sh: %v, stderr %q; want exit 64 and an ::error annotation", err, stderr)
			}
			wantFile(t, env["GITHUB_OUTPUT"], "exit-code="+tt.wantCode+"\n")
			out, _ := os.ReadFile(env["AZSVC_STDOUT"])
			if !strings.Contains(string(out), tt.wantOut) {
				t.Errorf("stdout %q does not hold %q", out, tt.wantOut)
			}
		})
	}
}

// TestActionYAML: action.yml is a composite action whose steps run scripts
// that exist, and whose ${{ inputs.X }} and ${{ steps.Y.outputs.Z }} name
// inputs and steps it has.
func TestActionYAML(t *testing.T) {
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Required bool `yaml:"required"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID  string `yaml:"id"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("action.yml runs.using = %q, want composite", action.Runs.Using)
	}
	if !action.Inputs["version"].Required {
		t.Error("action.yml: the version input must be required (a release is always pinned)")
	}
	steps := map[string]bool{}
	for _, s := range action.Runs.Steps {
		steps[s.ID] = true
		for _, m := range regexp.MustCompile(`\$GITHUB_ACTION_PATH/([^"' ]+)`).FindAllStringSubmatch(s.Run, -1) {
			fi, err := os.Stat(filepath.Join("../..", m[1]))
			if err != nil || fi.Mode()&0o111 == 0 {
				t.Errorf("action.yml step %s runs %s, which is not an executable file of the repository (%v)", s.ID, m[1], err)
			}
		}
	}
	for _, m := range regexp.MustCompile(`\$\{\{\s*inputs\.([\w-]+)\s*}}|inputs\.([\w-]+)\s*!=`).FindAllStringSubmatch(string(b), -1) {
		name := m[1] + m[2]
		if _, ok := action.Inputs[name]; !ok {
			t.Errorf("action.yml uses input %q, which it does not declare", name)
		}
	}
	for _, m := range regexp.MustCompile(`steps\.([\w-]+)\.outputs`).FindAllStringSubmatch(string(b), -1) {
		if !steps[m[1]] {
			t.Errorf("action.yml reads the outputs of step %q, which it does not have", m[1])
		}
	}
}
