package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const exampleLB = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/loadBalancers/aks-prod-weu"

// Honest labels (issue 16): an annotation edit is one change and nothing
// is called drift; an edit made in Azure to a resource a saved plan
// recorded is drift, with what changed, once that plan is given with
// --since.
func TestDriftOnlyAgainstARecord(t *testing.T) {
	c := newCLI(t)
	state := filepath.Join(c.dir, "state.json")
	saved := filepath.Join(c.dir, "applied.json")
	if res := c.run(exampleArgs(c, "public-basic", "plan", "--out", saved)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	if res := c.run("apply", saved, "--state", state, "--target", "emulator", "--auto-approve"); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	if res := c.run(exampleArgs(c, "public-basic", "plan", "--since", saved)...); res.code != exitOK ||
		!strings.Contains(res.stdout, "No drift: Azure holds what "+saved+" planned to write.") {
		t.Fatalf("plan --since right after apply: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}

	// An annotation edit: one change, no drift, with or without a record.
	edited := filepath.Join(c.dir, "edited")
	if err := os.Mkdir(edited, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile("../../examples/public-basic/service.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(edited, "service.yaml"), strings.Replace(string(manifest), "  labels:\n",
		"  annotations:\n    service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout: \"10\"\n  labels:\n", 1))
	planEdited := func(extra ...string) result {
		args := append([]string{"--settings", "../../examples/azsvc.yaml", "plan", "-f", edited, "--state", state}, extra...)
		return c.run(args...)
	}
	for _, extra := range [][]string{nil, {"--since", saved}, {"-o", "markdown"}, {"-o", "json"}} {
		res := planEdited(extra...)
		if res.code != exitOK || strings.Count(res.stdout, "idleTimeoutInMinutes") != wantMentions(extra) ||
			strings.Contains(res.stdout, "Drift:") || strings.Contains(res.stdout, "changed outside") {
			t.Errorf("annotation edit %v: exit %d, want exactly one change and no drift:\n%s", extra, res.code, res.stdout)
		}
	}

	// An edit in Azure: drift against the record, with what changed.
	editInAzure(t, state, exampleLB, func(lb map[string]any) {
		rule := lb["properties"].(map[string]any)["loadBalancingRules"].([]any)[0].(map[string]any)
		rule["properties"].(map[string]any)["idleTimeoutInMinutes"] = 30
	})
	res := c.run(exampleArgs(c, "public-basic", "plan", "--since", saved)...)
	for _, want := range []string{"Drift: changed outside azsvc since " + saved + ":", "idleTimeoutInMinutes: 4 -> 30",
		"# puts back what was changed outside azsvc (see Drift)", "idleTimeoutInMinutes: 30 -> 4"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("plan --since after an edit in Azure lacks %q:\n%s", want, res.stdout)
		}
	}
	// Without the record, the same edit is only a difference.
	if res := c.run(exampleArgs(c, "public-basic", "plan")...); strings.Contains(res.stdout, "Drift:") || !strings.Contains(res.stdout, "30 -> 4") {
		t.Errorf("plan without --since calls the edit drift, or misses it:\n%s", res.stdout)
	}
	res = c.run(exampleArgs(c, "public-basic", "plan", "--since", saved, "-o", "json")...)
	var doc struct {
		Since string
		Drift []struct {
			Address          string
			Actions          []string
			AttributeChanges []struct {
				Path          []string
				Before, After any
			} `json:"attribute_changes"`
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatalf("plan -o json: %v\n%s", err, res.stdout)
	}
	if doc.Since != saved || len(doc.Drift) != 1 || len(doc.Drift[0].AttributeChanges) != 1 ||
		doc.Drift[0].AttributeChanges[0].Before != 4.0 || doc.Drift[0].AttributeChanges[0].After != 30.0 {
		t.Errorf("JSON drift = %+v", doc)
	}
}

// wantMentions is how often the edited field appears in each format: the
// change once (the text and markdown plan show it once; JSON has it in
// before, after and attribute_changes of its one change).
func wantMentions(extra []string) int {
	if len(extra) == 2 && extra[1] == "json" {
		return 3
	}
	return 1
}

// TestSinceRefusesWhatItCannotTrust: --since takes only an intact saved
// plan made for the same target, holding a record (exit 4 otherwise).
func TestSinceRefusesWhatItCannotTrust(t *testing.T) {
	c := newCLI(t)
	saved := filepath.Join(c.dir, "plan.json")
	data := savedExamplePlan(t, c, saved)
	tampered := filepath.Join(c.dir, "tampered.json")
	writeFile(t, tampered, strings.Replace(string(data), `"frontendPort": 80`, `"frontendPort": 81`, 1))
	other := filepath.Join(c.dir, "other-state.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"modified", exampleArgs(c, "public-basic", "plan", "--since", tampered), "plan file was modified"},
		{"another target", append(exampleArgs(c, "public-basic", "plan", "--since", saved), "--state", other), "it was planned for local emulator"},
		{"missing", exampleArgs(c, "public-basic", "plan", "--since", filepath.Join(c.dir, "nope.json")), "no such file"},
	} {
		res := c.run(tc.args...)
		if res.code != exitInvalid || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%s: exit %d, want %d and %q:\n%s", tc.name, res.code, exitInvalid, tc.want, res.stderr)
		}
	}
}

// editInAzure changes a resource the way someone with the portal would:
// a GET and a PUT through ARM (the emulator behind the state file).
func editInAzure(t *testing.T, state, id string, edit func(map[string]any)) {
	t.Helper()
	e, err := emulator.Open(emulator.Options{StatePath: state})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	client := http.Client{Transport: e.Transport()}
	url := emulator.Endpoint + id + "?api-version=2025-05-01"
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	edit(body)
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPut, url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(resp.Body)
		t.Fatalf("PUT %s: %d\n%s", id, resp.StatusCode, msg)
	}
}

// TestSinceOtherState: --since compares the state files themselves, so a
// plan against another emulator state with the same relative name, from
// another directory, is refused instead of compared with the wrong record.
func TestSinceOtherState(t *testing.T) {
	c := newCLI(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	args := func(cmd string, extra ...string) []string {
		return append([]string{"--settings", filepath.Join(examples, "azsvc.yaml"), cmd,
			"-f", filepath.Join(examples, "public-basic"), "--state", "state.json"}, extra...)
	}
	for _, d := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(c.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(c.dir, "a"))
	if res := c.run(args("apply", "--auto-approve")...); res.code != exitOK {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	if res := c.run(args("plan", "--out", "applied.json")...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	t.Chdir(filepath.Join(c.dir, "b"))
	res := c.run(args("plan", "--since", "../a/applied.json")...)
	want := "planned for local emulator (state " + filepath.Join(c.dir, "a", "state.json") + ")"
	if res.code == exitOK || !strings.Contains(res.stderr, want) {
		t.Fatalf("plan --since a plan of another state file: exit %d, want an error with %q:\n%s", res.code, want, res.stderr)
	}
}
