package plantest

import (
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// sharedUserPIP rewrites a fixture state so that every public Service of
// svcs uses one frontend, named by the first of them, on a user-assigned
// public IP (no tags) with address addr, as examples/shared-ip does.
func sharedUserPIP(st *plan.State, addr string, observed bool, svcs ...svc) *plan.State {
	pip := plan.NewID(tSub, tRG, plan.KindPublicIP, "shared-ingress-pip")
	fe := plan.ChildID(lbID(false), plan.KindFrontend, svcs[0].prefix())
	out := plan.NewState()
	for _, r := range st.Resources() {
		r = r.Clone()
		switch r.Kind() {
		case plan.KindPublicIP:
			continue
		case plan.KindFrontend:
			if r.Key() != fe.Key() {
				continue
			}
			r.Properties["publicIPAddress"] = plan.Ref(pip)
		case plan.KindRule:
			r.Properties["frontendIPConfiguration"] = plan.Ref(fe)
		case plan.KindSecurityRule:
			plan.SetDestinations(r.Properties, []any{addr})
		}
		out.Put(r)
	}
	if observed {
		out.Put(&plan.Resource{ID: pip, Location: "eastus", Etag: `W/"pip"`, SKU: map[string]any{"name": "Standard"},
			Properties: map[string]any{"ipAddress": addr, "publicIPAllocationMethod": "Static"}})
	}
	return out
}

// TestSharedUserAssignedIPKeepsOutOfScopePorts: with b in scope and a
// (sharing b's user-assigned public IP) out of it, a's NSG rule keeps the
// shared address, while a port b no longer serves loses it (ccm-semantics
// §5.5 step 1; DESIGN.md: Services absent from the input are left alone).
func TestSharedUserAssignedIPKeepsOutOfScopePorts(t *testing.T) {
	const addr = "20.62.10.5"
	a := svc{name: "edge/web", uid: uid(1), ports: []int{80}}
	b := svc{name: "edge/mqtt", uid: uid(2), ports: []int{8883}}
	oldB := b
	oldB.ports = []int{8883, 1883}
	observed := sharedUserPIP(observe(world(oldB, a)), addr, true, oldB, a)
	desired := sharedUserPIP(world(b), addr, false, b)
	scope := scopeOf(false, b)
	scope.Services[0].PinnedIPs = []string{addr}

	p := mustDiff(t, desired, observed, scope)
	var got []string
	for _, c := range p.Changes {
		got = append(got, strings.Join(actionStrings(c.Actions), "+")+" "+c.ID().Address())
	}
	want := []string{
		"delete lb/kubernetes/probe/" + b.prefix() + "-TCP-1883",
		"delete lb/kubernetes/rule/" + b.prefix() + "-TCP-1883",
		"delete nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_8883_1883",
		"create nsg/aks-agentpool-nsg/rule/k8s-azure-lb_allow_IPv4_8883",
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing change %q", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("unexpected change %q", g)
		}
	}
}
