package plantest

import (
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// benchWorld builds n Services spread over load balancers of 500 Services
// each (multi-SLB, so no LB exceeds ARM's frontend limit); one in four is
// public, the rest internal. The observed state is the converged state of
// the first 99% of them, so the plan creates 1% and keeps the rest.
func benchWorld(n int) (desired, observed *plan.State, scope plan.Scope) {
	var all []svc
	for i := 0; i < n; i++ {
		all = append(all, svc{name: fmt.Sprintf("ns%d/svc%d", i%50, i), uid: uid(1000 + i), ports: []int{80 + i%7, 443},
			internal: i%4 != 0, lb: fmt.Sprintf("slb%d", i/500)})
	}
	return world(all...), observe(world(all[:n*99/100]...)), scopeOf(false, all...)
}

func benchmarkDiff(b *testing.B, n int) {
	desired, observed, scope := benchWorld(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := diffOf(desired, observed, scope)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Changes) == 0 {
			b.Fatal("no changes")
		}
	}
}

func BenchmarkDiff100(b *testing.B)   { benchmarkDiff(b, 100) }
func BenchmarkDiff1000(b *testing.B)  { benchmarkDiff(b, 1000) }
func BenchmarkDiff10000(b *testing.B) { benchmarkDiff(b, 10000) }

func TestBenchWorldPlansOnlyTheNewServices(t *testing.T) {
	desired, observed, scope := benchWorld(400)
	p := mustDiff(t, desired, observed, scope)
	// 4 new Services: 1 public (pip, fe, 2 probes, 2 rules) + 3 internal (fe, 2 probes, 2 rules),
	// and the NSG rule of the public one gains a destination.
	creates, updates := 0, 0
	for _, c := range p.Changes {
		switch {
		case c.Has(plan.ActionCreate):
			creates++
		case c.Has(plan.ActionUpdate):
			updates++
		}
	}
	if creates != 6+3*5 || updates != 1 || len(p.Blocked) != 0 {
		t.Fatalf("creates=%d updates=%d blocked=%v\n%v", creates, updates, p.Blocked, stepLines(p))
	}
}

// BenchmarkDiffRemove10000 removes 10% of 10,000 Services: deletes,
// reference checks and NSG destination removal at scale.
func BenchmarkDiffRemove10000(b *testing.B) {
	var all []svc
	for i := 0; i < 10000; i++ {
		all = append(all, svc{name: fmt.Sprintf("ns%d/svc%d", i%50, i), uid: uid(1000 + i), ports: []int{80 + i%7, 443},
			internal: i%4 != 0, lb: fmt.Sprintf("slb%d", i/500)})
	}
	desired, observed, scope := world(all[:9000]...), observe(world(all...)), scopeOf(false, all...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := diffOf(desired, observed, scope)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Changes) < 5000 {
			b.Fatalf("only %d changes, %d blocked", len(p.Changes), len(p.Blocked))
		}
	}
}
