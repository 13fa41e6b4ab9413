package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// A saved plan is checked, not trusted (issue 11): a file edited by hand,
// one edited and re-checksummed, and one whose target moved on are all
// refused before any write (exit 5), and nothing unowned is touched.
func TestSavedPlanIsCheckedNotTrusted(t *testing.T) {
	c := newCLI(t)
	state := filepath.Join(c.dir, "state.json")
	seedStateFile(t, state, "../../examples/emulator-seed.json")
	unowned := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc_aks-prod-weu/providers/Microsoft.Network/publicIPAddresses/shared-ingress-pip"
	before := stateBody(t, state, unowned)

	saved := filepath.Join(c.dir, "plan.json")
	if res := c.run(exampleArgs(c, "public-basic", "plan", "--out", saved)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	if fi, err := os.Stat(saved); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved plan mode %v (%v), want 0600", fi.Mode(), err)
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	applySaved := func(name, body string, extra ...string) result {
		file := filepath.Join(c.dir, name)
		writeFile(t, file, body)
		args := append([]string{"--settings", "../../examples/azsvc.yaml", "apply", file, "--state", state}, extra...)
		return c.run(args...)
	}

	edited := strings.Replace(string(data), `"frontendPort": 80`, `"frontendPort": 22`, 1)
	if edited == string(data) {
		t.Fatal("fixture: no frontendPort 80 in the saved plan")
	}
	if res := applySaved("edited.json", edited, "--auto-approve"); res.code != exitStale || !strings.Contains(res.stderr, "plan file was modified") {
		t.Errorf("hand-edited plan: exit %d\n%s", res.code, res.stderr)
	}

	if res := applySaved("injected.json", injectDelete(t, data, unowned), "--auto-approve"); res.code != exitStale ||
		!strings.Contains(res.stderr, "differs here from the saved one") {
		t.Errorf("re-checksummed plan with an injected delete: exit %d\n%s", res.code, res.stderr)
	}

	if res := applySaved("plan.json", string(data)); res.code != exitUsage || !strings.Contains(res.stderr, "--auto-approve") {
		t.Errorf("saved plan without a terminal or --auto-approve: exit %d\n%s", res.code, res.stderr)
	}
	if got := stateBody(t, state, unowned); got != before {
		t.Fatalf("the unowned public IP changed:\n%s\nwas\n%s", got, before)
	}

	// No --config: the plan carries its configuration.
	res := c.run("apply", saved, "--state", state, "--target", "emulator", "--auto-approve")
	if res.code != exitOK || !strings.Contains(res.stderr, "Apply complete!") {
		t.Fatalf("saved plan: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if got := stateBody(t, state, unowned); got != before {
		t.Fatalf("apply changed the unowned public IP")
	}
}

// injectDelete adds a delete step of target to a saved plan and writes a
// valid checksum, as someone who knows the format would.
func injectDelete(t *testing.T, data []byte, target string) string {
	t.Helper()
	var s planfile.Plan
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	id, err := plan.ParseID(target)
	if err != nil {
		t.Fatal(err)
	}
	s.Changes = append(s.Changes, planfile.Change{Address: id.Address(), Actions: []plan.Action{plan.ActionDelete},
		Before: &planfile.Resource{ID: target}})
	s.Steps = append(s.Steps, planfile.Step{Op: plan.OpDelete, Target: target, Changes: []int{len(s.Changes) - 1}})
	out, err := planfile.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := planfile.Unmarshal(out); err != nil {
		t.Fatalf("fixture: re-checksummed plan refused: %v", err)
	}
	return string(out)
}

func seedStateFile(t *testing.T, state, seed string) {
	t.Helper()
	body, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	e, err := emulator.Open(emulator.Options{StatePath: state})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Seed(body); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}

// stateBody is the JSON of one resource in the emulator's state file.
func stateBody(t *testing.T, state, id string) string {
	t.Helper()
	e, err := emulator.Open(emulator.Options{StatePath: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	client := http.Client{Transport: e.Transport()}
	resp, err := client.Get(emulator.Endpoint + id + "?api-version=2025-05-01")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v\n%s", id, resp.StatusCode, err, body)
	}
	return string(body)
}

// A loadBalancerSku: basic cluster cannot get new Basic load balancers or
// public IPs since Azure retired them: plan refuses at once (exit 4) and
// apply writes nothing, instead of stopping half-way.
func TestBasicSKURefusedAtPlanTime(t *testing.T) {
	c := newCLI(t)
	azureJSON := exampleConfig(t, c.dir, "azure.json", func(cfg map[string]any) { cfg["loadBalancerSku"] = "basic" })
	state := filepath.Join(c.dir, "state.json")
	args := func(cmd string, extra ...string) []string {
		return append([]string{"--settings", "../../examples/azsvc.yaml", cmd, "-f", "../../examples/public-basic",
			"--config", azureJSON, "--state", state}, extra...)
	}
	res := c.run(args("plan")...)
	if res.code != exitInvalid || !strings.Contains(res.stdout, "lb/aks-prod-weu: Azure retired Basic SKU load balancers") ||
		!strings.Contains(res.stdout, "CCM would create public IP") { // what CCM leaves behind (issue 21 item 5)
		t.Fatalf("plan: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// -o json carries the refusal, its facts and its wording.
	res = c.run(args("plan", "-o", "json")...)
	var doc struct {
		Applyable bool
		Refused   []struct{ Address, Code, Reason string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || res.code != exitInvalid {
		t.Fatalf("plan -o json: exit %d, %v\n%s%s", res.code, err, res.stdout, res.stderr)
	}
	if doc.Applyable || len(doc.Refused) == 0 || doc.Refused[0].Code != "basic_lb_retired" || !strings.Contains(doc.Refused[0].Reason, "retired") {
		t.Fatalf("plan -o json: applyable %v, refused %+v", doc.Applyable, doc.Refused)
	}
	res = c.run(args("plan", "--out", filepath.Join(c.dir, "refused.plan"))...)
	if _, err := os.Stat(filepath.Join(c.dir, "refused.plan")); res.code != exitInvalid || err == nil {
		t.Fatalf("plan --out: exit %d, a refused plan was saved", res.code)
	}
	res = c.run(args("apply", "--auto-approve")...)
	if res.code != exitInvalid || strings.Contains(res.stderr, "Apply") || !strings.Contains(res.stdout, "Azure retired Basic SKU load balancers") {
		t.Fatalf("apply: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// A saved plan argument that never ends is refused at the size bound, and
// one that blocks (a FIFO nobody writes) gives up on Ctrl-C (exit 130).
func TestSavedPlanReadIsBoundedAndInterruptible(t *testing.T) {
	c := newCLI(t)
	defer func(was int64) { engine.MaxSavedPlanSize = was }(engine.MaxSavedPlanSize)
	engine.MaxSavedPlanSize = 1 << 20
	res := c.run("apply", "/dev/zero", "--auto-approve")
	if res.code != exitRuntime || !strings.Contains(res.stderr, "larger than 1 MiB") {
		t.Errorf("apply /dev/zero: exit %d\n%s", res.code, res.stderr)
	}
	fifo := filepath.Join(c.dir, "plan.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.ctx = ctx
	time.AfterFunc(100*time.Millisecond, cancel)
	done := make(chan result, 1)
	go func() { done <- c.run("apply", fifo, "--auto-approve") }()
	select {
	case res := <-done:
		if res.code != exitInterrupted {
			t.Errorf("apply FIFO, interrupted: exit %d\n%s", res.code, res.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("apply of a FIFO ignored the interrupt")
	}
}
