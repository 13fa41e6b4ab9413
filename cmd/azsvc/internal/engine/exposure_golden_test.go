package engine

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

// TestExposureGoldens plans a change of reach after applying the state
// before it, and renders the plan in every format (testdata/<case>.golden.*):
// the Exposure section at the top, and where each change lands (issue 22
// items 1 and 2). The HyperShift layout, which writes into two
// subscriptions, is examples/hypershift-private-link/plan.golden.*.
func TestExposureGoldens(t *testing.T) {
	for _, name := range []string{"exposure-flip", "exposure-widened"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			before := loadFiles(t, false, filepath.Join(dir, "before.yaml"))
			tg := newExampleTarget(t, before, emulator.Options{InstantOperations: true})
			applyPlan(t, before, tg)
			afterFile := filepath.Join(dir, "after.yaml")
			after := loadFiles(t, false, afterFile)
			retarget(tg, after)
			view := View(mustPlan(t, after, tg), after, tg, []string{afterFile})
			golden := filepath.Join("testdata", name+".golden.")
			renderGolden(t, golden+"txt", func(w *bytes.Buffer) error { return planview.Text(w, view, style.New(false)) })
			renderGolden(t, golden+"md", func(w *bytes.Buffer) error { return planview.Markdown(w, view, planview.MarkdownOptions{}) })
			renderGolden(t, golden+"json", func(w *bytes.Buffer) error { return planview.JSON(w, view) })
			renderGolden(t, golden+"mmd", func(w *bytes.Buffer) error { return planview.Mermaid(w, view) })
		})
	}
}
