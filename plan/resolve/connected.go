package resolve

import (
	"github.com/azsvc/azsvc/plan"
)

// ConnectedScope is what a plan with --prune reads besides read, once read
// is read: the resource groups of the private endpoints connected to the
// private link services azsvc manages, for endpoints and DNS zones. A
// PrivateEndpoint removed from the input leaves no trace of where its
// endpoint lives (azsvc keeps no state); the PLS's connections still name
// it. The groups are optional: another consumer's group may not be
// readable. Without --prune nothing outside the input is deleted, so
// nothing more is read.
func ConnectedScope(observed *plan.State, scope plan.Scope, read plan.ReadScope, def string) plan.ReadScope {
	var rs plan.ReadScope
	if !scope.Prune {
		return rs
	}
	owners := NewOwners(scope, plan.NewState(), observed)
	for _, pls := range observed.OfKind(plan.KindPrivateLinkService) {
		if !owners.Of(pls).Managed {
			continue
		}
		for _, c := range plan.AsPrivateLinkService(pls).Connections() {
			m, _ := c.(map[string]any)
			raw, _ := m["privateEndpoint"].(string)
			id, err := plan.ParseID(raw)
			if err != nil {
				continue
			}
			for _, k := range []plan.Kind{plan.KindPrivateEndpoint, plan.KindPrivateDNSZone} {
				if !read.Has(k, id.Subscription, id.ResourceGroup, def) {
					rs.AddOptional(id.Subscription, k, id.ResourceGroup)
				}
			}
		}
	}
	return rs
}
