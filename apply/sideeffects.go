package apply

import (
	"github.com/azsvc/azsvc/plan"
)

// touched lists the resources a step changes in ARM besides its target:
// writing or deleting a private endpoint adds or drops its connection on
// the private link service, which gives the PLS a new etag (arm-rules
// §1.4: connections are read-only children of the PLS body). A later step
// of the same run on that PLS (its delete, after its endpoints') cannot
// carry the etag read at plan time, nor learn the new one without a read:
// it goes without If-Match. The plan ordered it after the endpoint's step
// on purpose, so nothing else is expected to have changed.
func touched(step *plan.Step) []plan.Key {
	if step.Target.Kind != plan.KindPrivateEndpoint {
		return nil
	}
	var out []plan.Key
	add := func(r *plan.Resource) {
		if r == nil {
			return
		}
		if s, ok := plan.AsPrivateEndpoint(r).Target().(string); ok {
			if id, err := plan.ParseID(s); err == nil {
				out = append(out, id.Key())
			}
		}
	}
	for _, c := range step.Changes {
		add(c.Before)
		add(c.After)
	}
	add(step.Body)
	return out
}
