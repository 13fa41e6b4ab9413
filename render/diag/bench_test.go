package diag

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

// largeReport is one generated file of n Services with a finding in each,
// the shape of validating a big rendered Helm chart.
func largeReport(n int) Report {
	var src bytes.Buffer
	diags := make([]service.Diagnostic, 0, n)
	line := 1
	for i := range n {
		fmt.Fprintf(&src, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%d\n  annotations:\n"+
			"    service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout: \"200\"\nspec:\n  type: LoadBalancer\n", i)
		diags = append(diags, service.Diagnostic{
			Code: "AZSVC1011", Severity: service.SeverityError, Service: fmt.Sprintf("default/svc-%d", i),
			Pos:     service.Position{File: "all.yaml", Line: line + 6, Column: 70},
			Message: "idle timeout 200 is outside 4..100 minutes", Hint: "use a value in 4..100 minutes",
		})
		line += 9
	}
	return Report{Diagnostics: diags, Sources: map[string][]byte{"all.yaml": src.Bytes()}, Checked: n}
}

func BenchmarkRender5000(b *testing.B) {
	r := largeReport(5000)
	renderers := map[string]func(io.Writer) error{
		"text":  func(w io.Writer) error { return Text(w, r, style.New(true)) },
		"json":  func(w io.Writer) error { return JSON(w, r) },
		"sarif": func(w io.Writer) error { return SARIF(w, r, SARIFOptions{Tool: Tool{Name: "azsvc"}}) },
	}
	for name, render := range renderers {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := render(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
