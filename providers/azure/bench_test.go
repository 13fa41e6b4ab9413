package azure_test

import (
	"context"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// BenchmarkRead1000Services reads 1,000 Services' worth of resources: 1,000
// public IPs, two load balancers with 500 frontends, probes and rules each
// (the Standard LB allows 600 frontends), and two NSGs with 500 rules each.
func BenchmarkRead1000Services(b *testing.B) {
	e := newEnv(b, emulator.Options{InstantOperations: true})
	e.write(b, services("kubernetes", "aks-agentpool-nsg", 0, 500)...)
	e.write(b, services("kubernetes-2", "aks-agentpool-nsg-2", 500, 500)...)
	e.emu.Counters().Reset()
	b.ResetTimer()
	var st *plan.State
	for b.Loop() {
		var err error
		if st, err = e.p.Read(context.Background(), e.scope()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if got := len(st.OfKind(plan.KindRule)); got != 1000 {
		b.Fatalf("read %d rules, want 1000", got)
	}
	b.ReportMetric(float64(e.emu.Counters().Reads(""))/float64(b.N), "reads/op")
	b.ReportMetric(float64(st.Len()), "resources")
}
