package engine

import (
	"context"
	"errors"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/plan/preflight"
)

// Status reads the target once and plans against it, as Plan does, then
// reports what Azure holds for each Service and PrivateEndpoint of the
// input, with their conditions (plan/conditions). InSync comes from that
// very plan, so status and plan never disagree; a plan ARM would refuse is
// a condition too, not an error.
func Status(ctx context.Context, in *Inputs, t *Target) (*conditions.Report, *plan.Plan, error) {
	p, res, err := Plan(ctx, in, t)
	if err != nil && !errors.Is(err, preflight.ErrRefused) {
		return nil, nil, err
	}
	return conditions.Of(res, p), p, nil
}
