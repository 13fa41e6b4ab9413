package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const examples = "../../../../examples"

// exampleSettings are the settings the examples are written for
// (examples/azsvc.yaml).
func exampleSettings(files ...string) Settings {
	return Settings{Files: files, AzureConfig: filepath.Join(examples, "azure.json"), ClusterName: "aks-prod-weu"}
}

// newExampleTarget opens an in-memory emulator seeded with the BYO public
// IPs the examples name.
func newExampleTarget(t testing.TB, in *Inputs, opts emulator.Options) *Target {
	t.Helper()
	emu, err := emulator.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := os.ReadFile(filepath.Join(examples, "emulator-seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Seed(seed); err != nil {
		t.Fatal(err)
	}
	tg, err := EmulatorTarget(emu, in, "test emulator")
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

func scenarios(t testing.TB) []string {
	dirs, err := filepath.Glob(filepath.Join(examples, "*", "service.yaml"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example scenarios: %v", err)
	}
	var out []string
	for _, d := range dirs {
		dir := filepath.Dir(d)
		if filepath.Base(dir) == "invalid" {
			continue
		}
		out = append(out, dir)
	}
	return out
}

func mustPlan(t testing.TB, in *Inputs, tg *Target) *plan.Plan {
	t.Helper()
	p, _, err := Plan(context.Background(), in, tg)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return p
}

// TestExamplesConverge applies every example scenario to an empty emulator
// and requires the second plan to be empty (issue 6 item 5).
func TestExamplesConverge(t *testing.T) {
	for _, dir := range scenarios(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in, err := LoadInputs(exampleSettings(dir))
			if err != nil {
				t.Fatal(err)
			}
			if in.HasErrors() {
				t.Fatalf("example has error diagnostics: %+v", in.Diagnostics)
			}
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			p := mustPlan(t, in, tg)
			if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
				t.Fatalf("apply: %v", err)
			}
			again := mustPlan(t, in, tg)
			if len(again.Steps) != 0 || len(again.Changes) != 0 {
				for _, c := range again.Changes {
					t.Errorf("second plan: %v %s %s", c.Actions, c.ID().Address(), c.Reason)
				}
				t.Fatalf("second plan has %d steps", len(again.Steps))
			}
		})
	}
}
