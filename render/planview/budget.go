package planview

import (
	"fmt"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
)

// ApplyEstimate says what ARM's write budget means for applying a plan:
// Microsoft.Network allows apply.NetworkWriteBudget writes per
// apply.NetworkWriteWindow and subscription (arm-rules §2.3), and every
// step is one write. Only plans of more than a tenth of the budget get one:
// below that the budget does not matter.
type ApplyEstimate struct {
	Writes        int     `json:"writes"`
	Budget        int     `json:"budget_writes"`
	WindowSeconds float64 `json:"budget_window_seconds"`
	// MinSeconds is the least time the writes take at the budget's rate,
	// zero when they fit in one budget.
	MinSeconds float64 `json:"min_seconds"`
}

// estimateApply returns the estimate of p, or nil for a small plan.
func estimateApply(p *plan.Plan) *ApplyEstimate {
	n := len(p.Steps)
	if n <= apply.NetworkWriteBudget/10 {
		return nil
	}
	return &ApplyEstimate{
		Writes: n, Budget: apply.NetworkWriteBudget, WindowSeconds: apply.NetworkWriteWindow.Seconds(),
		MinSeconds: apply.MinDuration(n, apply.NetworkWriteBudget, apply.NetworkWriteWindow).Seconds(),
	}
}

// Sentence is the estimate for people.
func (a *ApplyEstimate) Sentence() string {
	head := fmt.Sprintf("Azure allows %s Microsoft.Network writes per %s per subscription", thousands(a.Budget),
		minutesText(time.Duration(a.WindowSeconds*float64(time.Second))))
	if a.MinSeconds == 0 {
		return fmt.Sprintf("%s: these %s writes use %d%% of that.", head, thousands(a.Writes), (100*a.Writes+a.Budget-1)/a.Budget)
	}
	d := time.Duration(a.MinSeconds * float64(time.Second)).Round(time.Minute)
	return fmt.Sprintf("%s: these %s writes take about %s there; apply paces itself to the budget.", head, thousands(a.Writes), minutesText(d))
}

func minutesText(d time.Duration) string {
	if d < time.Hour {
		return count(int(d.Minutes()), "minute", "minutes")
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// thousands writes n with comma separators: 6,708.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
