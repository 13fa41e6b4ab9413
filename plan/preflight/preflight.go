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
// returns the limit uses above 80%, or an error listing every refusal.
func Check(p *plan.Plan, observed *plan.Index) ([]plan.Limit, error) {
	w := newWorld(p, observed)
	warn, errs := checkLimits(p, w)
	errs = append(errs, checkSKUs(w)...)
	errs = append(errs, checkStaticIPs(w)...)
	errs = append(errs, checkPLS(w)...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrRefused, errors.Join(errs...))
	}
	return warn, nil
}
