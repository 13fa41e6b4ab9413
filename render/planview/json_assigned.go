package planview

import "github.com/azsvc/azsvc/plan"

func unresolvedJSON(us []plan.Unresolved) []plan.Unresolved {
	out := make([]plan.Unresolved, len(us))
	for i, u := range us {
		u.Addresses = nonNil(u.Addresses)
		out[i] = u
	}
	return out
}
