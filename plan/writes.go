package plan

import (
	"cmp"
	"slices"
	"strings"
)

// WriteScope is one subscription a plan writes to, with its resource
// groups: what a reviewer must see before anything else about where a
// plan lands (DESIGN.md "Diff, ownership, order"). A HyperShift plan
// writes half its changes into the guest's subscription (issue 22 item 2).
type WriteScope struct {
	Subscription string `json:"subscription_id"`
	// Cluster: the cluster's own subscription (azure.json's).
	Cluster        bool          `json:"cluster"`
	ResourceGroups []GroupWrites `json:"resource_groups"`
	Changes        int           `json:"changes"`
}

// GroupWrites counts the changes a plan makes in one resource group.
type GroupWrites struct {
	Name    string `json:"name"`
	Changes int    `json:"changes"`
}

// WriteScopes lists the subscriptions p's changes land in, the cluster's
// (clusterSub) first, then by ID; the resource groups of each by name.
// IDs and names compare case-insensitively, as ARM does, and read as the
// first change spells them.
func WriteScopes(p *Plan, clusterSub string) []WriteScope {
	var out []WriteScope
	for _, c := range p.Changes {
		id := c.ID()
		i := slices.IndexFunc(out, func(w WriteScope) bool { return strings.EqualFold(w.Subscription, id.Subscription) })
		if i < 0 {
			out = append(out, WriteScope{Subscription: id.Subscription, Cluster: strings.EqualFold(id.Subscription, clusterSub)})
			i = len(out) - 1
		}
		w := &out[i]
		w.Changes++
		j := slices.IndexFunc(w.ResourceGroups, func(g GroupWrites) bool { return strings.EqualFold(g.Name, id.ResourceGroup) })
		if j < 0 {
			w.ResourceGroups = append(w.ResourceGroups, GroupWrites{Name: id.ResourceGroup})
			j = len(w.ResourceGroups) - 1
		}
		w.ResourceGroups[j].Changes++
	}
	for _, w := range out {
		slices.SortFunc(w.ResourceGroups, func(a, b GroupWrites) int { return cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	}
	slices.SortFunc(out, func(a, b WriteScope) int {
		if a.Cluster != b.Cluster {
			if a.Cluster {
				return -1
			}
			return 1
		}
		return cmp.Compare(strings.ToLower(a.Subscription), strings.ToLower(b.Subscription))
	})
	return out
}

// SameScope reports whether two IDs lie in the same subscription and
// resource group.
func SameScope(a, b ID) bool {
	return strings.EqualFold(a.Subscription, b.Subscription) && strings.EqualFold(a.ResourceGroup, b.ResourceGroup)
}
