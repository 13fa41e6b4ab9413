package conditions

import (
	"github.com/azsvc/azsvc/plan"
)

// countChanges counts p's changes, blocked entries, refusals and values
// the API server assigns, per Service and endpoint owner. A refusal names
// a resource, not a Service: it counts for the Services of the changes to
// that resource or, for a load balancer or NSG write, to its children.
func countChanges(p *plan.Plan) map[string]*Changes {
	out := map[string]*Changes{}
	of := func(s string) *Changes {
		if out[s] == nil {
			out[s] = &Changes{}
		}
		return out[s]
	}
	byAddress := map[string][]string{}
	for _, c := range p.Changes {
		id := c.ID()
		byAddress[id.Address()] = append(byAddress[id.Address()], c.Services...)
		if parent, ok := id.ParentID(); ok {
			byAddress[parent.Address()] = append(byAddress[parent.Address()], c.Services...)
		}
		for _, s := range c.Services {
			count(of(s), c)
		}
	}
	for _, bl := range p.Blocked {
		for _, s := range bl.Services {
			of(s).Blocked++
		}
	}
	for _, r := range p.Refused {
		for _, s := range plan.SortedUnique(byAddress[r.Address]) {
			of(s).Refused++
		}
	}
	for _, u := range p.Unresolved {
		if u.Service != "" {
			of(u.Service).Unresolved++
		}
	}
	return out
}

// count adds one change; a replace counts once, as a replace.
func count(n *Changes, c *plan.Change) {
	switch {
	case c.IsReplace():
		n.Replace++
	case c.Has(plan.ActionDelete):
		n.Delete++
	case c.Has(plan.ActionCreate):
		n.Create++
	case c.Has(plan.ActionUpdate):
		n.Update++
	case c.Has(plan.ActionAdopt):
		n.Adopt++
	}
}

// inSync is InSync for owner: True when a plan has nothing to do for it,
// False with what it would do otherwise, refusals first, then blocked
// changes, then changes.
func (b *builder) inSync(owner string) Condition {
	n := b.changes[owner]
	if n == nil || *n == (Changes{}) {
		return Condition{Type: InSync, Status: True, Reason: AsExpected}
	}
	c := Condition{Type: InSync, Status: False, Reason: ChangesPending, Changes: n}
	switch {
	case n.Refused > 0:
		c.Reason = Refused
	case n.Blocked > 0:
		c.Reason = Blocked
	}
	return c
}
