package planview

import (
	"testing"

	"github.com/azsvc/azsvc/plan"
)

func TestApplyEstimate(t *testing.T) {
	tests := []struct {
		writes int
		want   string
	}{
		{3, ""},
		{100, ""},
		{291, "Azure allows 1,000 Microsoft.Network writes per 5 minutes per subscription: these 291 writes use 30% of that."},
		{1000, "Azure allows 1,000 Microsoft.Network writes per 5 minutes per subscription: these 1,000 writes use 100% of that."},
		{2541, "Azure allows 1,000 Microsoft.Network writes per 5 minutes per subscription: these 2,541 writes take about 13 minutes there; apply paces itself to the budget."},
		{26708, "Azure allows 1,000 Microsoft.Network writes per 5 minutes per subscription: these 26,708 writes take about 2h14m there; apply paces itself to the budget."},
	}
	for _, tc := range tests {
		p := &plan.Plan{Steps: make([]*plan.Step, tc.writes)}
		got := ""
		if est := estimateApply(p); est != nil {
			got = est.Sentence()
		}
		if got != tc.want {
			t.Errorf("%d writes: %q, want %q", tc.writes, got, tc.want)
		}
	}
}
