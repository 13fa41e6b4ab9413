// Package preflight refuses, at plan time, what ARM would refuse half-way
// through an apply and what the reads already show: ARM's limits
// (arm-rules §2.4), public IP and load balancer SKUs that do not pair or are
// retired, static private IPs outside their subnet, reserved or taken, and
// private link services ARM would reject (arm-rules §2.2). It is its own
// pass over the scheduled plan: every resource is checked as it will be
// after the last step.
package preflight

import (
	"errors"
	"fmt"

	"github.com/azsvc/azsvc/plan"
)

// ErrRefused is wrapped by Check's error when ARM would refuse the plan:
// invalid input, not a runtime failure (exit 4). Nothing is applied.
var ErrRefused = errors.New("ARM would refuse this plan")

// Check runs every preflight rule over p against the observed state. It
// sets p.Limits to the limit uses above 80% and p.Refused to the writes ARM
// would refuse, and returns an error wrapping ErrRefused when there are
// any. The refusals are facts (plan.Refusal); renderers word them.
func Check(p *plan.Plan, observed *plan.Index, nodeIPs map[string]string) error {
	w := newWorld(p, observed)
	w.nodeIPs = nodeIPs
	var refused []plan.Refusal
	p.Limits, refused = checkLimits(w)
	refused = append(refused, checkSKUs(w)...)
	refused = append(refused, checkStaticIPs(w)...)
	refused = append(refused, checkDynamicTakes(w, p.Steps)...)
	refused = append(refused, checkPLS(w)...)
	refused = append(refused, checkReferences(p, observed)...)
	refused = append(refused, checkGroups(p, observed)...)
	p.Refused = refused
	if len(refused) > 0 {
		return fmt.Errorf("%w: %d of its writes", ErrRefused, len(refused))
	}
	return nil
}
