package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// TestMultiSLBMovesIneligibleService: a Service whose load balancer is no
// longer eligible for it (its label no longer matches the selector) moves
// to an eligible one, its public IP with it, in one apply: the write that
// releases the public IP runs before the one that takes it (ARM refuses
// PublicIPAddressInUse otherwise), and the plan after it is empty.
func TestMultiSLBMovesIneligibleService(t *testing.T) {
	cfg := placementConfig(t)
	tg, svcs := convergedPlacement(t, cfg, "edge")
	pipBefore := publicIPOf(t, tg, 9443)
	svcs[2] = placementService("edge", 9443, "internal-only")
	in := placementInputs(t, cfg, svcs...)
	p := mustPlan(t, in, tg)
	mustApply(t, p, tg)
	requireEmptyPlan(t, in, tg, "moved")
	if got := lbOf(t, tg, 9443); got == "aks-prod-weu-edge" || got == "" {
		t.Errorf("edge on %q after its label changed", got)
	}
	if got := publicIPOf(t, tg, 9443); got != pipBefore {
		t.Errorf("edge's frontend holds %s, was %s: the public IP did not move with it", got, pipBefore)
	}
	for port, lb := range map[int]string{443: "aks-prod-weu-2", 8443: "aks-prod-weu"} {
		if got := lbOf(t, tg, port); got != lb {
			t.Errorf("port %d moved to %q, want it on %q", port, got, lb)
		}
	}
}

// publicIPOf is the public IP the Service's frontend references.
func publicIPOf(t *testing.T, tg *Target, port int) string {
	t.Helper()
	prefix := fmt.Sprintf("a%08x", port)
	for _, fe := range mustRead(t, tg).OfKind(plan.KindFrontend) {
		if strings.HasPrefix(fe.Name(), prefix) {
			return plan.AsFrontend(fe).PublicIPID()
		}
	}
	return ""
}
