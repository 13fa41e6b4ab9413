package apply

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// awaiting lists, in plan order, the private endpoints this run wrote
// whose connection ARM left Pending and no later step approved: their PLS
// owner has to approve them. Apply succeeds all the same (arm-rules §7.3).
func awaiting(applied []*StepResult) []string {
	pending := map[plan.Key]int{} // endpoint -> index in order
	var order []string
	for _, sr := range applied {
		res := sr.Resource
		if res == nil {
			continue
		}
		switch res.Kind() {
		case plan.KindPrivateEndpoint:
			delete(pending, res.Key())
			if strings.EqualFold(plan.AsPrivateEndpoint(res).Status(), plan.ConnectionPending) {
				pending[res.Key()] = len(order)
				order = append(order, res.ID.Address())
			}
		case plan.KindPLSConnection:
			state, _ := res.Properties["privateLinkServiceConnectionState"].(map[string]any)
			if s, _ := state["status"].(string); strings.EqualFold(s, plan.ConnectionApproved) {
				delete(pending, plan.KeyOf(plan.RefID(res.Properties["privateEndpoint"])))
			}
		}
	}
	var out []string
	for i, addr := range order {
		for _, j := range pending {
			if i == j {
				out = append(out, addr)
			}
		}
	}
	return out
}
