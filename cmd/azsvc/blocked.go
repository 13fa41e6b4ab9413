package main

import (
	"fmt"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/planview"
)

// failedOnBlocked tells, on stderr, which Services and PrivateEndpoints
// the plan's blocked changes leave without what their manifests ask for
// (plan.BlockCode.Fails), with what that means for the command, and
// returns the exit-4 error; nil when no blocked change fails. CI must not
// go green while a Service gets no load balancer (issue 22 item 4).
func failedOnBlocked(io *IOStreams, p *plan.Plan, outcome string) error {
	failing := plan.FailingBlocks(p.Blocked)
	if len(failing) == 0 {
		return nil
	}
	fmt.Fprintf(io.ErrOut, "%s %s; %s.\n", io.ErrStyle().BoldRed("Failed:"), planview.BlockedFailure(failing), outcome)
	return &reported{errInvalidInput}
}
