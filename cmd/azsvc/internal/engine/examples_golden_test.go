package engine

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/azsvc/azsvc/plan/golden"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

var etags = regexp.MustCompile(`W/\\"[0-9a-f-]+\\"`)

// TestExamplesGoldenPlans renders, for every scenario, the plan from an
// empty emulator state in text, JSON, markdown and mermaid
// (examples/<scenario>/plan.golden.*), and the plan once CCM-shaped resources exist, which must
// say there is nothing to do (plan-adopt.golden.txt). Regenerate with
// go test ./cmd/azsvc/internal/engine -run GoldenPlans -update.
func TestExamplesGoldenPlans(t *testing.T) {
	for _, dir := range scenarios(t) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			// Load from the repository root so positions and the header read
			// examples/<scenario>/..., as a user running azsvc there sees them.
			files := []string{filepath.Join("examples", name)}
			in := loadExample(t, filepath.Join(examples, name))
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			root, err := filepath.Abs(filepath.Join(examples, ".."))
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			settings := exampleSettings(files[0])
			settings.AzureConfig = filepath.Join(root, "examples", "azure.json")
			if in, err = LoadInputs(settings); err != nil {
				t.Fatal(err)
			}
			p := mustPlan(t, in, tg)
			view := View(p, in, tg, files)
			renderGolden(t, filepath.Join(files[0], "plan.golden.txt"), func(w *bytes.Buffer) error {
				return planview.Text(w, view, style.New(false))
			})
			renderGolden(t, filepath.Join(files[0], "plan.golden.json"), func(w *bytes.Buffer) error {
				return planview.JSON(w, view)
			})
			renderGolden(t, filepath.Join(files[0], "plan.golden.md"), func(w *bytes.Buffer) error {
				return planview.Markdown(w, view, planview.MarkdownOptions{})
			})
			renderGolden(t, filepath.Join(files[0], "plan.golden.mmd"), func(w *bytes.Buffer) error {
				return planview.Mermaid(w, view)
			})

			mustApply(t, p, tg)
			adopted := mustPlan(t, in, tg)
			requireEmpty(t, "plan over CCM-shaped state", adopted)
			renderGolden(t, filepath.Join(files[0], "plan-adopt.golden.txt"), func(w *bytes.Buffer) error {
				return planview.Text(w, View(adopted, in, tg, files), style.New(false))
			})
		})
	}
}

func renderGolden(t *testing.T, path string, render func(*bytes.Buffer) error) {
	t.Helper()
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		t.Fatalf("render %s: %v", path, err)
	}
	// The emulator's etags are random, like ARM's: only their presence is
	// part of the golden output.
	got := etags.ReplaceAllString(buf.String(), `W/\"<etag>\"`)
	golden.Check(t, path, []byte(got))
}
