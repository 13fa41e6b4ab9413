package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// azsvcCall finds an azsvc command in a recipe's script: the command and
// its arguments up to a redirection, pipe or the end of the line.
var azsvcCall = regexp.MustCompile(`(?m)^\s*azsvc ((?:validate|render|plan|apply|show)\b[^>|;&\n]*)`)

// pinned is a released version, as the recipes must name the one they install.
var pinned = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// TestCIRecipes: the CI recipes under examples/ci are valid YAML, every
// azsvc command their scripts run parses with this azsvc's flags, and each
// pins the azsvc release it installs.
func TestCIRecipes(t *testing.T) {
	files, err := filepath.Glob("../../examples/ci/*.yml")
	if err != nil || len(files) < 4 {
		t.Fatalf("recipes: %v %v", files, err)
	}
	calls := 0
	for _, f := range files {
		r := loadRecipe(t, f)
		installs := !strings.HasSuffix(f, "github-pr-comment.yml") // the comment poster installs nothing
		if v := r.env["AZSVC_VERSION"]; installs && !pinned.MatchString(v) {
			t.Errorf("%s: AZSVC_VERSION %q is not a pinned release", f, v)
		}
		for _, s := range r.steps {
			for _, m := range azsvcCall.FindAllStringSubmatch(strings.ReplaceAll(s.script, "\\\n", " "), -1) {
				calls++
				args := strings.Fields(strings.ReplaceAll(m[1], `"`, ""))
				if res := newCLI(t).run(append(args, "--help")...); res.code != exitOK {
					t.Errorf("%s: %s: azsvc %s: exit %d\n%s", f, s.name, m[1], res.code, res.stderr)
				}
			}
		}
	}
	if calls < 8 {
		t.Errorf("%d azsvc commands in the recipes, want validate, plan (live and base) and apply in each system", calls)
	}
}

