package plantest

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// nodesWorld is svcA's world with floating IP disabled: its NSG rule's
// destinations are the node IPs of the cluster pool, alone or next to an
// additional public IP.
func nodesWorld(extra ...any) *plan.State {
	st := world(svcA)
	pool := plan.ChildID(lbID(false), plan.KindBackendPool, tCluster).Key()
	for _, r := range st.OfKind(plan.KindSecurityRule) {
		delete(r.Properties, "destinationAddressPrefix")
		if len(extra) == 0 {
			r.Properties[plan.DestinationField] = plan.BackendNodeIPs(pool)
		} else {
			r.Properties[plan.DestinationField] = append(append([]any(nil), extra...), plan.BackendNodeIPs(pool))
		}
	}
	return st
}

func nodeRule(p *plan.Plan) *plan.Change {
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule {
			return c
		}
	}
	return nil
}

func TestNodeIPsFromANodeIPPool(t *testing.T) {
	desired := nodesWorld()
	observed := observe(world(svcA))
	for _, r := range observed.OfKind(plan.KindSecurityRule) {
		observed.Delete(r.Key())
	}
	pool, _ := observed.Get(plan.ChildID(lbID(false), plan.KindBackendPool, tCluster).Key())
	pool.Properties["loadBalancerBackendAddresses"] = []any{
		map[string]any{"name": "node-2", "properties": map[string]any{"ipAddress": "10.224.0.5"}},
		map[string]any{"name": "node-1", "properties": map[string]any{"ipAddress": "10.224.0.4"}},
		map[string]any{"name": "node-1-again", "properties": map[string]any{"ipAddress": "10.224.0.4"}},
	}
	p := mustDiff(t, desired, observed, scopeOf(false, svcA))
	c := nodeRule(p)
	if c == nil || !c.Has(plan.ActionCreate) {
		t.Fatalf("no NSG rule create: %v", stepLines(p))
	}
	if got, want := c.After.Properties[plan.DestinationField], []any{"10.224.0.4", "10.224.0.5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("destinations = %v, want %v", got, want)
	}
	if len(p.Blocked) != 0 {
		t.Errorf("blocked: %v", p.Blocked)
	}
}

// TestNodeIPsNotVisible (issue 20): a new rule whose node IPs neither the
// input (no Nodes) nor the pool (a nodeIPConfiguration pool lists NICs)
// shows gets them as an unknown, not null: CCM builds no rule without
// them, so the plan lists them as needed and apply refuses.
func TestNodeIPsNotVisible(t *testing.T) {
	pool := plan.ChildID(lbID(false), plan.KindBackendPool, tCluster).Key()
	tests := []struct {
		name      string
		desired   *plan.State
		wantDests []any
	}{
		{"only node IPs: unknown", nodesWorld(), []any{plan.NodeIPs(pool)}},
		{"with an additional IP: unknown beside it", nodesWorld("20.9.9.9"), []any{"20.9.9.9", plan.NodeIPs(pool)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			observed := observe(world(svcA))
			for _, r := range observed.OfKind(plan.KindSecurityRule) {
				observed.Delete(r.Key())
			}
			p := mustDiff(t, tc.desired, observed, scopeOf(false, svcA))
			c := nodeRule(p)
			if c == nil || !c.Has(plan.ActionCreate) || !reflect.DeepEqual(plan.AsSecurityRule(c.After).Destinations(), tc.wantDests) {
				t.Errorf("rule change = %+v, want a create with destinations %v", c, tc.wantDests)
			}
			if len(p.Blocked) != 0 || len(p.Unresolved) != 1 || p.Unresolved[0].Field != plan.FieldNodeIPs+" of lb/kubernetes/pool/kubernetes" {
				t.Errorf("blocked %+v, unresolved %+v: want the pool's node IPs unresolved", p.Blocked, p.Unresolved)
			}
		})
	}
}

// TestNodeIPsEmptyWithNodes: with Nodes in the input, a pool whose members
// desired state leaves to ARM and ARM shows none has none: CCM finds no
// destination and builds no rule (§5.5 step 4), so the rule is not
// planned, with a note, and nothing is unresolved.
func TestNodeIPsEmptyWithNodes(t *testing.T) {
	observed := observe(world(svcA))
	for _, r := range observed.OfKind(plan.KindSecurityRule) {
		observed.Delete(r.Key())
	}
	scope := scopeOf(false, svcA)
	scope.NodeIPs = map[string]string{"10.224.0.9": "node-9"}
	p := mustDiff(t, nodesWorld(), observed, scope)
	if c := nodeRule(p); c != nil {
		t.Errorf("planned %v %s", c.Actions, c.ID().Address())
	}
	if len(p.Unresolved) != 0 || len(p.Blocked) != 1 || p.Blocked[0].Code != plan.BlockNodeIPsNotPlanned {
		t.Errorf("unresolved %+v, blocked %+v: want one note node_ips_not_planned", p.Unresolved, p.Blocked)
	}
}
