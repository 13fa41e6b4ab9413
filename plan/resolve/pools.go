package resolve

import (
	"github.com/azsvc/azsvc/plan"
)

// withPoolMembers finishes the members of an IP-based pool that exists, as
// CCM edits the pool it read rather than writing a new one
// (ccm-semantics §7.3 steps 1.5 and 9; ReconcileBackendPools,
// bi.EnsureHostsInPool):
//   - a member whose address stays keeps its name and every other field,
//     in ARM's order; new members follow, in the desired order;
//   - members without an address (not IP-based) go;
//   - the pool's virtualNetwork stays as ARM has it; a pool without one
//     takes the first member's, which members then lose, and else the
//     desired one.
//
// The desired pool lists members only when the input has Nodes; a pool
// without them is returned as it is.
func withPoolMembers(want, got *plan.Resource) *plan.Resource {
	wanted, ok := want.Properties[plan.PoolMembersField].([]any)
	if !ok || got == nil {
		return want
	}
	byIP := make(map[string]bool, len(wanted))
	for _, m := range wanted {
		byIP[memberIP(m)] = true
	}
	observed, _ := got.Properties[plan.PoolMembersField].([]any)
	vnet, moved := poolVNet(got, observed)
	out := make([]any, 0, len(wanted))
	kept := make(map[string]bool, len(observed))
	for _, m := range observed {
		ip := memberIP(m)
		if ip == "" || !byIP[ip] {
			continue
		}
		if moved {
			m = withoutMemberVNet(m)
		}
		out = append(out, m)
		kept[ip] = true
	}
	for _, m := range wanted {
		if !kept[memberIP(m)] {
			out = append(out, m)
		}
	}
	c := want.Clone()
	c.Properties[plan.PoolMembersField] = out
	if vnet != nil {
		c.Properties["virtualNetwork"] = vnet
	}
	return c
}

// poolVNet is the virtualNetwork the pool keeps: ARM's, else the first
// member's (moved reports that members lose theirs), else nil (the
// desired one).
func poolVNet(got *plan.Resource, members []any) (vnet any, moved bool) {
	if v, ok := got.Properties["virtualNetwork"].(map[string]any); ok && v["id"] != nil && v["id"] != "" {
		return plan.CloneValue(v), false
	}
	for _, m := range members {
		if v, ok := memberProps(m)["virtualNetwork"].(map[string]any); ok && v["id"] != nil && v["id"] != "" {
			return plan.CloneValue(v), true
		}
	}
	return nil, false
}

func withoutMemberVNet(m any) any {
	c, ok := plan.CloneValue(m).(map[string]any)
	if !ok {
		return m
	}
	if p, ok := c["properties"].(map[string]any); ok {
		p["virtualNetwork"] = nil // a desired null: the field must go (plan.Overlay)
	}
	return c
}

func memberProps(m any) map[string]any {
	mm, _ := m.(map[string]any)
	p, _ := mm["properties"].(map[string]any)
	return p
}

func memberIP(m any) string {
	ip, _ := memberProps(m)["ipAddress"].(string)
	if ip == "" {
		return ""
	}
	return plan.CanonicalIP(ip)
}
