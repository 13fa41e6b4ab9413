package planview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

// TestNoChangesWithInputErrors: a plan with nothing to do whose input has
// errors does not claim that Azure matches the Services: those with errors
// are not in it. Warnings alone keep the usual line.
func TestNoChangesWithInputErrors(t *testing.T) {
	for _, tt := range []struct {
		severity service.Severity
		want     string
	}{
		{service.SeverityError, "No changes for the Services without errors; those with errors are not planned."},
		{service.SeverityWarning, "No changes. Azure networking matches the Services."},
	} {
		in := Input{Plan: &plan.Plan{}, Diagnostics: []service.Diagnostic{{Code: "AZSVC2008", Severity: tt.severity, Message: "m"}}}
		var text, md bytes.Buffer
		if err := Text(&text, in, style.New(false)); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, in, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
			if !strings.Contains(out, tt.want) {
				t.Errorf("%s with a %s: want %q in\n%s", name, tt.severity, tt.want, out)
			}
		}
	}
}
