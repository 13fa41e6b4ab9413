package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const examples = "../../../../examples"

// exampleSettings are the settings the examples are written for
// (examples/azsvc.yaml).
func exampleSettings(files ...string) Settings {
	return Settings{Files: files, AzureConfig: filepath.Join(examples, "azure.json"), ClusterName: "aks-prod-weu"}
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
			in := loadExample(t, dir)
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			mustApply(t, mustPlan(t, in, tg), tg)
			requireEmpty(t, "second plan", mustPlan(t, in, tg))
		})
	}
}

// TestExamplesAdoptCCMState plans every scenario from fresh inputs against
// an emulator that already holds what CCM would have built (here: what
// azsvc built, which must be the same): azsvc takes the state over with an
// empty plan (DESIGN.md "Naming needs a Service UID").
func TestExamplesAdoptCCMState(t *testing.T) {
	for _, dir := range scenarios(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in := loadExample(t, dir)
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			mustApply(t, mustPlan(t, in, tg), tg)

			fresh := loadExample(t, dir)
			again, err := EmulatorTarget(tg.Emulator, fresh, "same emulator")
			if err != nil {
				t.Fatal(err)
			}
			requireEmpty(t, "plan over existing CCM-shaped state", mustPlan(t, fresh, again))
		})
	}
}
