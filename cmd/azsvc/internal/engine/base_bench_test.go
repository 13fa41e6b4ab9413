package engine

import (
	"context"
	"testing"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/scalegen"
	"github.com/azsvc/azsvc/internal/cputime"
)

// BenchmarkPlanBase5000 is a pull request's base→head plan of 5,000
// Services with 1% of them changed (target: under 3 s): the base built and
// applied in a throwaway emulator, then the head planned against it.
func BenchmarkPlanBase5000(b *testing.B) {
	cfg := scaleConfig(b)
	base := &Base{Ref: "base", Input: mustInputs(b, cfg, scalegen.Manifests(5000, 0), false).Service}
	head := scalegen.Manifests(5000, 100)
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Report(b)()
	for range b.N {
		in := mustInputs(b, cfg, head, false)
		p, _, tg, err := PlanBase(context.Background(), base, in, nil)
		if err != nil || len(p.Changes) != 200 { // 50 Services: rule and probe of the old port out, of the new in
			b.Fatalf("plan: %v, %d changes", err, len(p.Changes))
		}
		tg.Close()
	}
}
