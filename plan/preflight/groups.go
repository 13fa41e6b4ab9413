package preflight

import "github.com/azsvc/azsvc/plan"

// checkGroups refuses the writes into a resource group the plan's reads
// found not to exist: azsvc creates no resource group, and ARM answers
// ResourceGroupNotFound (a resource-group annotation with a typo would
// otherwise stop an apply half-way). One refusal per group and write.
func checkGroups(p *plan.Plan, observed *plan.Index) []plan.Refusal {
	if observed == nil || observed.State == nil {
		return nil
	}
	var refused []plan.Refusal
	seen := map[plan.Key]bool{}
	for _, st := range p.Steps {
		id := st.Target
		if st.Op != plan.OpPut || seen[id.Key()] || !observed.State.GroupMissing(id.Subscription, id.ResourceGroup) {
			continue
		}
		seen[id.Key()] = true
		refused = append(refused, plan.Refusal{Address: id.Address(), Code: plan.RefuseGroupMissing, Other: id.ResourceGroup})
	}
	return refused
}
