package engine

import (
	"testing"

	"github.com/azsvc/azsvc/internal/cputime"
	"github.com/azsvc/azsvc/plan/exposure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// BenchmarkExposure10000 measures the Exposure section's core for the
// plan creating 10,000 Services (every one of them newly public or
// internal, the NSG rules shared): renderers compute it once per render.
func BenchmarkExposure10000(b *testing.B) {
	cfg := scaleConfig(b)
	in := mustInputs(b, cfg, scaleManifests(10000), false)
	tg := newMemTarget(b, in, emulator.Options{InstantOperations: true})
	p, _, err := PlanAgainst(in.Desired, mustRead(b, tg), in.Scope)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Report(b)()
	n := 0
	for range b.N {
		n = len(exposure.Of(p))
	}
	b.ReportMetric(float64(len(p.Changes)), "changes")
	b.ReportMetric(float64(n), "exposures")
}
