package apply

import (
	"context"
	"testing"
)

// BenchmarkRun1000 measures the executor's own cost per write (the fake
// provider is a map): events, the progress ticker, marker resolution.
func BenchmarkRun1000(b *testing.B) {
	p := pipPlan(1000)
	for b.Loop() {
		f := newFakeARM()
		if _, err := Run(context.Background(), p, f, Options{}); err != nil {
			b.Fatal(err)
		}
		if len(f.writes) != 1000 {
			b.Fatalf("%d writes", len(f.writes))
		}
	}
}