// prRepo is a repository as a pull request checks it out: main holds
// examples/gitops/deploy (Services as a repository keeps them) and
// azure.json, origin/main points at it, and the working tree is the pull
// request's, edited by edit.
func prRepo(t *testing.T, edit func(deploy string) string) string {
	t.Helper()
	dir := gitRepo(t)
	if out, err := exec.Command("git", "-C", dir, "update-ref", "refs/remotes/origin/main", "HEAD").CombinedOutput(); err != nil {
		t.Fatalf("git update-ref: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "deploy", "store.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, edit(string(data)))
	return dir
}

// addPort is a pull request adding a port to store/storefront.
func addPort(s string) string {
	return strings.Replace(s, "    - {name: https, port: 443, targetPort: 8443}\n",
		"    - {name: https, port: 443, targetPort: 8443}\n    - {name: admin, port: 8443, targetPort: 9443}\n", 1)
}

// TestCIPullRequestShells runs the pull-request steps of the GitHub
// workflow and the Azure pipeline as the CI system would, in a checkout of
// a pull request adding a port (issue 20 item 4): validate, then the plan
// a fork gets (base→head, no credentials: comment written, exit 2 passes
// the step) and the one a repository with credentials gets (the local
// emulator standing in for Azure, holding what CCM built for the base:
// only the new port is planned). A pull request with an error fails both.
func TestCIPullRequestShells(t *testing.T) {
	path := ciPath(t)
	gh := loadRecipe(t, "../../examples/ci/github-pull-request.yml")
	ado := loadRecipe(t, "../../examples/ci/azure-pipelines.yml")
	for _, tc := range []struct {
		name     string
		recipe   *ciRecipe
		validate string
		fork     []string // steps, in order, that plan a fork's pull request
		live     []string
		vars     map[string]string
	}{
		{"github", gh, "Validate (offline)", []string{"Azure credentials?", "Plan"}, []string{"Azure credentials?", "Plan"},
			map[string]string{"github.base_ref": "main", "github.event.pull_request.number": "7"}},
		{"azure-pipelines", ado, "Validate (offline)", []string{"Plan base→head (a fork, offline)"}, []string{"Plan against Azure"},
			map[string]string{"System.PullRequest.TargetBranch": "refs/heads/main"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, live := range []bool{false, true} {
				repo := prRepo(t, addPort)
				c := &ciRun{t: t, dir: repo, vars: map[string]string{"Build.ArtifactStagingDirectory": t.TempDir()}, env: []string{path, "HOME=" + t.TempDir()}, outputs: map[string]string{}}
				for k, v := range tc.vars {
					c.vars[k] = v
				}
				for k, v := range tc.recipe.env {
					c.vars["env."+k], c.vars[k] = v, v
				}
				steps := tc.fork
				if live {
					steps = tc.live
					c.vars["secrets.AZURE_CLIENT_ID"] = "00000000-0000-0000-0000-00000000c1d0"
					state := ccmState(t, repo)
					c.env = append(c.env, "AZSVC_TARGET=emulator", "AZSVC_STATE="+state)
				}
				if code, out := c.run(tc.recipe, tc.recipe.step(t, tc.validate)); code != 0 {
					t.Fatalf("live %v: validate: exit %d\n%s", live, code, out)
				}
				for _, name := range steps {
					if code, out := c.run(tc.recipe, tc.recipe.step(t, name)); code != 0 {
						t.Fatalf("live %v: %s: exit %d\n%s", live, name, code, out)
					}
				}
				comment := readComment(t, repo)
				if !strings.HasPrefix(comment, "<!-- azsvc:plan v1 ") || !strings.Contains(comment, "-TCP-8443") ||
					strings.Contains(comment, "<summary>mqtt") || strings.Contains(comment, "<summary>orders-api") {
					t.Errorf("live %v: the comment is not the plan of the new port:\n%.3000s", live, comment)
				}
				if base := strings.Contains(comment, "Base→head"); base == live {
					t.Errorf("live %v: base→head in the comment: %v", live, base)
				}
			}
		})
	}
}

// TestCIPullRequestWithErrorFails: a pull request making a Service public
// by a misspelt boolean fails validate and plan in both systems.
func TestCIPullRequestWithErrorFails(t *testing.T) {
	path := ciPath(t)
	for file, planStep := range map[string]string{"github-pull-request.yml": "Plan", "azure-pipelines.yml": "Plan base→head (a fork, offline)"} {
		r := loadRecipe(t, "../../examples/ci/"+file)
		repo := prRepo(t, func(s string) string {
			return strings.Replace(s, `azure-load-balancer-internal: "true"`, `azure-load-balancer-internal: "yes"`, 1)
		})
		c := &ciRun{t: t, dir: repo, vars: map[string]string{"github.base_ref": "main", "System.PullRequest.TargetBranch": "refs/heads/main",
			"Build.ArtifactStagingDirectory": t.TempDir()}, env: []string{path, "HOME=" + t.TempDir()}, outputs: map[string]string{}}
		for k, v := range r.env {
			c.vars["env."+k], c.vars[k] = v, v
		}
		c.outputs["steps.creds.outputs.live"] = "false"
		for _, name := range []string{"Validate (offline)", planStep} {
			if code, out := c.run(r, r.step(t, name)); code != exitInvalid {
				t.Errorf("%s: %s: exit %d, want %d\n%s", file, name, code, exitInvalid, out)
			}
		}
	}
}

func readComment(t *testing.T, repo string) string {
	t.Helper()
	for _, p := range []string{"out/comment.md", "comment.md"} {
		if data, err := os.ReadFile(filepath.Join(repo, p)); err == nil {
			return string(data)
		}
	}
	t.Fatal("no comment.md written")
	return ""
}

// ccmState is an emulator state holding what CCM built for the base's
// Services (examples/gitops/cluster.yaml, with the UIDs and node ports the
// API server gave them): the Azure a live plan reads.
func ccmState(t *testing.T, repo string) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "azure.json.state")
	c := newCLI(t)
	res := c.run("apply", "-f", "../../examples/gitops/cluster.yaml", "--config", filepath.Join(repo, "azure.json"),
		"--cluster-name", "aks-prod", "--target", "emulator", "--state", state, "--auto-approve")
	if res.code != exitOK {
		t.Fatalf("apply cluster.yaml: exit %d\n%s", res.code, res.stderr)
	}
	return state
}
